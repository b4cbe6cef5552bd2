import BlazeFaceMesh

/// A face region resampled to a fixed square of luma values, and the statistics the capture score uses.
///
/// The region is a square of the upright image, any orientation of the square (it follows the eye line), of any
/// size: each of the `side` x `side` patch pixels averages an n x n grid of nearest pixels over its footprint,
/// n = ⌈footprint⌉ up to 4 (an area average when the face is larger than the patch), or is one bilinear sample
/// when the footprint is a pixel or less (the face is smaller than the patch). Pixels outside the image repeat
/// its edge. Measured on this fixed grid, sharpness does not depend on how many pixels the face covers, only on
/// how sharp it is at the patch's scale.
struct FacePatch {
    /// The patch's side in samples.
    static let side = 64
    /// The most nearest-pixel taps per patch pixel and axis.
    static let maximumTaps = 4

    /// `side · side` luma values (0...255), row by row. Allocated once.
    private var values = [Float](repeating: 0, count: side * side)

    /// Resamples the square of `size` pixels centred at `centre` (upright pixels, edges at integers), whose rows
    /// run along the unit vector `xAxis` (its columns along `xAxis` turned a quarter clockwise, down the face).
    mutating func sample(_ image: ImageView, centre: SIMD2<Double>, xAxis: SIMD2<Double>, size: Double) {
        let reader = UprightLuma(image)
        let n = Self.side
        let step = size / Double(n)
        // Clamped as a Double: a huge region (far-off points) must not overflow Int.
        let taps = step.isFinite ? Int(min(max(step.rounded(.up), 1), Double(Self.maximumTaps))) : Self.maximumTaps
        let yAxis = SIMD2(-xAxis.y, xAxis.x)
        let tapStep = step / Double(taps)
        // The patch's top-left corner, and the offset of the first tap inside a patch pixel.
        let corner = centre - (xAxis + yAxis) * (size / 2)
        let firstTap = (xAxis + yAxis) * (tapStep / 2)
        let weight = 1 / Float(taps * taps)
        values.withUnsafeMutableBufferPointer { out in
            for j in 0..<n {
                for i in 0..<n {
                    let origin = corner + xAxis * (Double(i) * step) + yAxis * (Double(j) * step) + firstTap
                    if taps == 1 {
                        out[j * n + i] = reader.bilinear(origin.x, origin.y)
                        continue
                    }
                    var sum: Float = 0
                    for b in 0..<taps {
                        let row = origin + yAxis * (Double(b) * tapStep)
                        for a in 0..<taps {
                            let p = row + xAxis * (Double(a) * tapStep)
                            sum += reader.nearest(p.x, p.y)
                        }
                    }
                    out[j * n + i] = sum * weight
                }
            }
        }
    }

    /// The patch's mean luma (0...1) and its sharpness: mean(Δ²) / (variance + 1) on 0...255 values, Δ the
    /// 4-neighbour Laplacian over the interior samples. Scaling every value by a factor leaves the sharpness
    /// almost unchanged (the + 1 only matters for nearly flat patches).
    func statistics() -> (luminance: Double, sharpness: Double) {
        let n = Self.side
        return values.withUnsafeBufferPointer { v in
            var sum = 0.0, squares = 0.0
            for value in v {
                sum += Double(value)
                squares += Double(value) * Double(value)
            }
            let count = Double(n * n)
            let mean = sum / count
            let variance = max(squares / count - mean * mean, 0)
            var energy = 0.0
            for j in 1..<(n - 1) {
                for i in 1..<(n - 1) {
                    let k = j * n + i
                    let laplacian = 4 * v[k] - v[k - 1] - v[k + 1] - v[k - n] - v[k + n]
                    energy += Double(laplacian) * Double(laplacian)
                }
            }
            energy /= Double((n - 2) * (n - 2))
            return (mean / 255, energy / (variance + 1))
        }
    }
}

/// Reads an image's luma at upright pixel indices (orientation applied, any pixel format; edges repeated).
struct UprightLuma {
    let start: UnsafePointer<UInt8>
    let du: Int
    let dv: Int
    let offsets: (r: Int, g: Int, b: Int)
    let width: Int
    let height: Int

    init(_ image: ImageView) {
        let origin: Int
        (origin, du, dv) = image.uprightStrides
        start = image.baseAddress.assumingMemoryBound(to: UInt8.self) + origin
        offsets = image.pixelFormat.channelOffsets
        width = image.uprightWidth
        height = image.uprightHeight
    }

    /// Rec. 601 luma `0.299 R + 0.587 G + 0.114 B` (gray: the value) of upright pixel (u, v), clamped to the image.
    @inline(__always)
    func luma(_ u: Int, _ v: Int) -> Float {
        let u = min(max(u, 0), width - 1), v = min(max(v, 0), height - 1)
        let p = start + u * du + v * dv
        return 0.299 * Float(p[offsets.r]) + 0.587 * Float(p[offsets.g]) + 0.114 * Float(p[offsets.b])
    }

    /// Luma of the pixel holding upright position (x, y) (clamped to the image; NaN reads the corner).
    @inline(__always)
    func nearest(_ x: Double, _ y: Double) -> Float {
        let u = x >= 0 ? Int(min(x, Double(width - 1))) : 0
        let v = y >= 0 ? Int(min(y, Double(height - 1))) : 0
        return luma(u, v)
    }

    /// Bilinear luma at upright position (x, y), pixel centres at half-integers.
    @inline(__always)
    func bilinear(_ x: Double, _ y: Double) -> Float {
        let fx = x - 0.5, fy = y - 0.5
        guard fx.isFinite, fy.isFinite else { return 0 }
        let x0 = fx.rounded(.down), y0 = fy.rounded(.down)
        let tx = Float(fx - x0), ty = Float(fy - y0)
        // Clamp before converting: a point far outside the image must not overflow Int.
        let u = Int(min(max(x0, -1), Double(width))), v = Int(min(max(y0, -1), Double(height)))
        let top = luma(u, v) + tx * (luma(u + 1, v) - luma(u, v))
        let bottom = luma(u, v + 1) + tx * (luma(u + 1, v + 1) - luma(u, v + 1))
        return top + ty * (bottom - top)
    }
}
