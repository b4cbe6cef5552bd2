import BlazeTestSupport
import BlazeVideoIO
import Foundation

/// Small videos for the `track` tests, made from the sample pictures with `VideoWriter`: 320 x 180 windows cut
/// out of a picture, 30 frames per second.
enum TrackVideos {
    static let width = 320, height = 180

    /// The `width` x `height` window of `picture` with top-left (`x`, `y`) (inside the picture).
    static func window(_ picture: RGBImage, x: Int, y: Int) -> RGBImage {
        var out = RGBImage(width: width, height: height, fill: 0)
        for row in 0..<height {
            let from = picture.offset(x, y + row), to = out.offset(0, row)
            out.pixels[to..<to + 3 * width] = picture.pixels[from..<from + 3 * width]
        }
        return out
    }

    /// `panFrames` frames panning over the astronaut (6 px per frame; her face about 105 px wide), then a hard
    /// cut to `cutFrames` frames of the cameraman.
    static func panThenCut(panFrames: Int = 12, cutFrames: Int = 8) throws -> [RGBImage] {
        let astronaut = try Samples.astronaut(), cameraman = try Samples.rgb("camera.png")
        let pan = (0..<panFrames).map { window(astronaut, x: 60 + 6 * $0, y: 40) }
        return pan + Array(repeating: window(cameraman, x: 100, y: 20), count: cutFrames)
    }

    /// Writes `frames` to `path` (the container from the extension; H.264, a key frame every 5 frames).
    static func write(_ frames: [RGBImage], to path: String) throws {
        let writer = try VideoWriter(path: path, width: width, height: height,
                                     options: VideoWriterOptions(codec: .automatic, keyFrameInterval: 5))
        for frame in frames {
            try writer.append(ImageBuffer(width: frame.width, height: frame.height, pixelFormat: .rgb8,
                                          pixels: frame.pixels))
        }
        try writer.finish()
    }

    /// Every frame of the video at `path`, and the error that ended it (nil at a normal end).
    static func readAll(_ path: String) throws -> (frames: [VideoFrame], error: VideoIOError?) {
        let reader = try VideoReader(contentsOf: path)
        var frames: [VideoFrame] = []
        do {
            while let frame = try reader.nextFrame() { frames.append(frame) }
        } catch {
            return (frames, error)
        }
        return (frames, nil)
    }

    /// The JSON objects of `--json-lines` output, one per line.
    static func lines(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw NotAnObject(line: String(line))
            }
            return object
        }
    }

    struct NotAnObject: Error { var line: String }

    /// The IDs of the faces of each line.
    static func ids(_ lines: [[String: Any]]) -> [[Int]] {
        lines.map { (($0["faces"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? Int } }
    }
}
