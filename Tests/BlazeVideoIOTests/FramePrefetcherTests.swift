import BlazeTestSupport
import BlazeVideoIO
import Foundation
import Testing

/// `FramePrefetcher`: the reader's frames, times and errors in the reader's order, from a second thread, with
/// bounded buffers, and no thread left behind when the caller stops early.
@Suite("Frame prefetcher")
struct FramePrefetcherTests {
    /// Every frame a prefetcher delivers (kept: the copy-on-write path), and the error that ended the stream.
    static func prefetchAll(_ prefetcher: FramePrefetcher) -> (frames: [VideoFrame], error: VideoIOError?) {
        readAll { () throws(VideoIOError) in try prefetcher.nextFrame() }
    }

    /// Writes `video` into a fresh folder and returns the file's bytes.
    static func bytes(of video: TestVideo, _ name: String, _ options: VideoWriterOptions = .init()) throws -> [UInt8] {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(name).path
        try video.write(to: path, options: options)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test("the reader's frames, pixels, times and indices, in order, kept by the caller", arguments: [1, 2, 4])
    func sameFramesAsTheReader(depth: Int) throws {
        let bytes = try Self.bytes(of: try TestVideo.pan(), "pan.mp4")
        let (expected, expectedError) = readAll(try VideoReader(data: bytes))
        #expect(expected.count == 20 && expectedError == nil)
        let prefetcher = try FramePrefetcher(try VideoReader(data: bytes), depth: depth)
        #expect(prefetcher.info == (try VideoReader(data: bytes)).info)
        let (frames, error) = Self.prefetchAll(prefetcher)
        #expect(error == nil)
        #expect(frames == expected)  // pixels, orientation, time, hasContainerTime, index
        #expect(frames.map(\.index) == Array(0..<20))
        #expect(try prefetcher.nextFrame() == nil)
    }

    @Test("a truncated and a damaged file: the same good frames, then the same error once, then nil",
          arguments: ["cut.mkv", "damaged.mkv", "damaged.avi"])
    func errorAfterTheLastGoodFrame(_ name: String) throws {
        let codec: VideoCodec = name.hasSuffix(".avi") ? .mpeg4 : .h264
        var bytes = try Self.bytes(of: try TestVideo.pan(), name, VideoWriterOptions(codec: codec, keyFrameInterval: 5))
        if name.hasPrefix("cut") {
            bytes = Array(bytes.prefix(bytes.count / 2))
        } else {
            var generator = SplitMix64(seed: 15)
            let start = bytes.count / 2
            for i in start..<start + 400 { bytes[i] = UInt8(truncatingIfNeeded: generator.next()) }
        }
        let (expected, expectedError) = readAll(try VideoReader(data: bytes))
        #expect(expected.count > 0 && expected.count < 20)
        #expect(expectedError != nil)
        for depth in [1, 3] {
            let prefetcher = try FramePrefetcher(try VideoReader(data: bytes), depth: depth)
            let (frames, error) = Self.prefetchAll(prefetcher)
            #expect(frames == expected, "\(name), depth \(depth)")
            #expect(error == expectedError, "\(name), depth \(depth)")
            #expect(try prefetcher.nextFrame() == nil)
            #expect(try prefetcher.nextFrame() == nil)
        }
    }

    @Test("a slow caller: at most depth frames decoded ahead, at most depth + 1 buffers")
    func boundedReadAhead() throws {
        let bytes = try Self.bytes(of: try TestVideo.pan(), "pan.mp4")
        for depth in [1, 2, 3] {
            let prefetcher = try FramePrefetcher(try VideoReader(data: bytes), depth: depth)
            var delivered = 0
            while let frame = try prefetcher.nextFrame() {
                delivered += 1
                #expect(frame.index == delivered - 1)
                Thread.sleep(forTimeInterval: 0.005)  // the prefetcher's thread fills the queue meanwhile
                #expect(prefetcher.framesDecoded <= delivered + depth, "depth \(depth)")
            }
            #expect(delivered == 20)
            #expect(prefetcher.framesDecoded == 20)
            #expect(prefetcher.buffersAllocated >= 1 && prefetcher.buffersAllocated <= depth + 1, "depth \(depth)")
        }
    }

    @Test("stopping early: cancel() ends the stream at once, and releasing the prefetcher releases its reader")
    func earlyStop() throws {
        let bytes = try Self.bytes(of: try TestVideo.pan(), "pan.mp4")
        weak var weakReader: VideoReader?
        do {
            let reader = try VideoReader(data: bytes)
            weakReader = reader
            let prefetcher = try FramePrefetcher(reader, depth: 3)
            #expect(try prefetcher.nextFrame()?.index == 0)
            #expect(try prefetcher.nextFrame()?.index == 1)
            prefetcher.cancel()
            prefetcher.cancel()
            #expect(try prefetcher.nextFrame() == nil)
            #expect(prefetcher.framesDecoded <= 2 + 3 + 1)  // the waiting frames and the one being decoded
        }
        // Released without cancel(), after one frame, or before any.
        do {
            let prefetcher = try FramePrefetcher(try VideoReader(data: bytes), depth: 2)
            #expect(try prefetcher.nextFrame()?.index == 0)
        }
        _ = try FramePrefetcher(try VideoReader(data: bytes), depth: 1)
        // The thread drops its reference just after the prefetcher's deinit returns.
        let deadline = Date().addingTimeInterval(5)
        while weakReader != nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
        #expect(weakReader == nil)
    }

    @Test("cancel() from another thread while the caller reads: the caller's loop ends, later calls give nil")
    func cancelFromAnotherThread() throws {
        let bytes = try Self.bytes(of: try TestVideo.pan(), "pan.mp4")
        for depth in [1, 3] {
            let prefetcher = try FramePrefetcher(try VideoReader(data: bytes), depth: depth)
            #expect(try prefetcher.nextFrame()?.index == 0)
            let cancelled = DispatchSemaphore(value: 0)
            Thread {
                prefetcher.cancel()
                cancelled.signal()
            }.start()
            var next = 1
            while let frame = try prefetcher.nextFrame() {
                #expect(frame.index == next)
                next += 1
            }
            cancelled.wait()
            #expect(next <= 20)
            #expect(try prefetcher.nextFrame() == nil)
        }
    }

    @Test("VideoReader.nextFrame(into:): the frames of nextFrame(), decoded in place into the caller's storage")
    func readerRecycling() throws {
        let bytes = try Self.bytes(of: try TestVideo.pan(count: 8), "pan.mp4")
        let (expected, _) = readAll(try VideoReader(data: bytes))
        let reader = try VideoReader(data: bytes)
        // Storage another reader holds, marked with another format and orientation: the reader sets its own.
        var frame = try #require(try VideoReader(data: bytes).nextFrame())
        (frame.image.pixelFormat, frame.image.orientation, frame.index) = (.gray8, .left, -1)
        var addresses: Set<UInt> = []
        var kept: VideoFrame?
        for index in 0..<8 {
            #expect(try reader.nextFrame(into: &frame))
            #expect(frame == expected[index])
            addresses.insert(frame.image.pixels.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) })
            if index == 5 { kept = frame }  // shared: the next frame is copied on write, this one stays intact
        }
        #expect(kept == expected[5])
        #expect(try !reader.nextFrame(into: &frame))
        #expect(try reader.nextFrame() == nil)
        // One buffer for frames 0...5 (the first copied on write from the other reader's), another from frame 6 on.
        #expect(addresses.count == 2)
    }

    @Test("a depth below 1 is .invalidArgument")
    func badDepth() throws {
        let bytes = try Self.bytes(of: try TestVideo.pan(count: 2), "pan.mp4")
        for depth in [0, -1] {
            let error = videoError { () throws(VideoIOError) in try FramePrefetcher(try VideoReader(data: bytes), depth: depth) }
            guard case .invalidArgument = error else {
                Issue.record("depth \(depth): \(String(describing: error))")
                continue
            }
        }
    }
}
