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

    /// Writes `frames` to `path` (the container from the extension; H.264, a key frame every 5 frames). With an
    /// `orientation` other than `.up`, the frames are stored turned so that a player (or `VideoReader`'s
    /// orientation) shows them upright as given, and the orientation is written as the display matrix.
    static func write(_ frames: [RGBImage], to path: String, orientation: ImageOrientation = .up) throws {
        let storedWidth = orientation.swapsDimensions ? height : width
        let storedHeight = orientation.swapsDimensions ? width : height
        let writer = try VideoWriter(path: path, width: storedWidth, height: storedHeight,
                                     options: VideoWriterOptions(codec: .automatic, keyFrameInterval: 5,
                                                                 orientation: orientation))
        for frame in frames {
            var stored = [UInt8](repeating: 0, count: frame.pixels.count)
            for v in 0..<frame.height {
                for u in 0..<frame.width {
                    let (x, y) = orientation.storedPixel(u: u, v: v, width: storedWidth, height: storedHeight)
                    let from = frame.offset(u, v), to = (y * storedWidth + x) * 3
                    stored[to..<to + 3] = frame.pixels[from..<from + 3]
                }
            }
            try writer.append(ImageBuffer(width: storedWidth, height: storedHeight, pixelFormat: .rgb8, pixels: stored))
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
