import BlazeFace
import BlazeImageIO
import BlazeRuntime
import CAllocationCounter
import Foundation

/// The frame `--detect` measures: an upright RGB image, optionally placed on a canvas.
struct Frame {
    var width: Int
    var height: Int
    var pixels: [UInt8]  // rgb8, tightly packed
    /// How the frame was made, for the report.
    var recipe: String

    /// Decodes `path` once, applies its EXIF orientation and converts it to RGB. With `canvas`, the
    /// picture is centred on a canvas of that size filled with gray 128 (cropped centred if larger):
    /// top-left corner at ((W − w) / 2, (H − h) / 2), integer division, as `litert_bench.py mediapipe`.
    static func load(_ path: String, canvas: (width: Int, height: Int)?) throws -> Frame {
        let image = try ImageDecoder.decode(contentsOf: path).uprightRGB()
        let w = image.width, h = image.height
        let upright = image.pixels
        let name = (path as NSString).lastPathComponent
        guard let canvas else {
            return Frame(width: w, height: h, pixels: upright, recipe: "\(name) (\(w)x\(h)) as decoded")
        }
        let cw = canvas.width, ch = canvas.height
        var pixels = [UInt8](repeating: 128, count: cw * ch * 3)
        let left = (cw - w) / 2, top = (ch - h) / 2  // negative: the picture is cropped
        for v in max(0, -top)..<min(h, ch - top) {
            let columns = max(0, -left)..<min(w, cw - left)
            guard !columns.isEmpty else { continue }
            let src = (v * w + columns.lowerBound) * 3
            let dst = ((v + top) * cw + columns.lowerBound + left) * 3
            pixels.replaceSubrange(dst..<(dst + columns.count * 3), with: upright[src..<(src + columns.count * 3)])
        }
        return Frame(width: cw, height: ch, pixels: pixels,
                     recipe: "\(name) (\(w)x\(h)) centred at (\(left), \(top)) on a \(cw)x\(ch) gray-128 canvas")
    }

    /// Calls `body` with an rgb8 view of the pixels (valid only during the call).
    func withImageView<R>(_ body: (ImageView) throws -> R) throws -> R {
        try pixels.withUnsafeBytes { raw in
            try body(try ImageView(pixels: raw, width: width, height: height, bytesPerRow: width * 3,
                                   pixelFormat: .rgb8))
        }
    }
}

/// What the detect benchmark measured for one detector model.
struct DetectResult {
    var model: ModelChoice
    var threads: Int
    var frame: Frame
    var detect: Summary
    var invoke: Summary
    /// The preprocessing step of a detect alone (orientation, letterbox, resampling into the model input).
    var preprocess: Summary
    var detectAllocations: Int
    var invokeAllocations: Int
    var iterations: Int
    var faces: [Face]
}

enum DetectBenchmark {
    /// Times `FaceDetector.detect(_:into:)` on `frame` against a bare `Interpreter.invoke()` of the same
    /// model and the detector's preprocessing alone, alternating blocks of 10 of each so all see the same
    /// machine load.
    static func run(_ model: ModelChoice, detectorModel: FaceDetector.Model, frame: Frame, threads: Int,
                    iterations: Int, warmup: Int, timeLimit: Double? = nil) throws -> DetectResult {
        let detector = try FaceDetector(modelPath: model.path, configuration: detectorModel.configuration,
                                        options: .init(threadCount: threads))
        let bare = try Interpreter(modelPath: model.path, options: .init(threadCount: threads))
        bare.withInput(at: 0) { input in
            for i in 0..<input.count { input[i] = patternValue(i) }
        }
        var faces: [Face] = []
        faces.reserveCapacity(256)
        let timed = try frame.withImageView { view in
            try AlternatingBlocks.run([
                { try detector.detect(view, into: &faces) },
                { bare.invoke() },
                { detector.preprocessOnly(view) },
            ], iterations: iterations, warmup: warmup, timeLimit: timeLimit)
        }
        return DetectResult(model: model, threads: threads, frame: frame,
                            detect: timed.summaries[0], invoke: timed.summaries[1], preprocess: timed.summaries[2],
                            detectAllocations: timed.allocations[0], invokeAllocations: timed.allocations[1],
                            iterations: timed.iterations, faces: faces)
    }
}
