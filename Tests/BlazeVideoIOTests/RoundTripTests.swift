import BlazeTestSupport
import BlazeVideoIO
import Foundation
import Testing

/// Videos written with `VideoWriter` and read back with `VideoReader`: frame counts, timestamps, pixels.
@Suite("Video round trips")
struct RoundTripTests {
    /// Reads `path` and checks it against `video`: every frame, its time within one tick, its pixels above
    /// `minimumPSNR` dB.
    static func check(_ path: String, against video: TestVideo, minimumPSNR: Double, tick: Double,
                      options: VideoReadingOptions = .init()) throws -> VideoReader {
        let reader = try VideoReader(contentsOf: path, options: options)
        #expect(reader.info.width == video.width && reader.info.height == video.height)
        let (frames, error) = readAll(reader)
        #expect(error == nil)
        try #require(frames.count == video.frames.count)
        for (i, frame) in frames.enumerated() {
            #expect(frame.index == i)
            #expect(frame.hasContainerTime)
            #expect(abs(frame.time - video.times[i]) <= tick * 1.001, "frame \(i): \(frame.time) s")
            #expect(frame.image.width == video.width && frame.image.height == video.height)
            let rgb = try frame.image.uprightRGB()
            let quality = psnr(rgb.pixels, video.frames[i].pixels)
            #expect(quality > minimumPSNR, "frame \(i): PSNR \(quality) dB")
        }
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.time < $1.time })
        return reader
    }

    @Test("a pan as H.264 in MP4: 20 frames at 30 fps, times within a tick, PSNR above 32 dB")
    func panH264MP4() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("pan.mp4").path
        let video = try TestVideo.pan()
        try video.write(to: path, options: VideoWriterOptions(codec: .h264))
        let reader = try Self.check(path, against: video, minimumPSNR: 32, tick: 1.0 / 30)
        #expect(reader.info.codecName == "h264")
        #expect(reader.info.frameCount == 20)
        #expect(abs((reader.info.frameRate ?? 0) - 30) < 0.01)
        #expect(abs((reader.info.duration ?? 0) - 20.0 / 30) < 0.01)
        #expect(reader.info.orientation == .up)
        #expect(reader.framesRead == 20)
    }

    @Test("a zoom as MPEG-4 Part 2 in AVI, 15 fps")
    func zoomMPEG4AVI() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("zoom.avi").path
        let video = try TestVideo.zoom()
        try video.write(to: path, options: VideoWriterOptions(codec: .mpeg4, frameRate: FrameRate(15)))
        let reader = try Self.check(path, against: video, minimumPSNR: 28, tick: 1.0 / 15)
        #expect(reader.info.codecName == "mpeg4")
        #expect(reader.info.containerName == "avi")
        #expect(reader.info.frameCount == 16)
    }

    @Test("a hard cut as H.264 in Matroska, 25 fps; the frame after the cut is the second picture")
    func hardCutH264MKV() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("cut.mkv").path
        let video = try TestVideo.hardCut()
        try video.write(to: path, options: VideoWriterOptions(codec: .h264, frameRate: FrameRate(25)))
        let reader = try Self.check(path, against: video, minimumPSNR: 30, tick: 0.001)
        #expect(reader.info.containerName.hasPrefix("matroska"))
        #expect(reader.info.frameCount == nil)
        let reread = try VideoReader(contentsOf: path)
        let frames = readAll(reread).frames
        // Across the cut each frame resembles its own picture far more than the other one.
        let after = try frames[10].image.uprightRGB().pixels
        #expect(psnr(after, video.frames[10].pixels) > psnr(after, video.frames[9].pixels) + 10)
    }

    @Test("MPEG-4 Part 2 in MP4, and irregular frame times at 60 kHz kept within a tick")
    func irregularTimes() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("irregular.mp4").path
        var video = try TestVideo.pan(count: 10)
        video.times = [0, 0.04, 0.07, 0.15, 0.2, 0.2333, 0.31, 0.4, 0.41, 0.5]
        try video.write(to: path, options: VideoWriterOptions(codec: .mpeg4, ticksPerSecond: 60_000))
        let reader = try Self.check(path, against: video, minimumPSNR: 28, tick: 1.0 / 60_000)
        #expect(reader.info.codecName == "mpeg4")
    }

    @Test("BGRA delivery, the zero-copy view and reading from memory give the same pixels")
    func pixelFormatsAndMemory() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("pan.mp4").path
        try TestVideo.pan(count: 5).write(to: path)
        let rgb = readAll(try VideoReader(contentsOf: path)).frames
        let bgra = readAll(try VideoReader(contentsOf: path, options: VideoReadingOptions(pixelFormat: .bgra8))).frames
        let memory = readAll(try VideoReader(data: Array(try Data(contentsOf: URL(fileURLWithPath: path))))).frames
        try #require(rgb.count == 5 && bgra.count == 5 && memory.count == 5)
        var viewed: [[UInt8]] = []
        let reader = try VideoReader(contentsOf: path)
        while let pixels = try reader.withNextFrame({ view, _, _ in
            Array(UnsafeRawBufferPointer(start: view.baseAddress, count: view.bytesPerRow * view.height))
        }) { viewed.append(pixels) }
        for i in 0..<5 {
            #expect(bgra[i].image.pixelFormat == .bgra8)
            #expect(try bgra[i].image.uprightRGB().pixels == rgb[i].image.pixels)
            #expect(memory[i] == rgb[i])
            #expect(viewed[i] == rgb[i].image.pixels)
        }
    }

    @Test("the display matrix written for each quarter turn is read back as the frame's orientation",
          arguments: [ImageOrientation.right, .left, .down])
    func rotation(_ orientation: ImageOrientation) throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // FFmpeg 5.1's Matroska muxer writes no display matrix; MP4 and MOV carry it in the track header.
        for name in ["turned.mp4", "turned.mov"] {
            let path = folder.appendingPathComponent(name).path
            try TestVideo.pan(count: 3).write(to: path, options: VideoWriterOptions(orientation: orientation))
            let reader = try VideoReader(contentsOf: path)
            #expect(reader.info.orientation == orientation, "\(name)")
            #expect(reader.info.uprightWidth == (orientation.swapsDimensions ? 120 : 160))
            let frame = try #require(try reader.nextFrame())
            #expect(frame.image.orientation == orientation)
            #expect(frame.image.width == 160 && frame.image.height == 120)
        }
    }
}
