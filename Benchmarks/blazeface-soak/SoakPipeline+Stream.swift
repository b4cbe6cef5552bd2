import BlazeImaging
import BlazeTracking
import BlazeVideoIO

extension SoakPipeline {
    /// Frames of the stream stage's clip: three seconds at 30 frames per second.
    static let streamFrameCount = 90

    /// The stream stage: what `blazeface track` does to a video, for as long as the soak runs. A 320x240 clip
    /// (made once at start with `VideoWriter`: the picture scaled to cover 352x264, a window sliding right and
    /// down and back, so the faces move smoothly and the clip loops without a cut) is decoded frame by frame by
    /// a `VideoReader(data:)` and each frame goes to one `FaceTracker` (attention mesh, up to 2 faces, smoothing,
    /// landmarks, head pose, eyes and smile, gestures) at 30 frames per second of stream time that never goes
    /// back: at the clip's end a new reader opens on the same bytes and the stream goes on, so the tracks live
    /// as long as the soak (their IDs, smoothing filters and gesture states persist). It ignores the soak's
    /// picture of the frame and finds the faces tracked.
    static func streamStage(picture: ImageBuffer, modelsDirectory: String?, threads: Int) throws -> SoakStage {
        let cover = coverScaled(picture, width: videoWidth + 32, height: videoHeight + 24)
        let bytes = try makeVideo(frameCount: streamFrameCount) { index, frame in
            let phase = index < streamFrameCount / 2 ? index : streamFrameCount - index
            window(of: cover, shift: phase * 32 / (streamFrameCount / 2), into: &frame)
        }
        let options = FaceTracker.Options(maximumFaces: 2, attributes: [.landmarks, .gestures, .expression],
                                          threadCount: threads)
        let tracker = try FaceTracker(options: options, modelsDirectory: modelsDirectory)
        var result = FaceTrackingResult()
        var reader = try VideoReader(data: bytes)
        var streamFrame = 0
        func track(_ view: ImageView) throws -> Int {
            try tracker.process(view, timestamp: Double(streamFrame) / 30, into: &result)
            streamFrame += 1
            return result.faces.count
        }
        return SoakStage(name: "stream") { _ in
            if let found = try reader.withNextFrame({ view, _, _ in try track(view) }) { return found }
            reader = try VideoReader(data: bytes)
            return try reader.withNextFrame { view, _, _ in try track(view) } ?? 0
        }
    }

    /// `picture` (rgb8) scaled, nearest pixel, to cover `width` x `height` and cropped to it at the centre.
    private static func coverScaled(_ picture: ImageBuffer, width: Int, height: Int) -> ImageBuffer {
        precondition(picture.pixelFormat == .rgb8)
        let scale = max(Double(width) / Double(picture.width), Double(height) / Double(picture.height))
        let offsetX = (Double(picture.width) * scale - Double(width)) / 2
        let offsetY = (Double(picture.height) * scale - Double(height)) / 2
        var result = ImageBuffer(width: width, height: height)
        for y in 0..<height {
            let sourceY = min(picture.height - 1, Int((Double(y) + 0.5 + offsetY) / scale))
            for x in 0..<width {
                let sourceX = min(picture.width - 1, Int((Double(x) + 0.5 + offsetX) / scale))
                let source = sourceY * picture.bytesPerRow + sourceX * 3, target = (y * width + x) * 3
                for channel in 0..<3 { result.pixels[target + channel] = picture.pixels[source + channel] }
            }
        }
        return result
    }
}
