/// `.detector` sampling of a YUV view from tap tables: the tensor's columns share their taps on every row, so
/// each column's two taps are tabulated once (their luma, Cb and Cr byte offsets and weights), each row's two
/// likewise, and a tensor row is then gathered (four taps per pixel, bytes into the scratch), converted and
/// blended eight pixels per vector step from memory. The gather is scalar and the arithmetic in vectors: lanes
/// built from scalars or taken apart make the compiler scalarize the conversion.
///
/// The same taps (`taps`, with the border's clamping and zero weights), conversion (`YUVConversion`) and blend
/// (integer products below 2^24, exact in `Float`, then `(sum + 512) >> 10`) as `YUVSource.pixel`, so the same
/// tensor, bit for bit: the RGB path's on `uprightRGB()`.
extension ImageToTensor {
    /// The scratch bytes `fillYUVTabulated` needs for a tensor `width` pixels wide.
    static func yuvTableBytes(width: Int) -> Int { 80 * ((width + 7) & ~7) + 64 }

    /// `fillYUVSeparable`'s result from tap tables in `yuvScratch` (allocated here when missing). The caller
    /// checks `yuvTableBytes(width:) <= yuvScratchBytes`.
    func fillYUVTabulated(_ output: UnsafeMutablePointer<Float>, source: YUVSource, origin: (Double, Double),
                          step: (Double, Double), roundHalfEven: Bool) {
        let (scale, offset) = valueTransform
        let w = options.width
        let wp = (w + 7) & ~7
        if yuvScratch == nil { yuvScratch = .allocate(capacity: yuvScratchBytes) }
        let raw = UnsafeMutableRawPointer(yuvScratch!)
        // Offsets of the two taps of each column: luma, Cb, Cr for tap 0 then tap 1 (six tables of `wp` Ints),
        // their weights (two of `wp` Floats), the gathered samples (twelve of `wp` bytes: luma, Cb, Cr of taps
        // 00, 01, 10, 11) and one converted row (three planes of `wp` Floats).
        let offsets = raw.bindMemory(to: Int.self, capacity: 6 * wp)
        let weights = (raw + 48 * wp).bindMemory(to: Float.self, capacity: 2 * wp)
        let samples = (raw + 56 * wp).bindMemory(to: UInt8.self, capacity: 12 * wp)
        let planes = (raw + 68 * wp).bindMemory(to: Float.self, capacity: 3 * wp)
        let r = source.reader
        let (lumaBase, cbBase, crBase) = (r.luma, r.cb, r.cr)
        // An upright coordinate moves one stored coordinate: x (columns) or y (rows).
        @inline(__always) func parts(_ stored: Int, isX: Bool) -> (Int, Int, Int) {
            isX ? (stored, (stored >> 1) * r.step, (stored >> 1) * r.step)
                : (stored * r.lumaStride, (stored >> 1) * r.cbStride, (stored >> 1) * r.crStride)
        }
        let uIsX = r.xu != 0, vIsX = r.xv != 0
        @inline(__always) func storedU(_ u: Int) -> Int { uIsX ? Int(r.x0) + Int(r.xu) * u : Int(r.y0) + Int(r.yu) * u }
        @inline(__always) func storedV(_ v: Int) -> Int { vIsX ? Int(r.x0) + Int(r.xv) * v : Int(r.y0) + Int(r.yv) * v }
        for i in 0..<wp {
            let fx = Self.fixedPoint(origin.0 + Double(min(i, w - 1)) * step.0, roundHalfEven: roundHalfEven)
            let (u0, u1, w0, w1) = Self.taps(fx, extent: source.extentX, stride: 1, replicate: source.replicate)
            let a = parts(storedU(u0), isX: uIsX), b = parts(storedU(u1), isX: uIsX)
            (offsets[i], offsets[wp + i], offsets[2 * wp + i]) = a
            (offsets[3 * wp + i], offsets[4 * wp + i], offsets[5 * wp + i]) = b
            (weights[i], weights[wp + i]) = (Float(w0), Float(w1))
        }
        separableRows(output, source: source, origin: origin.1, step: step.1, roundHalfEven: roundHalfEven) { out, _, taps in
            let (v0, v1, wy0, wy1) = taps
            let rows = (parts(storedV(v0), isX: vIsX), parts(storedV(v1), isX: vIsX))
            // Taps 00, 01 (the column's second), 10 (the row's second), 11.
            for k in 0..<4 {
                let column = k & 1
                let (l, cb, cr) = k < 2 ? rows.0 : rows.1
                let (lo, co, ro) = (offsets + 3 * column * wp, offsets + (3 * column + 1) * wp, offsets + (3 * column + 2) * wp)
                let (ls, cs, rs) = (samples + 3 * k * wp, samples + (3 * k + 1) * wp, samples + (3 * k + 2) * wp)
                for i in 0..<wp {
                    ls[i] = lumaBase[l &+ lo[i]]
                    cs[i] = cbBase[cb &+ co[i]]
                    rs[i] = crBase[cr &+ ro[i]]
                }
            }
            let (fy0, fy1) = (Float(wy0), Float(wy1))
            for i in stride(from: 0, to: wp, by: 8) {
                @inline(__always) func lanes(_ p: UnsafeMutablePointer<UInt8>) -> SIMD8<Float> {
                    FloatLanes.floats(SIMD8<Int32>(truncatingIfNeeded: UnsafeRawPointer(p + i).loadUnaligned(as: SIMD8<UInt8>.self)))
                }
                @inline(__always) func tap(_ k: Int) -> (r: SIMD8<Float>, g: SIMD8<Float>, b: SIMD8<Float>) {
                    let c = r.conversion.convert(lanes(samples + 3 * k * wp), lanes(samples + (3 * k + 1) * wp),
                                                 lanes(samples + (3 * k + 2) * wp))
                    return (FloatLanes.floats(c.r), FloatLanes.floats(c.g), FloatLanes.floats(c.b))
                }
                let wx0 = UnsafeRawPointer(weights + i).loadUnaligned(as: SIMD8<Float>.self)
                let wx1 = UnsafeRawPointer(weights + wp + i).loadUnaligned(as: SIMD8<Float>.self)
                let w00 = wx0 * fy0, w01 = wx1 * fy0, w10 = wx0 * fy1, w11 = wx1 * fy1
                let t00 = tap(0), t01 = tap(1), t10 = tap(2), t11 = tap(3)
                @inline(__always) func blend(_ a: SIMD8<Float>, _ b: SIMD8<Float>, _ c: SIMD8<Float>, _ d: SIMD8<Float>) -> SIMD8<Float> {
                    FloatLanes.blendRounded(a * w00 + b * w01 + c * w10 + d * w11) * scale + offset
                }
                UnsafeMutableRawPointer(planes + i).storeBytes(of: blend(t00.r, t01.r, t10.r, t11.r), as: SIMD8<Float>.self)
                UnsafeMutableRawPointer(planes + wp + i).storeBytes(of: blend(t00.g, t01.g, t10.g, t11.g), as: SIMD8<Float>.self)
                UnsafeMutableRawPointer(planes + 2 * wp + i).storeBytes(of: blend(t00.b, t01.b, t10.b, t11.b), as: SIMD8<Float>.self)
            }
            for i in 0..<w {
                out[3 * i] = planes[i]; out[3 * i + 1] = planes[wp + i]; out[3 * i + 2] = planes[2 * wp + i]
            }
        }
    }
}
