/// The sample positions of a `FacePatch` in 16.16 fixed point, for a region whose every read pixel is inside the
/// image: no clamping, integer stepping, and the 2 x 2 taps summed per channel before one luma conversion (luma
/// is linear in the channels). Within 0.002 pixel of the general path's positions; the general path handles
/// regions that reach the image's edge, and non-finite ones.
struct InsideGrid {
    private static let one = 65536.0
    let origin: SIMD2<Int>
    let across: SIMD2<Int>
    let down: SIMD2<Int>
    let tapAcross: SIMD2<Int>
    let tapDown: SIMD2<Int>
    /// One bilinear sample per patch pixel (1 tap), else 2 x 2 nearest taps.
    let bilinear: Bool

    /// nil when a read pixel could fall outside the `width` x `height` image (with a 0.01 pixel margin) or a
    /// position is not finite. `origin` is the first tap of patch pixel (0, 0); `across` and `down` step one
    /// patch pixel; `tapAcross` and `tapDown` step one tap (used when `taps` is 2).
    init?(origin: SIMD2<Double>, across: SIMD2<Double>, down: SIMD2<Double>, tapAcross: SIMD2<Double>,
          tapDown: SIMD2<Double>, taps: Int, width: Int, height: Int) {
        precondition(taps == 1 || taps == 2, "1 or 2 taps")
        bilinear = taps == 1
        let last = Double(FacePatch.side - 1)
        var low = SIMD2<Double>(repeating: .infinity), high = -low
        // The positions are affine in (i, j, tap): the extremes are at the corners.
        for a in 0...1 {
            for b in 0...1 {
                for c in 0..<taps {
                    for d in 0..<taps {
                        let p = origin + across * (Double(a) * last) + down * (Double(b) * last)
                            + tapAcross * Double(c) + tapDown * Double(d)
                        guard p.x.isFinite, p.y.isFinite else { return nil }
                        low = pointwiseMin(low, p)
                        high = pointwiseMax(high, p)
                    }
                }
            }
        }
        // Nearest reads pixel ⌊x⌋, bilinear ⌊x − 0.5⌋ and the next one.
        let margin = 0.01, inset = bilinear ? 0.5 : 0
        guard low.x >= inset + margin, low.y >= inset + margin,
              high.x <= Double(width) - inset - margin, high.y <= Double(height) - inset - margin else { return nil }
        func fixed(_ v: SIMD2<Double>) -> SIMD2<Int> {
            SIMD2(Int((v.x * Self.one).rounded()), Int((v.y * Self.one).rounded()))
        }
        self.origin = fixed(origin)
        self.across = fixed(across)
        self.down = fixed(down)
        self.tapAcross = fixed(tapAcross)
        self.tapDown = fixed(tapDown)
    }

    /// Writes the `side` x `side` samples, row by row, to `out`.
    func sample(_ reader: UprightLuma, into out: UnsafeMutablePointer<Float>) {
        let n = FacePatch.side
        let start = reader.start, du = reader.du, dv = reader.dv
        let (r, g, b) = reader.offsets
        // YUV's luma range (`UprightLuma.scale`): applied to each sample, as the blends are affine.
        let gain = reader.scale, shift = reader.shift
        @inline(__always) func pixel(_ q: SIMD2<Int>) -> UnsafePointer<UInt8> { start + (q.x >> 16) * du + (q.y >> 16) * dv }
        @inline(__always) func luma(_ p: UnsafePointer<UInt8>) -> Float {
            0.299 * Float(p[r]) + 0.587 * Float(p[g]) + 0.114 * Float(p[b])
        }
        if bilinear {
            let half = SIMD2<Int>(repeating: 1 << 15), scale = Float(1 / Self.one)
            for j in 0..<n {
                var q = origin &+ down &* j &- half
                for i in 0..<n {
                    let p = pixel(q)
                    let tx = Float(q.x & 0xFFFF) * scale, ty = Float(q.y & 0xFFFF) * scale
                    let l00 = luma(p), l10 = luma(p + du), l01 = luma(p + dv), l11 = luma(p + du + dv)
                    let top = l00 + tx * (l10 - l00), bottom = l01 + tx * (l11 - l01)
                    out[j * n + i] = (top + ty * (bottom - top)) * gain + shift
                    q &+= across
                }
            }
        } else {
            let diagonal = tapAcross &+ tapDown
            for j in 0..<n {
                var q = origin &+ down &* j
                for i in 0..<n {
                    let p0 = pixel(q), p1 = pixel(q &+ tapAcross), p2 = pixel(q &+ tapDown), p3 = pixel(q &+ diagonal)
                    let red = Int(p0[r]) + Int(p1[r]) + Int(p2[r]) + Int(p3[r])
                    let green = Int(p0[g]) + Int(p1[g]) + Int(p2[g]) + Int(p3[g])
                    let blue = Int(p0[b]) + Int(p1[b]) + Int(p2[b]) + Int(p3[b])
                    out[j * n + i] = (0.299 * Float(red) + 0.587 * Float(green) + 0.114 * Float(blue)) * 0.25 * gain + shift
                    q &+= across
                }
            }
        }
    }
}
