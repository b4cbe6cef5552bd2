/// Reads the pixels of a YUV 4:2:0 view as RGB, a vector of pixels at a time: each pixel's luma sample with the
/// chroma sample of its 2x2 block, converted by the view's `YUVConversion`. What `ImageToTensor` and
/// `ImageView.uprightRGB()` read YUV with.
///
/// Coordinates are `Int32` lanes: YUV views are at most `ChromaPlanes.maximumSide` pixels a side.
struct YUVReader {
    let luma: UnsafePointer<UInt8>
    let lumaStride: Int
    let cb: UnsafePointer<UInt8>, cr: UnsafePointer<UInt8>
    let cbStride: Int, crStride: Int, step: Int
    /// Upright pixel (u, v) is stored pixel (x0 + xu·u + xv·v, y0 + yu·u + yv·v).
    let x0: Int32, xu: Int32, xv: Int32, y0: Int32, yu: Int32, yv: Int32
    let conversion: YUVConversion

    init(_ image: ImageView, chroma: ChromaPlanes) {
        luma = image.baseAddress.assumingMemoryBound(to: UInt8.self)
        lumaStride = image.bytesPerRow
        cb = chroma.cb.assumingMemoryBound(to: UInt8.self)
        cr = chroma.cr.assumingMemoryBound(to: UInt8.self)
        (cbStride, crStride, step) = (chroma.cbBytesPerRow, chroma.crBytesPerRow, chroma.pixelStride)
        let o = image.orientation, (w, h) = (image.width, image.height)
        let origin = o.storedPixel(u: 0, v: 0, width: w, height: h)
        let right = o.storedPixel(u: 1, v: 0, width: w, height: h), down = o.storedPixel(u: 0, v: 1, width: w, height: h)
        (x0, y0) = (Int32(truncatingIfNeeded: origin.x), Int32(truncatingIfNeeded: origin.y))
        (xu, yu) = (Int32(truncatingIfNeeded: right.x - origin.x), Int32(truncatingIfNeeded: right.y - origin.y))
        (xv, yv) = (Int32(truncatingIfNeeded: down.x - origin.x), Int32(truncatingIfNeeded: down.y - origin.y))
        conversion = YUVConversion(image.colorSpace)
    }

    /// The stored coordinates of upright pixels `(u, v)`.
    @inline(__always)
    func stored(u: SIMD8<Int32>, v: SIMD8<Int32>) -> (x: SIMD8<Int32>, y: SIMD8<Int32>) {
        (x0 &+ u &* xu &+ v &* xv, y0 &+ u &* yu &+ v &* yv)
    }

    /// R, G, B (integers 0...255) of the stored pixels `(x, y)`, which must lie inside the image.
    @inline(__always)
    func rgb(x: SIMD8<Int32>, y: SIMD8<Int32>) -> (r: SIMD8<Int32>, g: SIMD8<Int32>, b: SIMD8<Int32>) {
        @inline(__always) func sample(_ k: Int) -> (Int32, Int32, Int32) {
            let column = Int(x[k]), row = Int(y[k])
            let c = (column &>> 1) &* step, r = row &>> 1
            return (Int32(luma[row &* lumaStride &+ column]), Int32(cb[r &* cbStride &+ c]), Int32(cr[r &* crStride &+ c]))
        }
        let s0 = sample(0), s1 = sample(1), s2 = sample(2), s3 = sample(3)
        let s4 = sample(4), s5 = sample(5), s6 = sample(6), s7 = sample(7)
        return conversion.convert(FloatLanes.floats(SIMD8(s0.0, s1.0, s2.0, s3.0, s4.0, s5.0, s6.0, s7.0)),
                                  FloatLanes.floats(SIMD8(s0.1, s1.1, s2.1, s3.1, s4.1, s5.1, s6.1, s7.1)),
                                  FloatLanes.floats(SIMD8(s0.2, s1.2, s2.2, s3.2, s4.2, s5.2, s6.2, s7.2)))
    }

    /// Converts `count` stored pixels of row `y` from column `x` (even) into packed RGB at `out`: eight at a
    /// time from contiguous luma, each chroma sample read once for its two columns; the last ones through `rgb`.
    func convertStoredRow(y: Int, x: Int, count: Int, into out: UnsafeMutablePointer<UInt8>) {
        let row = luma + y &* lumaStride
        let cbRow = cb + (y &>> 1) &* cbStride, crRow = cr + (y &>> 1) &* crStride
        var column = x, q = out
        @inline(__always) func store(_ r: SIMD8<Int32>, _ g: SIMD8<Int32>, _ b: SIMD8<Int32>, _ n: Int) {
            for k in 0..<n {
                q[0] = UInt8(truncatingIfNeeded: r[k])
                q[1] = UInt8(truncatingIfNeeded: g[k])
                q[2] = UInt8(truncatingIfNeeded: b[k])
                q += 3
            }
        }
        while column + 8 <= x + count {
            let l = SIMD8<Int32>(truncatingIfNeeded: UnsafeRawPointer(row + column).loadUnaligned(as: SIMD8<UInt8>.self))
            let c = (column &>> 1) &* step
            @inline(__always) func pairs(_ p: UnsafePointer<UInt8>) -> SIMD8<Int32> {
                let a = Int32(p[c]), b = Int32(p[c &+ step]), d = Int32(p[c &+ 2 &* step]), e = Int32(p[c &+ 3 &* step])
                return SIMD8(a, a, b, b, d, d, e, e)
            }
            let (r, g, b) = conversion.convert(FloatLanes.floats(l), FloatLanes.floats(pairs(cbRow)),
                                               FloatLanes.floats(pairs(crRow)))
            store(r, g, b, 8)
            column += 8
        }
        if column < x + count {
            let last = Int32(x + count - 1)
            var columns = Int32(column) &+ SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7)
            let beyond = last &- columns
            columns &+= beyond & (beyond &>> 31)   // min(columns, last) without a lane comparison
            let (r, g, b) = rgb(x: columns, y: SIMD8(repeating: Int32(y)))
            store(r, g, b, x + count - column)
        }
    }
}
