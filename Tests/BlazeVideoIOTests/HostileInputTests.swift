import BlazeTestSupport
import BlazeVideoIO
import Foundation
import Testing

/// Files that are not videos, are not files, or declare more than the caller allows: typed errors, at once.
@Suite("Hostile video inputs")
struct HostileInputTests {
    @Test("a missing file, a text file named .mp4, an empty file, a PNG named .mp4, a directory")
    func notVideos() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("missing.mp4").path
        #expect(videoError { () throws(VideoIOError) in try VideoReader(contentsOf: missing) } == .fileNotFound(path: missing))

        let text = folder.appendingPathComponent("text.mp4")
        try Data(String(repeating: "not a video, only words\n", count: 200).utf8).write(to: text)
        guard case .notAVideo = videoError({ () throws(VideoIOError) in try VideoReader(contentsOf: text.path) }) else {
            Issue.record("text file")
            return
        }
        let empty = folder.appendingPathComponent("empty.mp4")
        try Data().write(to: empty)
        #expect(videoError { () throws(VideoIOError) in try VideoReader(contentsOf: empty.path) }
                == .notAVideo("the file is empty"))
        #expect(videoError { () throws(VideoIOError) in try VideoReader(data: []) } == .notAVideo("the file is empty"))

        let picture = TestResources.modelsDirectory.appendingPathComponent("samples/astronaut.png")
        let png = folder.appendingPathComponent("picture.mp4")
        try FileManager.default.copyItem(at: picture, to: png)
        guard case .notAVideo = videoError({ () throws(VideoIOError) in try VideoReader(contentsOf: png.path) }) else {
            Issue.record("PNG named .mp4")
            return
        }
        #expect(videoError { () throws(VideoIOError) in try VideoReader(contentsOf: folder.path) }
                == .notARegularFile(path: folder.path, kind: "a directory"))
    }

    @Test("an MP4 whose only track is relabelled as sound has no video stream; an unknown sample entry no decoder")
    func streamsAndCodecs() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("pan.mp4").path
        try TestVideo.pan(count: 3).write(to: path, options: VideoWriterOptions(codec: .h264))
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        /// `bytes` with every occurrence of `old` (at `offset` bytes after `anchor`) replaced by `new`.
        func patched(_ anchor: String, offset: Int, _ old: String, _ new: String) -> [UInt8] {
            var out = bytes
            let anchor = Array(anchor.utf8), old = Array(old.utf8), new = Array(new.utf8)
            var replaced = 0
            for i in 0..<(out.count - anchor.count - offset - old.count) where Array(out[i..<i + anchor.count]) == anchor {
                let j = i + anchor.count + offset
                if Array(out[j..<j + old.count]) == old {
                    out.replaceSubrange(j..<j + old.count, with: new)
                    replaced += 1
                }
            }
            #expect(replaced == 1)
            return out
        }
        // The track's handler type (hdlr: version and flags, pre_defined, then the type).
        let sound = patched("hdlr", offset: 8, "vide", "soun")
        #expect(videoError { () throws(VideoIOError) in try VideoReader(data: sound) } == .noVideoStream)
        // The sample entry's four-character code.
        let unknown = patched("stsd", offset: 12, "avc1", "zzzz")
        guard case .unsupportedCodec = videoError({ () throws(VideoIOError) in try VideoReader(data: unknown) }) else {
            Issue.record("\(String(describing: videoError { () throws(VideoIOError) in try VideoReader(data: unknown) }))")
            return
        }
    }

    @Test("a FIFO named .mp4 is refused at once (no writer: reading it would block)")
    func fifo() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("pipe.mp4").path
        #expect(mkfifo(path, 0o600) == 0)
        #expect(videoError { () throws(VideoIOError) in try VideoReader(contentsOf: path) }
                == .notARegularFile(path: path, kind: "a FIFO (named pipe)"))
    }

    @Test("frames larger than lowered limits are refused before any frame is decoded")
    func sizeLimits() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("large.mkv").path
        let picture = try Samples.astronaut()
        let video = TestVideo(frames: [picture.cropped(x: 0..<320, y: 0..<240)], times: [0])
        try video.write(to: path)
        for options in [VideoReadingOptions(maximumWidth: 319), VideoReadingOptions(maximumHeight: 200),
                        VideoReadingOptions(maximumPixelCount: 320 * 240 - 1)] {
            #expect(videoError { () throws(VideoIOError) in try VideoReader(contentsOf: path, options: options) }
                    == .tooLarge(width: 320, height: 240))
        }
        let reader = try VideoReader(contentsOf: path, options: VideoReadingOptions(maximumPixelCount: 320 * 240))
        #expect(try reader.nextFrame()?.image.width == 320)
    }

    @Test("a lowered frame count ends the stream with .tooManyFrames after that many frames")
    func frameLimit() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("pan.mp4").path
        try TestVideo.pan(count: 8).write(to: path)
        let (frames, error) = readAll(try VideoReader(contentsOf: path, options: VideoReadingOptions(maximumFrameCount: 5)))
        #expect(frames.count == 5)
        guard case .tooManyFrames = error else {
            Issue.record("\(String(describing: error))")
            return
        }
    }

    @Test("options a reader cannot honour are invalid arguments")
    func invalidOptions() {
        #expect(videoError { () throws(VideoIOError) in try VideoReader(data: [0], options: VideoReadingOptions(pixelFormat: .gray8)) }
                == .invalidArgument("a video reader delivers rgb8, rgba8, bgra8 or i420, not gray8"))
        #expect(videoError { () throws(VideoIOError) in try VideoReader(data: [0], options: VideoReadingOptions(maximumWidth: 0)) }
                == .invalidArgument("VideoReadingOptions: limits must be positive"))
    }

    @Test("a few hundred mutated videos end in frames or typed errors (the fuzz target's regression net)")
    func mutations() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var seeds: [[UInt8]] = []
        for (name, codec) in [("a.mp4", VideoCodec.h264), ("a.mkv", .h264), ("a.avi", .mpeg4)] {
            let path = folder.appendingPathComponent(name).path
            try TestVideo.pan(count: 6).write(to: path, options: VideoWriterOptions(codec: codec, keyFrameInterval: 3))
            seeds.append(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        }
        var generator = SplitMix64(seed: 17)
        var outcomes = (frames: 0, errors: 0)
        for round in 0..<240 {
            var bytes = seeds[round % seeds.count]
            for _ in 0..<(1 + Int(generator.next() % 8)) {
                let position = Int(generator.next() % UInt64(bytes.count))
                bytes[position] = UInt8(truncatingIfNeeded: generator.next())
            }
            if round % 5 == 0 { bytes.removeLast(Int(generator.next() % UInt64(bytes.count))) }
            let options = VideoReadingOptions(maximumWidth: 1024, maximumHeight: 1024, maximumFrameCount: 64)
            do {
                let (frames, error) = readAll(try VideoReader(data: bytes, options: options))
                outcomes.frames += frames.count
                if error != nil { outcomes.errors += 1 }
            } catch {
                outcomes.errors += 1
            }
        }
        #expect(outcomes.errors > 0 && outcomes.frames > 0)
    }
}
