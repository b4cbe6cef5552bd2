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

    /// Converts `count` stored pixels of row `y` from column `x` (even) into RGB words at `out` (bytes R, G, B,
    /// 0 in memory order), sixteen at a time: the luma of pixel pairs as 16-bit lanes (the even pixels in the low
    /// bytes, the odd in the high) and each pair's chroma in one lane, so both halves are converted with the same
    /// chroma lanes and no lane is moved across (lane shuffles and extracts make the compiler scalarize the
    /// arithmetic); the words of a pair join in a 64-bit lane and the sixteen are stored as one vector. The last
    /// pixels go through `rgb`. The arithmetic is `YUVConversion`'s, so each pixel is what `rgb` gives it.
    func convertStoredRow(y: Int, x: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let row = luma + y &* lumaStride
        let cbRow = cb + (y &>> 1) &* cbStride, crRow = cr + (y &>> 1) &* crStride
        // nv12 (Cb first) or nv21 (Cr first): one plane of pairs, loaded eight pairs at a time.
        let interleaved = step == 2 && cbStride == crStride && (cb + 1 == cr || cr + 1 == cb)
        let pairs = min(cbRow, crRow), cbFirst = cbRow < crRow
        let end = x + count
        var column = x, q = UnsafeMutableRawPointer(out)
        while column + 16 <= end {
            let l = Lanes.widen(UnsafeRawPointer(row + column).loadUnaligned(as: SIMD8<UInt16>.self))
            let c = (column &>> 1) &* step
            let u: SIMD8<Int32>, v: SIMD8<Int32>
            if interleaved {
                let p = Lanes.widen(UnsafeRawPointer(pairs + c).loadUnaligned(as: SIMD8<UInt16>.self))
                (u, v) = cbFirst ? (p & 255, p &>> 8) : (p &>> 8, p & 255)
            } else if step == 1 {
                @inline(__always) func lanes(_ p: UnsafePointer<UInt8>) -> SIMD8<Int32> {
                    Lanes.widen(UnsafeRawPointer(p + c).loadUnaligned(as: SIMD8<UInt8>.self))
                }
                (u, v) = (lanes(cbRow), lanes(crRow))
            } else {
                @inline(__always) func lanes(_ p: UnsafePointer<UInt8>) -> SIMD8<Int32> {
                    var s = SIMD8<Int32>()
                    for k in 0..<8 { s[k] = Int32(p[c &+ k &* step]) }
                    return s
                }
                (u, v) = (lanes(cbRow), lanes(crRow))
            }
            let cbLanes = FloatLanes.floats(u), crLanes = FloatLanes.floats(v)
            let even = conversion.convert(FloatLanes.floats(l & 255), cbLanes, crLanes)
            let odd = conversion.convert(FloatLanes.floats(l &>> 8), cbLanes, crLanes)
            @inline(__always) func words(_ p: (r: SIMD8<Int32>, g: SIMD8<Int32>, b: SIMD8<Int32>)) -> SIMD8<UInt64> {
                Lanes.widen(p.r | p.g &<< 8 | p.b &<< 16)
            }
            q.storeBytes(of: words(even) | words(odd) &<< 32, as: SIMD8<UInt64>.self)
            q += 64
            column += 16
        }
        while column < end {
            let last = Int32(end - 1)
            var columns = Int32(column) &+ SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7)
            let beyond = last &- columns
            columns &+= beyond & (beyond &>> 31)   // min(columns, last) without a lane comparison
            let (r, g, b) = rgb(x: columns, y: SIMD8(repeating: Int32(y)))
            let w = r | g &<< 8 | b &<< 16
            for k in 0..<min(8, end - column) {
                q.storeBytes(of: UInt32(truncatingIfNeeded: w[k]), toByteOffset: 4 &* k, as: UInt32.self)
            }
            q += 32
            column += 8
        }
    }
}

/// Lane widenings written out lane by lane, which the optimizer turns into vector unpacks: the standard library's
/// generic `init(truncatingIfNeeded:)` stayed a call in the release build (spilling every vector register).
enum Lanes {
    @inline(__always)
    static func widen(_ v: SIMD8<UInt16>) -> SIMD8<Int32> {
        SIMD8(Int32(v[0]), Int32(v[1]), Int32(v[2]), Int32(v[3]), Int32(v[4]), Int32(v[5]), Int32(v[6]), Int32(v[7]))
    }

    @inline(__always)
    static func widen(_ v: SIMD8<UInt8>) -> SIMD8<Int32> {
        SIMD8(Int32(v[0]), Int32(v[1]), Int32(v[2]), Int32(v[3]), Int32(v[4]), Int32(v[5]), Int32(v[6]), Int32(v[7]))
    }

    @inline(__always)
    static func widen16(_ v: SIMD8<UInt8>) -> SIMD8<UInt16> {
        SIMD8(UInt16(v[0]), UInt16(v[1]), UInt16(v[2]), UInt16(v[3]), UInt16(v[4]), UInt16(v[5]), UInt16(v[6]), UInt16(v[7]))
    }

    /// The low 32 bits of each lane.
    @inline(__always)
    static func narrow(_ v: SIMD8<Int64>) -> SIMD8<Int32> {
        SIMD8(Int32(truncatingIfNeeded: v[0]), Int32(truncatingIfNeeded: v[1]), Int32(truncatingIfNeeded: v[2]),
              Int32(truncatingIfNeeded: v[3]), Int32(truncatingIfNeeded: v[4]), Int32(truncatingIfNeeded: v[5]),
              Int32(truncatingIfNeeded: v[6]), Int32(truncatingIfNeeded: v[7]))
    }

    /// Non-negative lanes as 64-bit lanes.
    @inline(__always)
    static func widen(_ v: SIMD8<Int32>) -> SIMD8<UInt64> {
        SIMD8(UInt64(UInt32(bitPattern: v[0])), UInt64(UInt32(bitPattern: v[1])), UInt64(UInt32(bitPattern: v[2])),
              UInt64(UInt32(bitPattern: v[3])), UInt64(UInt32(bitPattern: v[4])), UInt64(UInt32(bitPattern: v[5])),
              UInt64(UInt32(bitPattern: v[6])), UInt64(UInt32(bitPattern: v[7])))
    }
}
