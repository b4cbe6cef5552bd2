/// The vector sampling loops of `.warp` (`warpVector`, and `warpSeparable` for unturned frames): the same
/// positions, taps, weights and rounding as the per-pixel reference (`warpReference`), bit for bit, with the
/// channels of a pixel in vector lanes.
///
/// Why they are exact: positions are the reference's `Double` expressions evaluated lane-wise (the same
/// operations in the same order, so the same roundings), and the rounding to 1/32 pixel reads the integer out
/// of `value + 1.5 · 2^52` directly, which is what `roundHalfEven` computes. The bilinear sum is the reference's
/// integer sum regrouped: along x in 16 bits (tap · weight ≤ 255 · 32), along y in 32 bits, then
/// `(sum + 512) >> 10` and `value · scale + offset` as the reference computes them.
extension ImageToTensor {
    /// How a pixel format's taps are read into vector lanes.
    protocol TapLayout {
        /// Extra pixels kept between the vector loop's taps and the image's edge: 1 when a 4-byte load at a
        /// pixel may read past the buffer (3-byte pixels; the last stored pixel is a corner of the upright image).
        static var margin: Int { get }
        /// Values of bytes 0...3 of a pixel, reordered into red, green, blue (lane 3 is ignored).
        static func arrange(_ v: SIMD4<Int32>) -> SIMD4<Int32>
    }

    /// `rgb8` (the fourth byte read belongs to the next pixel).
    enum RGB3Taps: TapLayout {
        static var margin: Int { 1 }
        @inline(__always) static func arrange(_ v: SIMD4<Int32>) -> SIMD4<Int32> { v }
    }

    /// `rgba8`.
    enum RGBATaps: TapLayout {
        static var margin: Int { 0 }
        @inline(__always) static func arrange(_ v: SIMD4<Int32>) -> SIMD4<Int32> { v }
    }

    /// `bgra8`.
    enum BGRATaps: TapLayout {
        static var margin: Int { 0 }
        @inline(__always) static func arrange(_ v: SIMD4<Int32>) -> SIMD4<Int32> { SIMD4(v[2], v[1], v[0], v[3]) }
    }

    /// `argb8`.
    enum ARGBTaps: TapLayout {
        static var margin: Int { 0 }
        @inline(__always) static func arrange(_ v: SIMD4<Int32>) -> SIMD4<Int32> { SIMD4(v[1], v[2], v[3], v[0]) }
    }

    /// The four bytes at `a` then the four at `b`, in 16 bits.
    @inline(__always)
    static func widen(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>) -> SIMD8<UInt16> {
        Lanes.widen16(SIMD8<UInt8>(lowHalf: UnsafeRawPointer(a).loadUnaligned(as: SIMD4<UInt8>.self),
                                   highHalf: UnsafeRawPointer(b).loadUnaligned(as: SIMD4<UInt8>.self)))
    }

    /// Writes the row's fixed-point positions (1/32 pixel) of tensor pixels `0..<width` into `xs` and `ys`:
    /// `roundHalfEven((row + Double(i) · step) · 32)` per axis, two pixels per vector.
    @inline(never)
    static func rowPositions(_ xs: UnsafeMutablePointer<Int64>, _ ys: UnsafeMutablePointer<Int64>, width: Int,
                             row: (Double, Double), step: (x: Double, y: Double)) {
        let magic = 6_755_399_441_055_744.0
        let magicBits = Int64(bitPattern: magic.bitPattern)
        let rowX = SIMD2(repeating: row.0), rowY = SIMD2(repeating: row.1)
        let stepX = SIMD2(repeating: step.x), stepY = SIMD2(repeating: step.y)
        var index = SIMD2<Double>(0, 1)
        var i = 0
        while i + 2 <= width {
            let x = (rowX + index * stepX) * 32 + magic, y = (rowY + index * stepY) * 32 + magic
            UnsafeMutableRawPointer(xs + i).storeBytes(of: unsafeBitCast(x, to: SIMD2<Int64>.self) &- magicBits,
                                                       as: SIMD2<Int64>.self)
            UnsafeMutableRawPointer(ys + i).storeBytes(of: unsafeBitCast(y, to: SIMD2<Int64>.self) &- magicBits,
                                                       as: SIMD2<Int64>.self)
            index += 2
            i += 2
        }
        if i < width {
            xs[i] = Int64(bitPattern: ((row.0 + Double(i) * step.x) * 32 + magic).bitPattern) &- magicBits
            ys[i] = Int64(bitPattern: ((row.1 + Double(i) * step.y) * 32 + magic).bitPattern) &- magicBits
        }
    }

