import Foundation

extension RGBImage {
    /// The picture blurred by a Gaussian of standard deviation `sigma` pixels: separable, taps out to
    /// ⌈3σ⌉ normalized to sum 1, edges repeated, each channel rounded to the nearest byte. `sigma` 0 (or less)
    /// returns the picture unchanged.
    public func gaussianBlurred(sigma: Double) -> RGBImage {
        guard sigma > 0, width > 0, height > 0 else { return self }
        let radius = max(1, Int((3 * sigma).rounded(.up)))
        var taps = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = taps.reduce(0, +)
        taps = taps.map { $0 / total }
        var rows = [Double](repeating: 0, count: pixels.count)
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<3 {
                    var sum = 0.0
                    for k in -radius...radius {
                        sum += taps[k + radius] * Double(pixels[offset(min(max(x + k, 0), width - 1), y) + c])
                    }
                    rows[offset(x, y) + c] = sum
                }
            }
        }
        var out = self
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<3 {
                    var sum = 0.0
                    for k in -radius...radius {
                        sum += taps[k + radius] * rows[offset(x, min(max(y + k, 0), height - 1)) + c]
                    }
                    out.pixels[offset(x, y) + c] = UInt8(min(max(sum.rounded(), 0), 255))
                }
            }
        }
        return out
    }
}
