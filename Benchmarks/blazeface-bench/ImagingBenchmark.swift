import BlazeImaging
import Foundation

/// Times BlazeImaging's `ImageToTensor` on the `--detect` frame: the detectors' unturned letterbox, and the
/// face mesh's 192x192 crop of a face-sized region unturned and turned (the tabulated and per-pixel paths).
enum ImagingBenchmark {
    struct Case: Sendable {
        var name: String
        var options: ImageToTensor.Options
        var region: @Sendable (Frame) -> RotatedRect?
    }

    static let cases: [Case] = [
        Case(name: "detector 128x128, whole frame letterboxed",
             options: .init(width: 128, height: 128, range: -1...1, fit: .letterbox, border: .zero, sampling: .detector),
             region: { _ in nil }),
        Case(name: "warp 192x192, unturned 300 px region",
             options: .init(width: 192, height: 192, range: 0...1, fit: .stretch, border: .replicate, sampling: .warp),
             region: { RotatedRect(center: Point(x: Double($0.width) / 2, y: Double($0.height) / 2), width: 300, height: 300) }),
        Case(name: "warp 192x192, 300 px region turned 0.3 rad",
             options: .init(width: 192, height: 192, range: 0...1, fit: .stretch, border: .replicate, sampling: .warp),
             region: { RotatedRect(center: Point(x: Double($0.width) / 2, y: Double($0.height) / 2), width: 300, height: 300,
                                   rotation: 0.3) }),
    ]

    /// Median and fastest microseconds per conversion for each case, in order.
    static func run(_ frame: Frame, iterations: Int) throws -> [(name: String, medianUs: Double, minUs: Double)] {
        try cases.map { c in
            let converter = try ImageToTensor(options: c.options)
            var tensor = [Float](repeating: 0, count: converter.floatCount)
            var times: [Double] = []
            times.reserveCapacity(iterations)
            try frame.pixels.withUnsafeBytes { raw in
                let view = try ImageView(pixels: raw, width: frame.width, height: frame.height,
                                         bytesPerRow: frame.width * 3, pixelFormat: .rgb8)
                let region = c.region(frame)
                try tensor.withUnsafeMutableBufferPointer { output in
                    for i in 0..<(iterations + 10) {
                        let start = nowNanoseconds()
                        try converter.convert(view, region: region, into: output)
                        if i >= 10 { times.append(Double(nowNanoseconds() &- start) / 1000) }
                    }
                }
            }
            return (c.name, median(times), times.min() ?? 0)
        }
    }
}
