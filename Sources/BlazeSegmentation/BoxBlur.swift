/// The blur behind `Background.blur`: a box filter of `2 · radius + 1` pixels, horizontally then vertically,
/// applied twice (a tent-shaped kernel close to a Gaussian of standard deviation about `0.8 · radius`), edges
/// repeated. On interleaved RGB floats, in place, with the caller's scratch; cost independent of the radius.
enum BoxBlur {
    static let passes = 2

    /// Blurs `pixels` (`width · height · 3` floats) in place; `scratch` holds at least as many.
    static func blur(_ pixels: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>,
                     width: Int, height: Int, radius: Int) {
        guard radius > 0 else { return }
        for _ in 0..<passes {
            horizontal(pixels, into: scratch, width: width, height: height, radius: radius)
            vertical(scratch, into: pixels, width: width, height: height, radius: radius)
        }
    }

    /// Each row's running sums over the window, the three channels side by side.
    static func horizontal(_ source: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>,
                           width: Int, height: Int, radius: Int) {
        let scale = 1 / Float(2 * radius + 1), last = width - 1
        for y in 0..<height {
            let row = source + y * width * 3, target = out + y * width * 3
            var sum = SIMD4<Float>(row[0], row[1], row[2], 0) * Float(radius + 1)
            @inline(__always) func pixel(_ x: Int) -> SIMD4<Float> {
                let p = row + 3 * x
                return SIMD4(p[0], p[1], p[2], 0)
            }
            for k in 1...radius { sum += pixel(min(k, last)) }
            for x in 0..<width {
                let value = sum * scale
                target[3 * x] = value.x; target[3 * x + 1] = value.y; target[3 * x + 2] = value.z
                sum += pixel(min(x + radius + 1, last)) - pixel(max(x - radius, 0))
            }
        }
    }

    /// Column sums for a whole row at once: output row y is output row y − 1 plus the row entering the window
    /// minus the row leaving it (vectorizable row operations), then everything is scaled.
    static func vertical(_ source: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>,
                         width: Int, height: Int, radius: Int) {
        let scale = 1 / Float(2 * radius + 1), last = height - 1, n = width * 3
        func row(_ y: Int) -> UnsafePointer<Float> { source + y * n }
        // The running sums for output row 0, built in output row 0 and carried down row by row.
        var acc = out
        for i in 0..<n { acc[i] = Float(radius + 1) * row(0)[i] }
        for k in 1...radius {
            let r = row(min(k, last))
            for i in 0..<n { acc[i] += r[i] }
        }
        for y in 0..<height {
            let target = out + y * n
            if y > 0 {
                let added = row(min(y + radius, last)), removed = row(max(y - radius - 1, 0))
                for i in 0..<n { target[i] = acc[i] + added[i] - removed[i] }
            }
            acc = target
        }
        // `out` now holds the window sums; scale them.
        for i in 0..<(n * height) { out[i] *= scale }
    }
}
