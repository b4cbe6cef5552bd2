import BlazeTestSupport
import BlazeVideoIO
import Foundation
import Testing

/// `VideoWriter`'s contract: the codec it picks, its typed errors, and a valid file after an error or a drop.
@Suite("Video writer")
struct WriterTests {
    static let frame = ImageBuffer(width: 160, height: 120, pixelFormat: .rgb8)

    @Test("automatic picks libx264 where FFmpeg has it (Debian's does), mpeg4 on request")
    func codecChoice() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let automatic = try VideoWriter(path: folder.appendingPathComponent("a.mp4").path, width: 160, height: 120)
        #expect(automatic.codecName == "libx264")
        let mpeg4 = try VideoWriter(path: folder.appendingPathComponent("b.mp4").path, width: 160, height: 120,
                                    options: VideoWriterOptions(codec: .mpeg4))
        #expect(mpeg4.codecName == "mpeg4")
    }

    @Test("bad sizes, containers, frames and times are typed errors")
    func errors() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("out.mp4").path
        guard case .invalidArgument = videoError({ () throws(VideoIOError) in try VideoWriter(path: path, width: 161, height: 120) }) else {
            Issue.record("odd width")
            return
        }
        guard case .unsupportedContainer = videoError({ () throws(VideoIOError) in
            try VideoWriter(path: folder.appendingPathComponent("out.xyz").path, width: 160, height: 120)
        }) else {
            Issue.record("unknown extension")
            return
        }
        let nowhere = folder.appendingPathComponent("missing/out.mp4").path
        guard case .cannotWrite(nowhere, _) = videoError({ () throws(VideoIOError) in
            try VideoWriter(path: nowhere, width: 160, height: 120)
        }) else {
            Issue.record("missing folder")
            return
        }
        let writer = try VideoWriter(path: path, width: 160, height: 120)
        try writer.append(Self.frame, time: 0.1)
        guard case .invalidArgument = videoError({ () throws(VideoIOError) in try writer.append(Self.frame, time: 0.1) }) else {
            Issue.record("repeated time")
            return
        }
        let small = ImageBuffer(width: 80, height: 60, pixelFormat: .rgb8)
        guard case .invalidArgument = videoError({ () throws(VideoIOError) in try writer.append(small) }) else {
            Issue.record("wrong size")
            return
        }
        let bgra = ImageBuffer(width: 160, height: 120, pixelFormat: .bgra8)
        guard case .invalidArgument = videoError({ () throws(VideoIOError) in try writer.append(bgra) }) else {
            Issue.record("wrong format")
            return
        }
        try writer.finish()
        try writer.finish()
        #expect(videoError { () throws(VideoIOError) in try writer.append(Self.frame) } == .invalidArgument("the writer is finished"))
    }

    @Test("after an error mid-way, finish() leaves a valid file with the frames before it")
    func finishAfterError() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("partial.mp4").path
        let video = try TestVideo.pan(count: 6)
        let writer = try VideoWriter(path: path, width: 160, height: 120)
        for (frame, time) in zip(video.frames, video.times) { try writer.append(frame.imageBuffer, time: time) }
        #expect(videoError { () throws(VideoIOError) in try writer.append(ImageBuffer(width: 2, height: 2)) } != nil)
        try writer.finish()
        let (frames, error) = readAll(try VideoReader(contentsOf: path))
        #expect(error == nil && frames.count == 6)
    }

    @Test("a writer released without finish() still finalizes its file")
    func dropped() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("dropped.mp4").path
        do {
            let writer = try VideoWriter(path: path, width: 160, height: 120, options: VideoWriterOptions(codec: .mpeg4))
            for i in 0..<4 { try writer.append(Self.frame, time: Double(i) / 30) }
        }
        let reader = try VideoReader(contentsOf: path)
        #expect(reader.info.frameCount == 4)
        #expect(readAll(reader).frames.count == 4)
    }

    @Test("BGRA input is encoded with its channels in place")
    func bgraInput() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bgra.mkv").path
        let rgb = try TestVideo.pan(count: 1).frames[0]
        var bgra = [UInt8](repeating: 255, count: 160 * 120 * 4)
        for p in 0..<160 * 120 {
            bgra[4 * p] = rgb.pixels[3 * p + 2]; bgra[4 * p + 1] = rgb.pixels[3 * p + 1]; bgra[4 * p + 2] = rgb.pixels[3 * p]
        }
        let writer = try VideoWriter(path: path, width: 160, height: 120, options: VideoWriterOptions(pixelFormat: .bgra8))
        try writer.append(ImageBuffer(width: 160, height: 120, pixelFormat: .bgra8, pixels: bgra))
        try writer.finish()
        let frame = try #require(try VideoReader(contentsOf: path).nextFrame())
        #expect(psnr(frame.image.pixels, rgb.pixels) > 32)
    }
}
