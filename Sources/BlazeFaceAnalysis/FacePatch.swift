import BlazeFaceMesh

/// A face region resampled to a fixed square of luma values, and the statistics the capture score uses.
///
/// The region is a square of the upright image, any orientation of the square (it follows the eye line), of any
/// size: each of the `side` x `side` patch pixels averages an n x n grid of nearest pixels spread evenly over
/// its footprint, n = ⌈footprint⌉ up to 2 (an area average of 2 x 2 pixels when the face is larger than the
/// patch, a sparser one above twice its size), or is one bilinear sample when the footprint is a pixel or less
/// (the face is smaller than the patch). Pixels outside the image repeat its edge. Measured on this fixed grid,
/// sharpness does not depend on how many pixels the face covers, only on how sharp it is at the patch's scale.
struct FacePatch {
    /// The patch's side in samples.
    static let side = 64
    /// The most nearest-pixel taps per patch pixel and axis. 2 (rather than ⌈footprint⌉) keeps the cost at
    /// 4 reads per sample for any face size; large faces then measure slightly sharper (Documentation/Attributes.md).
    static let maximumTaps = 2

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
        let across = xAxis * step, down = yAxis * step
        let tapAcross = xAxis * tapStep, tapDown = yAxis * tapStep
        let inside = InsideGrid(origin: corner + firstTap, across: across, down: down, tapAcross: tapAcross,
                                tapDown: tapDown, taps: taps, width: reader.width, height: reader.height)
        values.withUnsafeMutableBufferPointer { out in
            if let inside {
                inside.sample(reader, into: out.baseAddress!)
                return
            }
            for j in 0..<n {
                let rowStart = corner + down * Double(j) + firstTap
                let row = out.baseAddress! + j * n
                if taps == 1 {
                    for i in 0..<n {
                        let p = rowStart + across * Double(i)
                        row[i] = reader.bilinear(p.x, p.y)
                    }
                } else {
                    for i in 0..<n {
                        let p = rowStart + across * Double(i), q = p + tapDown
                        let top = reader.nearest(p.x, p.y) + reader.nearest(p.x + tapAcross.x, p.y + tapAcross.y)
                        let bottom = reader.nearest(q.x, q.y) + reader.nearest(q.x + tapAcross.x, q.y + tapAcross.y)
                        row[i] = (top + bottom) * 0.25
                    }
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
            let base = v.baseAddress!
            // Float lanes within a row (at most 64 values of at most 255², exact enough), Double across rows.
            var sum = 0.0, squares = 0.0, energy = 0.0
            for j in 0..<n {
                var s = SIMD8<Float>(), q = SIMD8<Float>()
                for k in stride(from: j * n, to: (j + 1) * n, by: 8) {
                    let x = UnsafeRawPointer(base + k).loadUnaligned(as: SIMD8<Float>.self)
                    s += x
                    q += x * x
                }
                sum += Double(s.sum())
                squares += Double(q.sum())
            }
            // Interior columns 1...n−2 in 8-wide chunks; the last chunk ends at column n − 2 and masks out the
            // columns the full chunks already covered.
            let full = (n - 2) / 8 * 8, tail = n - 1 - 8
            var tailMask = SIMD8<Float>()
            for lane in 0..<8 where tail + lane >= 1 + full { tailMask[lane] = 1 }
            func load(_ at: Int) -> SIMD8<Float> { UnsafeRawPointer(base + at).loadUnaligned(as: SIMD8<Float>.self) }
            func squaredLaplacian(_ k: Int) -> SIMD8<Float> {
                let laplacian = 4 * load(k) - load(k - 1) - load(k + 1) - load(k - n) - load(k + n)
                return laplacian * laplacian
            }
            for j in 1..<(n - 1) {
                var e = SIMD8<Float>()
                for i in stride(from: 1, to: 1 + full, by: 8) { e += squaredLaplacian(j * n + i) }
                if full < n - 2 { e += squaredLaplacian(j * n + tail) * tailMask }
                energy += Double(e.sum())
            }
            let count = Double(n * n)
            let mean = sum / count
            let variance = max(squares / count - mean * mean, 0)
            energy /= Double((n - 2) * (n - 2))
            return (mean / 255, energy / (variance + 1))
        }
    }
}

/// Reads an image's luma at upright pixel indices (orientation applied, any pixel format; edges repeated).
/// A YUV view's luma is its Y plane brought to 0...255 (limited range: `(Y − 16) · 255 / 219`), which is the
/// Rec. 601 luma of its RGB pixels for a BT.601 view, and the BT.709 luma for a BT.709 one.
struct UprightLuma {
    let start: UnsafePointer<UInt8>
    let du: Int
    let dv: Int
    let offsets: (r: Int, g: Int, b: Int)
    let width: Int
    let height: Int
    /// `luma · scale + shift`: 1 and 0 but for limited-range YUV.
    let scale: Float
    let shift: Float

    init(_ image: ImageView) {
        let origin: Int
        (origin, du, dv) = image.uprightStrides
        start = image.baseAddress.assumingMemoryBound(to: UInt8.self) + origin
        offsets = image.pixelFormat.channelOffsets
        width = image.uprightWidth
        height = image.uprightHeight
        let limited = image.pixelFormat.isYUV && image.colorSpace.range == .limited
        (scale, shift) = limited ? (255 / 219, -16 * 255 / 219) : (1, 0)
    }

    /// Rec. 601 luma `0.299 R + 0.587 G + 0.114 B` (gray: the value) of upright pixel (u, v), clamped to the image.
    @inline(__always)
    func luma(_ u: Int, _ v: Int) -> Float {
        pixel(min(max(u, 0), width - 1), min(max(v, 0), height - 1))
    }

    /// Rec. 601 luma of upright pixel (u, v), which must be inside the image.
    @inline(__always)
    private func pixel(_ u: Int, _ v: Int) -> Float {
        let p = start + u * du + v * dv
        let luma = 0.299 * Float(p[offsets.r]) + 0.587 * Float(p[offsets.g]) + 0.114 * Float(p[offsets.b])
        return luma * scale + shift
    }

    /// Luma of the pixel holding upright position (x, y) (clamped to the image; NaN reads the corner).
    @inline(__always)
    func nearest(_ x: Double, _ y: Double) -> Float {
        let u = x >= 0 ? Int(min(x, Double(width - 1))) : 0
        let v = y >= 0 ? Int(min(y, Double(height - 1))) : 0
        return pixel(u, v)
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
