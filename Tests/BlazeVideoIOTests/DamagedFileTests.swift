import BlazeTestSupport
import BlazeVideoIO
import Foundation
import Testing

/// Videos cut short or damaged in the middle: the reader delivers the good frames, then a typed error.
@Suite("Damaged videos")
struct DamagedFileTests {
    /// Writes `video` to `name` in `folder` and returns the file's bytes.
    static func written(_ video: TestVideo, _ folder: URL, _ name: String, _ options: VideoWriterOptions) throws -> [UInt8] {
        let path = folder.appendingPathComponent(name).path
        try video.write(to: path, options: options)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Every frame delivered matches the frame written at its index (no damaged picture is delivered).
    static func expectGood(_ frames: [VideoFrame], _ video: TestVideo, minimumPSNR: Double) throws {
        for frame in frames {
            let quality = psnr(try frame.image.uprightRGB().pixels, video.frames[frame.index].pixels)
            #expect(quality > minimumPSNR, "frame \(frame.index): PSNR \(quality) dB")
        }
    }

    @Test("Matroska and AVI cut at several offsets: the frames before the cut, then .truncated",
          arguments: ["cut.mkv", "cut.avi"])
    func truncatedStream(_ name: String) throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try TestVideo.pan()
        let codec: VideoCodec = name.hasSuffix(".avi") ? .mpeg4 : .h264
        let bytes = try Self.written(video, folder, name, VideoWriterOptions(codec: codec, keyFrameInterval: 5))
        var previous = 0
        for fraction in [0.3, 0.5, 0.7, 0.9] {
            let cut = Array(bytes.prefix(Int(Double(bytes.count) * fraction)))
            let reader = try VideoReader(data: cut)
            let (frames, error) = readAll(reader)
            // At 30% an AVI's first key frame (after a 5 kB header) may be cut: no frame at all.
            #expect(frames.count < video.frames.count && (fraction < 0.5 || frames.count > 0), "\(name) cut at \(fraction)")
            #expect(frames.count >= previous)
            #expect(error == .truncated(afterFrames: frames.count, detail: error.map(Self.detail) ?? ""), "\(name) \(fraction)")
            try Self.expectGood(frames, video, minimumPSNR: 28)
            previous = frames.count
        }
    }

    @Test("an MP4 cut before its index (moov at the end) is .truncated when opened")
    func truncatedMP4() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = try Self.written(try TestVideo.pan(), folder, "cut.mp4", VideoWriterOptions(codec: .h264))
        for fraction in [0.1, 0.5, 0.95] {
            let cut = Array(bytes.prefix(Int(Double(bytes.count) * fraction)))
            let error = videoError { () throws(VideoIOError) in try VideoReader(data: cut) }
            guard case .truncated(0, _) = error else {
                Issue.record("cut at \(fraction): \(String(describing: error))")
                continue
            }
        }
    }

    @Test("bytes overwritten in the middle of the frames: the frames before the damage, then .corrupt",
          arguments: ["damaged.mkv", "damaged.avi", "damaged.mp4"])
    func corruptMiddle(_ name: String) throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try TestVideo.pan()
        let codec: VideoCodec = name.hasSuffix(".avi") ? .mpeg4 : .h264
        var bytes = try Self.written(video, folder, name, VideoWriterOptions(codec: codec, keyFrameInterval: 5))
        var generator = SplitMix64(seed: 15)
        let start = bytes.count / 2
        for i in start..<start + 400 { bytes[i] = UInt8(truncatingIfNeeded: generator.next()) }
        let (frames, error) = readAll(try VideoReader(data: bytes))
        #expect(frames.count > 0 && frames.count < video.frames.count)
        guard case .corrupt(let after, _) = error else {
            Issue.record("\(name): \(String(describing: error))")
            return
        }
        #expect(after == frames.count)
        // H.264 cannot always tell random bytes from a picture: the decoder may accept the first damaged picture
        // and only fail on a later packet, so the frame delivered last before the error may show the damage
        // (Documentation/Video.md). Every frame before it is intact.
        try Self.expectGood(Array(frames.dropLast()), video, minimumPSNR: 28)
    }

    static func detail(_ error: VideoIOError) -> String {
        if case .truncated(_, let detail) = error { return detail }
        if case .corrupt(_, let detail) = error { return detail }
        return ""
    }
}
