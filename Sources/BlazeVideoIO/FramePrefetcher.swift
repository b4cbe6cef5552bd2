import Foundation

/// Reads a `VideoReader`'s frames on a thread of its own, up to `depth` frames ahead of the caller, so that
/// decoding the next frames overlaps with the caller's work on the current one (`blazeface track` runs the
/// face tracker on one thread while the prefetcher decodes on a second).
///
/// The frames, their times and indices, and the errors are exactly the reader's, in the same order: the good
/// frames of a damaged file first, then its `VideoIOError` once, then nil on every later call.
///
/// Memory is bounded: at most `depth` decoded frames wait, and the pixel buffers are recycled, so the
/// prefetcher holds at most `depth + 1` frames of pixels (the waiting ones and the one last delivered), plus
/// FFmpeg's few decoded pictures. In the steady state it allocates nothing and copies no picture: the reader
/// decodes into the recycled buffers (`VideoReader.nextFrame(into:)`; its own buffer stays empty), and the
/// frame delivered by `nextFrame()` is taken back on the next call and decoded into again. A caller
/// that keeps a frame past the next call keeps a valid image (its buffer is then copied on write: one
/// allocation and one copy).
///
/// Threads: the prefetcher owns the reader from `init` on (its thread is the only one to use it; do not call
/// the reader yourself). It is `Sendable`: every call takes one lock. `nextFrame()` is meant for one consumer
/// (several threads calling it at once are safe but split the frames between them); `cancel()` may be called
/// from any thread. Releasing the prefetcher cancels it and waits for its thread to finish the
/// frame it is decoding, so no thread outlives it.
public final class FramePrefetcher: Sendable {
    /// The reader's `info`.
    public let info: VideoInfo
    /// The most decoded frames waiting for the caller.
    public let depth: Int
    private let state: PrefetchState

    /// Starts the thread that reads `reader`'s frames ahead.
    /// - Parameters:
    ///   - reader: the reader, from now on used only by the prefetcher's thread.
    ///   - depth: the most decoded frames waiting (1 or more; 2 is enough when the decoder and the caller take
    ///     about the same time per frame on average).
    /// - Throws: `VideoIOError.invalidArgument` when `depth` is below 1.
    public init(_ reader: VideoReader, depth: Int = 2) throws(VideoIOError) {
        guard depth >= 1 else { throw .invalidArgument("FramePrefetcher: depth \(depth) is below 1") }
        info = reader.info
        self.depth = depth
        state = PrefetchState(reader: reader, depth: depth)
        let state = state
        let thread = Thread { state.produce() }
        thread.name = "BlazeVideoIO.FramePrefetcher"
        #if canImport(Darwin)
        // The caller's quality-of-service class (NSQualityOfService's raw values are the QOS_CLASS_* values; the
        // caller's QOS_CLASS_DEFAULT or none maps to `.default`), as BlazeRuntime's worker threads get it.
        thread.qualityOfService = QualityOfService(rawValue: Int(qos_class_self().rawValue)) ?? .default
        #endif
        thread.start()
    }

    deinit {
        state.cancel()
        state.waitUntilFinished()
    }

    /// The next frame, or nil after the last one (or after `cancel()`). Waits while the frame is being decoded.
    ///
    /// The returned image's buffer is taken back for decoding on the next call; a caller still holding the image
    /// then keeps its pixels (copy on write), at the price of one allocation.
    /// - Returns: the frame (pixels, time in seconds, index), or nil at the end.
    /// - Throws: what the reader's `nextFrame()` threw (`.corrupt`, `.truncated`, `.tooLarge`,
    ///   `.tooManyFrames`), once, after every frame before it; later calls return nil.
    public func nextFrame() throws(VideoIOError) -> VideoFrame? {
        try state.next()
    }

    /// Stops reading ahead: the frames waiting are released, the thread stops after the frame it is decoding,
    /// and `nextFrame()` returns nil from now on. Safe from any thread, and more than once.
    public func cancel() {
        state.cancel()
    }

    /// Frames decoded by the prefetcher's thread so far (delivered or waiting).
    public var framesDecoded: Int { state.decodedCount }

    /// Pixel buffers the prefetcher has allocated so far: at most `depth + 1` while every delivered frame is
    /// released before the next call (and while the frame size stays the same).
    public var buffersAllocated: Int { state.allocatedCount }
}

/// The state shared by the prefetcher's thread (the producer) and the caller (the consumer), behind one lock.
/// `reader` is touched only by the producer.
private final class PrefetchState: @unchecked Sendable {
    enum Item {
        case frame(VideoFrame)
        case failure(VideoIOError)
        case end
    }

    private let reader: VideoReader
    private let depth: Int
    private let condition = NSCondition()
    /// Decoded frames (or the stream's end), oldest first; at most `depth`.
    private var ready: [Item] = []
    /// Frames whose pixel buffers are free to decode into.
    private var free: [VideoFrame] = []
    /// The frame the consumer got last, taken back on its next call.
    private var delivered: VideoFrame?
    private var cancelled = false
    private var finished = false
    private var decoded = 0
    private var allocated = 0

    init(reader: VideoReader, depth: Int) {
        self.reader = reader
        self.depth = depth
        ready.reserveCapacity(depth)
        free.reserveCapacity(depth + 1)
    }

    var decodedCount: Int { condition.withLock { decoded } }
    var allocatedCount: Int { condition.withLock { allocated } }

    /// The producer's loop: decode while fewer than `depth` frames wait, until the stream ends, fails or is
    /// cancelled.
    func produce() {
        while true {
            condition.lock()
            while !cancelled && ready.count >= depth { condition.wait() }
            if cancelled { break }
            var frame = free.popLast() ?? VideoFrame(image: ImageBuffer(width: 0, height: 0, pixelFormat: .rgb8, pixels: []),
                                                     time: 0, hasContainerTime: false, index: 0)
            condition.unlock()

            let item = decode(into: &frame)

            condition.lock()
            if cancelled { break }
            if case .frame = item { decoded += 1 }
            ready.append(item)
            condition.broadcast()
            if case .frame = item {
                condition.unlock()
                continue
            }
            break
        }
        // The lock is held here.
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Decodes the reader's next frame into `frame`'s buffer.
    private func decode(into frame: inout VideoFrame) -> Item {
        let capacity = frame.image.pixels.count
        do {
            guard try reader.nextFrame(into: &frame) else { return .end }
            if frame.image.pixels.count != capacity { condition.withLock { allocated += 1 } }
            return .frame(frame)
        } catch {
            return .failure(error)
        }
    }

    /// The consumer's side of `FramePrefetcher.nextFrame()`.
    func next() throws(VideoIOError) -> VideoFrame? {
        condition.lock()
        if let frame = delivered {
            delivered = nil
            free.append(frame)
        }
        while !cancelled && ready.isEmpty && !finished { condition.wait() }
        guard !cancelled, !ready.isEmpty else {
            condition.unlock()
            return nil
        }
        let item = ready.removeFirst()
        condition.broadcast()
        switch item {
        case .frame(let frame):
            delivered = frame
            condition.unlock()
            return frame
        case .failure(let error):
            condition.unlock()
            throw error
        case .end:
            condition.unlock()
            return nil
        }
    }

    func cancel() {
        condition.lock()
        cancelled = true
        ready.removeAll()
        free.removeAll()
        delivered = nil
        condition.broadcast()
        condition.unlock()
    }

    func waitUntilFinished() {
        condition.lock()
        while !finished { condition.wait() }
        condition.unlock()
    }
}
