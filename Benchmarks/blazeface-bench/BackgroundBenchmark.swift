import BlazeImaging
import BlazeSegmentation
import Foundation

/// Times `BackgroundReplacer.replaceBackground(of:mask:with:into:bytesPerRow:pixelFormat:)` on the `--detect`
/// frame (with `--imaging`): a colour, another picture (the frame mirrored) and a blur behind the frame, into a
/// reused buffer, with a mask that is 1 in the middle third of each row, 0 at the sides and a ramp between (every
/// pixel blended the same way whatever its value; the ramp only makes the result worth looking at).
enum BackgroundBenchmark {
    /// Median and fastest milliseconds per replacement for each case, in order.
    static func run(_ frame: Frame, iterations: Int) throws -> [(name: String, medianMs: Double, minMs: Double)] {
        let (w, h) = (frame.width, frame.height)
        var mask = SegmentationMask(width: w, height: h, repeating: 0)
        for y in 0..<h {
            for x in 0..<w { mask.values[y * w + x] = min(max(Float(3 * x) / Float(w) - 0.5, 0), 1) }
        }
        let replacer = BackgroundReplacer()
        var output = [UInt8](repeating: 0, count: w * h * 4)
        return try frame.pixels.withUnsafeBytes { raw in
            let view = try ImageView(pixels: raw, width: w, height: h, bytesPerRow: w * 3, pixelFormat: .rgb8)
            let mirrored = try ImageView(pixels: raw, width: w, height: h, bytesPerRow: w * 3, pixelFormat: .rgb8,
                                         orientation: .upMirrored)
            let cases: [(String, Background, PixelFormat)] = [
                ("colour into bgra8", .color(red: 58, green: 110, blue: 165), .bgra8),
                ("colour into rgb8", .color(red: 58, green: 110, blue: 165), .rgb8),
                ("picture into bgra8", .image(mirrored), .bgra8),
                ("blur radius 8 into bgra8", .blur(radius: 8), .bgra8),
            ]
            return try cases.map { name, background, format in
                var times: [Double] = []
                times.reserveCapacity(iterations)
                try output.withUnsafeMutableBytes { out in
                    for i in 0..<(iterations + 5) {
                        let start = nowNanoseconds()
                        try replacer.replaceBackground(of: view, mask: mask, with: background, into: out, pixelFormat: format)
                        if i >= 5 { times.append(Double(nowNanoseconds() &- start) / 1e6) }
                    }
                }
                return ("\(name), \(w)x\(h)", median(times), times.min() ?? 0)
            }
        }
    }
}