    /// The vector loop. Pixels whose taps all lie at least `L.margin` inside the image are blended with the
    /// channels in lanes and stored as four floats (the fourth is overwritten by the next pixel; the tensor's
    /// last pixel is stored as three); the others take the reference's scalar border handling (`borderPixel`).
    /// Two pixels at a time, so that their dependency chains overlap.
    @inline(__always)
    static func warpVector<L: TapLayout>(_ output: UnsafeMutablePointer<Float>, width: Int, height: Int,
                                         frame: WarpFrame, geometry g: WarpGeometry, scratch: WarpScratch,
                                         scale: Float, offset: Float, channels c: (Int, Int, Int), layout: L.Type) {
        let margin = L.margin
        let spanX = UInt(max(g.extentX - 1 - 2 * margin, 0)), spanY = UInt(max(g.extentY - 1 - 2 * margin, 0))
        let kernel = VectorKernel<L>(start: g.start, du: g.du, dv: g.dv, horizontal: scratch.horizontal,
                                     vertical: scratch.vertical, scale: scale, offset: offset)
        let xs = scratch.positions, ys = scratch.positions + width
        @inline(__always)
        func inside(_ fx: Int, _ fy: Int) -> Bool {
            UInt(bitPattern: fx &>> 5 &- margin) < spanX && UInt(bitPattern: fy &>> 5 &- margin) < spanY
        }
        for j in 0..<height {
            rowPositions(xs, ys, width: width, row: (frame.origin.0 + Double(j) * frame.yStep.x,
                                                     frame.origin.1 + Double(j) * frame.yStep.y), step: frame.xStep)
            let row = output + 3 * width * j
            // Along a row each coordinate is monotonic in i (rounded products and sums are monotonic), so the
            // pixels inside form one run [first, end); the ones before and after it take the border path.
            // The tensor's last pixel is never stored as four floats.
            let count = j < height - 1 ? width : width - 1
            var first = 0, end = count
            while first < end && !inside(Int(truncatingIfNeeded: xs[first]), Int(truncatingIfNeeded: ys[first])) { first += 1 }
            while end > first && !inside(Int(truncatingIfNeeded: xs[end - 1]), Int(truncatingIfNeeded: ys[end - 1])) { end -= 1 }
            for i in 0..<first {
                borderPixel(row + 3 * i, Int(truncatingIfNeeded: xs[i]), Int(truncatingIfNeeded: ys[i]), geometry: g,
                            scale: scale, offset: offset, channels: c)
            }
            var i = first
            while i + 2 <= end {
                let out = row + 3 &* i
                let p = kernel.value(Int(truncatingIfNeeded: xs[i]), Int(truncatingIfNeeded: ys[i]))
                let q = kernel.value(Int(truncatingIfNeeded: xs[i + 1]), Int(truncatingIfNeeded: ys[i + 1]))
                UnsafeMutableRawPointer(out).storeBytes(of: p, as: SIMD4<Float>.self)
                UnsafeMutableRawPointer(out + 3).storeBytes(of: q, as: SIMD4<Float>.self)
                i += 2
            }
            if i < end {
                let value = kernel.value(Int(truncatingIfNeeded: xs[i]), Int(truncatingIfNeeded: ys[i]))
                UnsafeMutableRawPointer(row + 3 &* i).storeBytes(of: value, as: SIMD4<Float>.self)
            }
            for i in end..<width {
                borderPixel(row + 3 * i, Int(truncatingIfNeeded: xs[i]), Int(truncatingIfNeeded: ys[i]), geometry: g,
                            scale: scale, offset: offset, channels: c)
            }
        }
    }

    /// The vector blend of one pixel whose four taps lie inside the image.
    struct VectorKernel<L: TapLayout> {
        var start: UnsafePointer<UInt8>
        var du: Int, dv: Int
        var horizontal: UnsafeMutablePointer<SIMD8<UInt16>>
        var vertical: UnsafeMutablePointer<SIMD8<UInt16>>
        var scale: Float, offset: Float

        /// The pixel at fixed-point position `(fx, fy)` as `(r, g, b, ·)` after the range conversion.
        @inline(__always)
        func value(_ fx: Int, _ fy: Int) -> SIMD4<Float> {
            blend(start + ((fy &>> 5) &* dv &+ (fx &>> 5) &* du), horizontal + 2 &* (fx & 31), vertical[fy & 31])
        }

        /// The pixel whose top-left tap is at `a`, with the horizontal weights at `wx` (`32 − fx`, `fx`) and the
        /// vertical ones `wy`.
        @inline(__always)
        func blend(_ a: UnsafePointer<UInt8>, _ wx: UnsafeMutablePointer<SIMD8<UInt16>>, _ wy: SIMD8<UInt16>) -> SIMD4<Float> {
            let d = a + dv
            // Along x in 16 bits (tap · weight ≤ 255 · 32): the top row's four bytes, then the bottom's.
            let rows = widen(a, d) &* wx[0] &+ widen(a + du, d + du) &* wx[1]
            // Along y in 32 bits: top · (32 − fy) + bottom · fy.
            let products = Lanes.widen(rows) &* Lanes.widen(wy)
            let sums = L.arrange((products.lowHalf &+ products.highHalf &+ 512) &>> 10)
            return FloatLanes.floats(sums) * scale + offset   // every lane 0...255: exact
        }
    }

