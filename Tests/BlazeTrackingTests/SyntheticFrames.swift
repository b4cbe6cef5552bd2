import BlazeTestSupport
import BlazeTracking
import Foundation

/// Video frames made in memory from the sample pictures: a camera window panning and zooming over a picture,
/// face crops pasted on a background and moved, noise. Everything is deterministic.
enum SyntheticFrames {
    /// The frames' size: small, so that the tests stay fast.
    static let width = 480, height = 270

    static var modelsDirectory: String { TestResources.modelsDirectory.path }

    /// The astronaut (Eileen Collins; her face is around (225, 130), about 105 px wide).
    static func astronaut() throws -> RGBImage { try Samples.astronaut() }
    /// The cameraman (camera.png, gray; his face is around (250, 100)).
    static func cameraman() throws -> RGBImage { try Samples.rgb("camera.png") }

    /// The window of `source` with top-left (`x`, `y`) and width `windowWidth` (height from the frame's aspect
    /// ratio), resampled bilinearly into a frame; pixels outside the source are gray (128).
    static func window(_ source: RGBImage, x: Double, y: Double, windowWidth: Double,
                       width: Int = width, height: Int = height) -> RGBImage {
        let step = windowWidth / Double(width)
        var out = RGBImage(width: width, height: height, fill: 128)
        out.pixels.withUnsafeMutableBufferPointer { dst in
            source.pixels.withUnsafeBufferPointer { src in
                for row in 0..<height {
                    let sy = y + (Double(row) + 0.5) * step - 0.5
                    let y0 = Int(sy.rounded(.down)), fy = sy - Double(y0)
                    guard y0 >= 0, y0 + 1 < source.height else { continue }
                    for column in 0..<width {
                        let sx = x + (Double(column) + 0.5) * step - 0.5
                        let x0 = Int(sx.rounded(.down)), fx = sx - Double(x0)
                        guard x0 >= 0, x0 + 1 < source.width else { continue }
                        let a = (y0 * source.width + x0) * 3, b = a + 3
                        let c = a + source.width * 3, d = c + 3
                        let o = (row * width + column) * 3
                        for k in 0..<3 {
                            let top = Double(src[a + k]) * (1 - fx) + Double(src[b + k]) * fx
                            let bottom = Double(src[c + k]) * (1 - fx) + Double(src[d + k]) * fx
                            dst[o + k] = UInt8((top * (1 - fy) + bottom * fy).rounded())
                        }
                    }
                }
            }
        }
        return out
    }

    /// A gray frame with `parts` pasted at their positions (later parts over earlier ones; clipped at the edges).
    static func composed(_ parts: [(image: RGBImage, x: Int, y: Int)], width: Int = width,
                         height: Int = height) -> RGBImage {
        var out = RGBImage(width: width, height: height, fill: 128)
        for part in parts {
            for row in 0..<part.image.height {
                let y = part.y + row
                guard y >= 0, y < height else { continue }
                for column in 0..<part.image.width {
                    let x = part.x + column
                    guard x >= 0, x < width else { continue }
                    let from = part.image.offset(column, row), to = out.offset(x, y)
                    out.pixels[to] = part.image.pixels[from]
                    out.pixels[to + 1] = part.image.pixels[from + 1]
                    out.pixels[to + 2] = part.image.pixels[from + 2]
                }
            }
        }
        return out
    }

    /// `image` with uniform noise of ±`amplitude` levels added to every byte (seeded).
    static func noisy(_ image: RGBImage, amplitude: Int, seed: UInt64) -> RGBImage {
        var generator = SplitMix64(seed: seed)
        var out = image
        for index in out.pixels.indices {
            let noise = Int(generator.next() % UInt64(2 * amplitude + 1)) - amplitude
            out.pixels[index] = UInt8(clamping: Int(out.pixels[index]) + noise)
        }
        return out
    }

    /// Runs `tracker` over `frames` (timestamps `index / fps`) and returns each frame's result.
    static func track(_ tracker: FaceTracker, _ frames: [RGBImage], fps: Double = 30,
                      start: Int = 0) throws -> [FaceTrackingResult] {
        var results: [FaceTrackingResult] = []
        for (index, frame) in frames.enumerated() {
            let result = try ImageView.withPixels(frame.pixels, width: frame.width, height: frame.height,
                                                  pixelFormat: .rgb8) { view in
                try tracker.process(frame: view, timestamp: Double(start + index) / fps)
            }
            results.append(result)
        }
        return results
    }

    /// A tracker on the test models (the full-range detector, attention mesh), with `options` changed by `change`.
    static func tracker(_ change: (inout FaceTracker.Options) -> Void = { _ in }) throws -> FaceTracker {
        var options = FaceTracker.Options()
        change(&options)
        return try FaceTracker(options: options, modelsDirectory: modelsDirectory)
    }

    /// The IDs of each frame's faces.
    static func ids(_ results: [FaceTrackingResult]) -> [[Int]] { results.map { $0.faces.map(\.id) } }
}
