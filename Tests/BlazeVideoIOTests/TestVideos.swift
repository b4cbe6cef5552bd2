import BlazeTestSupport
import BlazeVideoIO
import Foundation

/// Test videos made from the sample pictures, written with `VideoWriter` into a temporary folder.
struct TestVideo {
    var frames: [RGBImage]
    /// Each frame's time in seconds.
    var times: [Double]

    var width: Int { frames[0].width }
    var height: Int { frames[0].height }

    /// A 160x120 window moving right by 8 pixels a frame over the astronaut.
    static func pan(count: Int = 20) throws -> TestVideo {
        let picture = try Samples.astronaut()
        let frames = (0..<count).map { i in picture.cropped(x: 100 + 8 * i..<260 + 8 * i, y: 80..<200) }
        return TestVideo(frames: frames, times: (0..<count).map { Double($0) / 30 })
    }

    /// A zoom into the astronaut's face: a window shrinking from 320x240 to about 164x123, shown at 160x120.
    static func zoom(count: Int = 16) throws -> TestVideo {
        let picture = try Samples.astronaut()
        let frames = (0..<count).map { i -> RGBImage in
            let width = 320 - 10 * i, height = width * 3 / 4
            let x = 230 - width / 2, y = 130 - height / 2
            return picture.cropped(x: x..<x + width, y: y..<y + height).resized(width: 160, height: 120)
        }
        return TestVideo(frames: frames, times: (0..<count).map { Double($0) / 15 })
    }

    /// Ten frames of the astronaut, then a hard cut to ten frames of the coffee cup (a slow pan on each).
    static func hardCut() throws -> TestVideo {
        let astronaut = try Samples.astronaut(), coffee = try Samples.rgb("coffee.png")
        let first = (0..<10).map { i in astronaut.cropped(x: 150 + 2 * i..<310 + 2 * i, y: 60..<180) }
        let second = (0..<10).map { i in coffee.cropped(x: 200 + 2 * i..<360 + 2 * i, y: 100..<220) }
        return TestVideo(frames: first + second, times: (0..<20).map { Double($0) / 25 })
    }

    /// Writes the frames (at their times) to `path`.
    func write(to path: String, options: VideoWriterOptions = .init()) throws {
        let writer = try VideoWriter(path: path, width: width, height: height, options: options)
        for (frame, time) in zip(frames, times) { try writer.append(frame.imageBuffer, time: time) }
        try writer.finish()
    }
}

extension RGBImage {
    var imageBuffer: ImageBuffer { ImageBuffer(width: width, height: height, pixelFormat: .rgb8, pixels: pixels) }

    /// Nearest-neighbour resampling (pixel centres).
    func resized(width newWidth: Int, height newHeight: Int) -> RGBImage {
        var out = RGBImage(width: newWidth, height: newHeight, fill: 0)
        for y in 0..<newHeight {
            let sy = (2 * y + 1) * height / (2 * newHeight)
            for x in 0..<newWidth {
                let sx = (2 * x + 1) * width / (2 * newWidth)
                for c in 0..<3 { out.pixels[out.offset(x, y) + c] = pixels[offset(sx, sy) + c] }
            }
        }
        return out
    }
}

/// The peak signal-to-noise ratio in dB between two RGB pictures of the same size (`.infinity` when equal).
func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
    precondition(a.count == b.count && !a.isEmpty)
    var sum = 0.0
    for i in a.indices {
        let d = Double(a[i]) - Double(b[i])
        sum += d * d
    }
    let mse = sum / Double(a.count)
    return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
}

/// Every frame a reader delivers, and the error that ended the stream (nil: it ended normally).
func readAll(_ reader: VideoReader) -> (frames: [VideoFrame], error: VideoIOError?) {
    readAll { () throws(VideoIOError) in try reader.nextFrame() }
}

/// Every frame `next` gives until it returns nil or throws, and the error (nil: the stream ended normally).
func readAll(_ next: () throws(VideoIOError) -> VideoFrame?) -> (frames: [VideoFrame], error: VideoIOError?) {
    var frames: [VideoFrame] = []
    do {
        while let frame = try next() { frames.append(frame) }
        return (frames, nil)
    } catch {
        return (frames, error)
    }
}

/// The error `body` throws, or nil.
func videoError<T>(_ body: () throws(VideoIOError) -> T) -> VideoIOError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

/// A fresh temporary folder, removed by the caller.
func scratchFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("blaze-video-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
