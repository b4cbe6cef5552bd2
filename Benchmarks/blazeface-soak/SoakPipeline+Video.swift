import BlazeImaging
import BlazeVideoIO
import Foundation

extension SoakPipeline {
    /// Frames and size of the video the video stage decodes.
    static let videoFrameCount = 30, videoWidth = 320, videoHeight = 240

    /// The video reader's stage: a short H.264 video made once at start with `VideoWriter` (a 320x240 window
    /// panning over `picture`, 30 frames; written to a temporary file, read into memory, the file removed),
    /// then decoded one frame per soak frame by a `VideoReader(data:)` through `withNextFrame`; at the end of
    /// the video the reader is released and a new one opened on the same bytes. So the soak watches the
    /// reader's frame loop and its whole life (FFmpeg's demuxer, decoder and converter made and freed every
    /// 30 frames). It finds 1 per decoded frame: the stage shows the video decoded on every frame.
    static func videoStage(picture: ImageBuffer) throws -> SoakStage {
        let bytes = try makeVideo(frameCount: videoFrameCount) { index, frame in window(of: picture, shift: 4 * index, into: &frame) }
        var reader = try VideoReader(data: bytes)
        return SoakStage(name: "video") { _ in
            if let found = try reader.withNextFrame({ view, _, _ in view.width == videoWidth ? 1 : 0 }) { return found }
            reader = try VideoReader(data: bytes)
            return try reader.withNextFrame { view, _, _ in view.width == videoWidth ? 1 : 0 } ?? 0
        }
    }

    /// A `videoWidth` x `videoHeight` video of `frameCount` frames at 30 per second, each drawn by `draw`
    /// (frame index, rgb8 buffer to fill), encoded as H.264 (or MPEG-4 Part 2 without libx264) in MP4, as bytes.
    static func makeVideo(frameCount: Int, draw: (Int, inout ImageBuffer) -> Void) throws -> [UInt8] {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("blazeface-soak-\(getpid())-\(UUID().uuidString).mp4").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try VideoWriter(path: path, width: videoWidth, height: videoHeight)
        var frame = ImageBuffer(width: videoWidth, height: videoHeight)
        for index in 0..<frameCount {
            draw(index, &frame)
            try writer.append(frame, time: Double(index) / 30)
        }
        try writer.finish()
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The `videoWidth` x `videoHeight` window of the picture starting `shift` pixels right and down of its
    /// top-left corner (nearest pixel; coordinates wrap around the picture).
    static func window(of picture: ImageBuffer, shift: Int, into frame: inout ImageBuffer) {
        precondition(picture.pixelFormat == .rgb8)
        for y in 0..<videoHeight {
            let sourceY = (y + shift) % picture.height
            for x in 0..<videoWidth {
                let source = sourceY * picture.bytesPerRow + ((x + shift) % picture.width) * 3
                let target = (y * videoWidth + x) * 3
                for channel in 0..<3 { frame.pixels[target + channel] = picture.pixels[source + channel] }
            }
        }
    }
}
