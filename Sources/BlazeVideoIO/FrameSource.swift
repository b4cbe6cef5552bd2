/// A video's frames, decoded on the calling thread (a `VideoReader`) or ahead on a thread of their own (a
/// `FramePrefetcher`): either way the same frames in the same order, then the same error.
///
/// For a loop that should not care which: `blazeface track --read-ahead N` uses a prefetcher for N > 0 and the
/// reader itself for 0.
///
/// Thread safety: not `Sendable` (a `VideoReader` is not); use it on one thread at a time.
public struct FrameSource {
    private let reader: VideoReader?
    private let prefetcher: FramePrefetcher?

    /// The frames of `reader`: decoded up to `readAhead` frames ahead on a second thread when `readAhead` > 0,
    /// else on the thread that calls `next()`. The reader belongs to the source from here on.
    /// - Parameters:
    ///   - reader: the video's reader, positioned where the frames should start.
    ///   - readAhead: how many frames a second thread may decode ahead (0: none, decode on `next()`'s thread).
    /// - Throws: what `FramePrefetcher(_:depth:)` throws for a depth it refuses.
    public init(_ reader: VideoReader, readAhead: Int) throws(VideoIOError) {
        if readAhead > 0 {
            prefetcher = try FramePrefetcher(reader, depth: readAhead)
            self.reader = nil
        } else {
            prefetcher = nil
            self.reader = reader
        }
    }

    /// The next frame.
    /// - Returns: the frame, or nil at the end of the stream.
    /// - Throws: the reader's `VideoIOError`, in the order it occurred.
    public func next() throws(VideoIOError) -> VideoFrame? {
        if let prefetcher { return try prefetcher.nextFrame() }
        return try reader?.nextFrame()
    }
}