    /// `warpVector` for unturned frames: the same positions (`xStep.y` and `yStep.x` are zero, so x depends on
    /// the column only and y on the row only), tabulated once per column (`columns`: fx, tap offset, weight
    /// index) and once per row, then the same blend.
    @inline(__always)
    static func warpSeparable<L: TapLayout>(_ output: UnsafeMutablePointer<Float>, width: Int, height: Int,
                                            frame: WarpFrame, geometry g: WarpGeometry, scratch: WarpScratch,
                                            columns: UnsafeMutablePointer<Int>, scale: Float, offset: Float,
                                            channels c: (Int, Int, Int), layout: L.Type) {
        let margin = L.margin
        let spanX = UInt(max(g.extentX - 1 - 2 * margin, 0)), spanY = UInt(max(g.extentY - 1 - 2 * margin, 0))
        let kernel = VectorKernel<L>(start: g.start, du: g.du, dv: g.dv, horizontal: scratch.horizontal,
                                     vertical: scratch.vertical, scale: scale, offset: offset)
        // The reference's position expressions; the zero steps only add ±0, which changes no rounding.
        let rowX = frame.origin.0 + Double(0) * frame.yStep.x, columnY = Double(0) * frame.xStep.y
        var first = width, end = 0
        for i in 0..<width {
            let fx = roundHalfEven((rowX + Double(i) * frame.xStep.x) * 32)
            columns[3 * i] = fx
            columns[3 * i + 1] = (fx &>> 5) &* g.du
            columns[3 * i + 2] = 2 &* (fx & 31)
            if UInt(bitPattern: fx &>> 5 &- margin) < spanX { first = Swift.min(first, i); end = i + 1 }
        }
        for j in 0..<height {
            let fy = roundHalfEven((frame.origin.1 + Double(j) * frame.yStep.y + columnY) * 32)
            let row = output + 3 * width * j
            // The columns inside form one run (positions are monotonic in i); the tensor's last pixel is never
            // stored as four floats.
            let (runStart, runEnd) = UInt(bitPattern: fy &>> 5 &- margin) < spanY
                ? (Swift.min(first, end), j < height - 1 ? end : Swift.min(end, width - 1)) : (0, 0)
            let base = g.start + (fy &>> 5) &* g.dv, wy = scratch.vertical[fy & 31]
            for i in 0..<runStart {
                borderPixel(row + 3 * i, columns[3 * i], fy, geometry: g, scale: scale, offset: offset, channels: c)
            }
            for i in runStart..<Swift.max(runStart, runEnd) {
                let value = kernel.blend(base + columns[3 &* i &+ 1], scratch.horizontal + columns[3 &* i &+ 2], wy)
                UnsafeMutableRawPointer(row + 3 &* i).storeBytes(of: value, as: SIMD4<Float>.self)
            }
            // After the run, whose last four-float store reaches into the next pixel.
            for i in Swift.max(runStart, runEnd)..<width {
                borderPixel(row + 3 * i, columns[3 * i], fy, geometry: g, scale: scale, offset: offset, channels: c)
            }
        }
    }

    /// One pixel of `warpVector` through the reference's scalar taps and blend (any position, any border).
    @inline(never)
    static func borderPixel(_ out: UnsafeMutablePointer<Float>, _ fx: Int, _ fy: Int, geometry g: WarpGeometry,
                            scale: Float, offset: Float, channels c: (Int, Int, Int)) {
        let (x0, x1, wx0, wx1) = taps(fx, extent: g.extentX, stride: g.du, replicate: g.replicate)
        let (y0, y1, wy0, wy1) = taps(fy, extent: g.extentY, stride: g.dv, replicate: g.replicate)
        blend(out, (g.start + y0 + x0, g.start + y0 + x1, g.start + y1 + x0, g.start + y1 + x1),
              (Int32(wx0 * wy0), Int32(wx1 * wy0), Int32(wx0 * wy1), Int32(wx1 * wy1)),
              scale: scale, offset: offset, channels: c)
    }

    /// Memory the vector loops reuse between calls: one row's positions and the weights of each fraction.
    struct WarpScratch {
        /// `xs` then `ys` of one tensor row, in 1/32 pixel.
        var positions: UnsafeMutablePointer<Int64>
        /// At `2f` and `2f + 1` (f in 0..<32): `32 − f` and `f` in every lane.
        var horizontal: UnsafeMutablePointer<SIMD8<UInt16>>
        /// At `f`: `32 − f` in lanes 0...3 and `f` in lanes 4...7.
        var vertical: UnsafeMutablePointer<SIMD8<UInt16>>

        init(width: Int) {
            positions = .allocate(capacity: 2 * width)
            horizontal = .allocate(capacity: 64)
            vertical = .allocate(capacity: 32)
            for f in 0..<32 {
                let (near, far) = (UInt16(32 - f), UInt16(f))
                horizontal[2 * f] = SIMD8(repeating: near)
                horizontal[2 * f + 1] = SIMD8(repeating: far)
                vertical[f] = SIMD8(lowHalf: SIMD4(repeating: near), highHalf: SIMD4(repeating: far))
            }
        }

        func deallocate() {
            positions.deallocate()
            horizontal.deallocate()
            vertical.deallocate()
        }
    }
}
