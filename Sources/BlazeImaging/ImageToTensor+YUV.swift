/// `ImageToTensor` on YUV 4:2:0 views, sampled directly from the planes: no full-frame conversion to RGB.
///
/// Each tap of the bilinear sampling is converted on its own, the luma sample with the chroma sample of its 2x2
/// block (`YUVReader`: rounded and clamped to 8 bits), then the four taps are weighted as for an RGB image. So
/// the tensor is, bit for bit, the one the same converter makes of the frame converted to RGB first with
/// `ImageView.uprightRGB()` (nearest chroma, as libswscale's and libyuv's unscaled converters do), for every
/// sampling, fit, border and orientation: the same positions (`fixedPoint`, `rowPositions`), taps (`taps`),
/// weights and rounding as the RGB loops' reference.
///
/// Per tensor row, the pixels whose four taps lie inside the image form one run (positions are monotonic along a
/// row); it is sampled eight pixels at a time, each lane a pixel (`pixels8`), and the pixels before and after it
/// one at a time through `taps` (`pixel`), which handles the border.
extension ImageToTensor {
    /// A YUV view prepared for sampling: its reader, its upright extent and the border.
    struct YUVSource {
        let reader: YUVReader
        let extentX: Int, extentY: Int
        let replicate: Bool

        init(_ image: ImageView, chroma: ChromaPlanes, replicate: Bool) {
            reader = YUVReader(image, chroma: chroma)
            (extentX, extentY) = (image.uprightWidth, image.uprightHeight)
            self.replicate = replicate
        }

        /// Whether the four taps of fixed-point position `(fx, fy)` lie inside the image.
        @inline(__always)
        func inside(_ fx: Int, _ fy: Int) -> Bool {
            UInt(bitPattern: fx &>> 5) < UInt(extentX - 1) && UInt(bitPattern: fy &>> 5) < UInt(extentY - 1)
        }

        /// The tensor pixel at fixed-point upright position `(fx, fy)` (1/32 pixel), anywhere, as 8-bit R, G, B
        /// in lanes 0...2: the reference's taps and weights (`taps`), each tap converted, `(sum + 512) >> 10`.
        @inline(__always)
        func pixel(_ fx: Int, _ fy: Int) -> SIMD4<Float> {
            let (u0, u1, wx0, wx1) = ImageToTensor.taps(fx, extent: extentX, stride: 1, replicate: replicate)
            let (v0, v1, wy0, wy1) = ImageToTensor.taps(fy, extent: extentY, stride: 1, replicate: replicate)
            let u = SIMD4(Int32(u0), Int32(u1), Int32(u0), Int32(u1)), v = SIMD4(Int32(v0), Int32(v0), Int32(v1), Int32(v1))
            let (x, y) = reader.stored(u: SIMD8(lowHalf: u, highHalf: u), v: SIMD8(lowHalf: v, highHalf: v))
            let (r, g, b) = reader.rgb(x: x, y: y)
            let w = SIMD4<Float>(Float(wx0 &* wy0), Float(wx1 &* wy0), Float(wx0 &* wy1), Float(wx1 &* wy1))
            let (rf, gf, bf) = (FloatLanes.floats(r).lowHalf, FloatLanes.floats(g).lowHalf, FloatLanes.floats(b).lowHalf)
            return FloatLanes.blendRounded(SIMD4((rf * w).sum(), (gf * w).sum(), (bf * w).sum(), 0))
        }

        /// Eight tensor pixels at fixed-point positions `(fx, fy)` whose taps all lie inside the image.
        @inline(__always)
        func pixels8(_ fx: SIMD8<Int64>, _ fy: SIMD8<Int64>) -> (r: SIMD8<Float>, g: SIMD8<Float>, b: SIMD8<Float>) {
            let u = Lanes.narrow(fx &>> 5), v = Lanes.narrow(fy &>> 5)
            let ax = FloatLanes.floats(Lanes.narrow(fx & 31)), ay = FloatLanes.floats(Lanes.narrow(fy & 31))
            let (x, y) = reader.stored(u: u, v: v)
            let t00 = reader.rgb(x: x, y: y)
            let t01 = reader.rgb(x: x &+ reader.xu, y: y &+ reader.yu)
            let t10 = reader.rgb(x: x &+ reader.xv, y: y &+ reader.yv)
            let t11 = reader.rgb(x: x &+ reader.xu &+ reader.xv, y: y &+ reader.yu &+ reader.yv)
            let bx = 32 - ax, by = 32 - ay
            let w00 = bx * by, w01 = ax * by, w10 = bx * ay, w11 = ax * ay
            // Integer products and sums below 2^24: exact in Float, so this is the reference's integer blend.
            @inline(__always) func blend(_ a: SIMD8<Int32>, _ b: SIMD8<Int32>, _ c: SIMD8<Int32>, _ d: SIMD8<Int32>) -> SIMD8<Float> {
                FloatLanes.blendRounded(FloatLanes.floats(a) * w00 + FloatLanes.floats(b) * w01 + FloatLanes.floats(c) * w10
                                        + FloatLanes.floats(d) * w11)
            }
            return (blend(t00.r, t01.r, t10.r, t11.r), blend(t00.g, t01.g, t10.g, t11.g), blend(t00.b, t01.b, t10.b, t11.b))
        }

        /// The run `[first, end)` of the row's pixels (positions `xs`, `ys`) whose taps lie inside the image: one
        /// run, as positions are monotonic along a row.
        @inline(__always)
        func insideRun(_ xs: UnsafeMutablePointer<Int64>, _ ys: UnsafeMutablePointer<Int64>, width: Int) -> (Int, Int) {
            @inline(__always) func inside(_ i: Int) -> Bool {
                self.inside(Int(truncatingIfNeeded: xs[i]), Int(truncatingIfNeeded: ys[i]))
            }
            var first = 0, end = width
            while first < end, !inside(first) { first += 1 }
            while end > first, !inside(end - 1) { end -= 1 }
            return (first, end)
        }

        /// Tensor pixel `i` of a row through `pixel` (any position).
        @inline(__always)
        func single(_ out: UnsafeMutablePointer<Float>, _ i: Int, xs: UnsafeMutablePointer<Int64>,
                    ys: UnsafeMutablePointer<Int64>, scale: Float, offset: Float) {
            let f = pixel(Int(truncatingIfNeeded: xs[i]), Int(truncatingIfNeeded: ys[i])) * scale + offset
            out[3 * i] = f[0]; out[3 * i + 1] = f[1]; out[3 * i + 2] = f[2]
        }

        /// One tensor row from the positions `xs`, `ys` (1/32 pixel) of its `width` pixels into `out`.
        @inline(__always)
        func row(_ out: UnsafeMutablePointer<Float>, xs: UnsafeMutablePointer<Int64>, ys: UnsafeMutablePointer<Int64>,
                 width: Int, scale: Float, offset: Float) {
            let (first, end) = insideRun(xs, ys, width: width)
            for i in 0..<first { single(out, i, xs: xs, ys: ys, scale: scale, offset: offset) }
            var i = first
            while i + 8 <= end {
                let fx = UnsafeRawPointer(xs + i).loadUnaligned(as: SIMD8<Int64>.self)
                let fy = UnsafeRawPointer(ys + i).loadUnaligned(as: SIMD8<Int64>.self)
                let (r, g, b) = pixels8(fx, fy)
                let rf = r * scale + offset, gf = g * scale + offset, bf = b * scale + offset
                let o = out + 3 &* i
                for k in 0..<8 { o[3 &* k] = rf[k]; o[3 &* k &+ 1] = gf[k]; o[3 &* k &+ 2] = bf[k] }
                i += 8
            }
            while i < width { single(out, i, xs: xs, ys: ys, scale: scale, offset: offset); i += 1 }
        }
    }

    /// `.detector` sampling (`fillSeparable`'s positions) of a YUV view: from tap tables (`fillYUVTabulated`) when
    /// they fit the scratch (`yuvTableBytes`; all but very flat tensors), else each tap converted (`pixels8`). A
    /// tensor row whose taps both weigh 0 (a letterbox band with `.zero` border) is the range's value for 0
    /// throughout.
    func fillYUVSeparable(_ output: UnsafeMutablePointer<Float>, image: ImageView, chroma: ChromaPlanes,
                          origin: (Double, Double), step: (Double, Double), roundHalfEven: Bool) {
        let source = YUVSource(image, chroma: chroma, replicate: options.border == .replicate)
        if Self.yuvTableBytes(width: options.width) <= yuvScratchBytes {
            fillYUVTabulated(output, source: source, origin: origin, step: step, roundHalfEven: roundHalfEven)
            return
        }
        let (scale, offset) = valueTransform
        let w = options.width
        let xs = warpScratch.positions, ys = warpScratch.positions + w
        for i in 0..<w { xs[i] = Int64(Self.fixedPoint(origin.0 + Double(i) * step.0, roundHalfEven: roundHalfEven)) }
        separableRows(output, source: source, origin: origin.1, step: step.1, roundHalfEven: roundHalfEven) { out, fy, _ in
            ys.update(repeating: Int64(fy), count: w)
            source.row(out, xs: xs, ys: ys, width: w, scale: scale, offset: offset)
        }
    }

    /// `.detector` sampling's tensor rows: `body` gets each row's output, fixed-point y (1/32 pixel) and taps
    /// (`taps`); a row whose taps both weigh 0 (a letterbox band with `.zero` border) is the range's value for 0
    /// throughout, without `body`.
    @inline(__always)
    func separableRows(_ output: UnsafeMutablePointer<Float>, source: YUVSource, origin: Double, step: Double,
                       roundHalfEven: Bool, _ body: (UnsafeMutablePointer<Float>, Int, (Int, Int, Int, Int)) -> Void) {
        let (w, offset) = (options.width, valueTransform.offset)
        for j in 0..<options.height {
            let out = output + 3 * w * j
            let fy = Self.fixedPoint(origin + Double(j) * step, roundHalfEven: roundHalfEven)
            let taps = Self.taps(fy, extent: source.extentY, stride: 1, replicate: source.replicate)
            if taps.2 == 0 && taps.3 == 0 {
                out.update(repeating: offset, count: 3 * w)
                continue
            }
            body(out, fy, taps)
        }
    }

    /// `.warp` sampling (the per-pixel reference's positions, `rowPositions`) of a YUV view, turned or not.
    ///
    /// When the stored pixels under the crop are at most four times its taps (a face-mesh crop of a face a third
    /// of a 720p frame high: about 2.4 times fewer pixels than taps; a face filling the frame's height, turned:
    /// about 2.7 times more), they are converted once, row by row, into `yuvScratch` (`YUVPatch`, RGB words), and
    /// the RGB path's `.warp` loops (`warpSeparable`, `warpVector`: bit for bit its reference) sample the patch
    /// as an rgba8 image; otherwise (a whole frame shrunk into the tensor) each tap is converted (`pixels8`).
    /// Converting a pixel of the patch costs about a quarter of converting a tap on its own (~1.4 against ~5 ns:
    /// a row is sixteen pixels a vector; a tap's samples are gathered byte by byte): with the face filling a 720p frame, the
    /// patch took 545 and 694 us (unturned, turned 0.1 rad) where converting each tap took 781 and 812
    /// (`blazeface-yuvbench`'s large cases).
    func fillYUVWarped(_ output: UnsafeMutablePointer<Float>, image: ImageView, chroma: ChromaPlanes, frame: WarpFrame) {
        let source = YUVSource(image, chroma: chroma, replicate: options.border == .replicate)
        let (scale, offset) = valueTransform
        let (w, h) = (options.width, options.height)
        let xs = warpScratch.positions, ys = warpScratch.positions + w
        func positions(_ j: Int) {
            Self.rowPositions(xs, ys, width: w, row: (frame.origin.0 + Double(j) * frame.yStep.x,
                                                      frame.origin.1 + Double(j) * frame.yStep.y), step: frame.xStep)
        }
        guard let patch = YUVPatch(image, source: source, frame: frame, width: w, height: h,
                                   capacity: yuvScratchBytes) else {
            for j in 0..<h {
                positions(j)
                source.row(output + 3 * w * j, xs: xs, ys: ys, width: w, scale: scale, offset: offset)
            }
            return
        }
        if yuvScratch == nil { yuvScratch = .allocate(capacity: yuvScratchBytes) }
        let pixels = UnsafeMutableRawPointer(yuvScratch!)
        patch.convert(source.reader, into: pixels.assumingMemoryBound(to: UInt32.self))
        // Upright pixel (u, v) is stored pixel (x0 + xu·u + xv·v, y0 + yu·u + yv·v), at patch byte
        // (y − patch.y) · stride + (x − patch.x) · 4: the RGB path's geometry over the patch, its origin the
        // address upright (0, 0) would have (outside the patch unless the patch starts there; only taps the
        // patch holds are read: the crop's, and the image edges its border taps are clamped to).
        let r = source.reader
        let (x0, xu, xv, y0, yu, yv) = (Int(r.x0), Int(r.xu), Int(r.xv), Int(r.y0), Int(r.yu), Int(r.yv))
        let origin = (y0 - patch.y) * patch.stride + (x0 - patch.x) * 4
        let geometry = WarpGeometry(start: UnsafePointer(pixels.assumingMemoryBound(to: UInt8.self)) + origin,
                                    du: xu * 4 + yu * patch.stride, dv: xv * 4 + yv * patch.stride,
                                    extentX: source.extentX, extentY: source.extentY, replicate: source.replicate)
        if frame.isAxisAligned {
            Self.warpSeparable(output, width: w, height: h, frame: frame, geometry: geometry, scratch: warpScratch,
                               columns: columns, scale: scale, offset: offset, channels: (0, 1, 2), layout: RGBATaps.self)
        } else {
            Self.warpVector(output, width: w, height: h, frame: frame, geometry: geometry, scratch: warpScratch,
                            scale: scale, offset: offset, channels: (0, 1, 2), layout: RGBATaps.self)
        }
    }

    /// The stored rectangle of a YUV view under a `.warp` crop's taps, converted to RGB words (bytes R, G, B, 0;
    /// rows `stride` bytes apart, stored pixel `(x, y)` at byte `(y − self.y) · stride + (x − self.x) · 4`).
    struct YUVPatch {
        let x: Int, y: Int, width: Int, height: Int
        var stride: Int { 4 * width }

        /// The patch under every tap of the crop, or nil when it holds more than four times as many pixels as the crop
        /// has taps (or more bytes than `capacity`), or lies outside the image.
        init?(_ image: ImageView, source: YUVSource, frame: WarpFrame, width w: Int, height h: Int, capacity: Int) {
            // The corner pixels' positions bound the grid's (rounded affine positions, monotonic per axis); one
            // pixel of margin covers rounding differences between the corners and `rowPositions`.
            var low = (Int.max, Int.max), high = (Int.min, Int.min)
            for (i, j) in [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)] {
                let fx = ImageToTensor.roundHalfEven((frame.origin.0 + Double(j) * frame.yStep.x + Double(i) * frame.xStep.x) * 32)
                let fy = ImageToTensor.roundHalfEven((frame.origin.1 + Double(j) * frame.yStep.y + Double(i) * frame.xStep.y) * 32)
                low = (min(low.0, fx >> 5), min(low.1, fy >> 5))
                high = (max(high.0, fx >> 5), max(high.1, fy >> 5))
            }
            let u0 = max(low.0 - 1, 0), v0 = max(low.1 - 1, 0)
            let u1 = min(high.0 + 2, source.extentX - 1), v1 = min(high.1 + 2, source.extentY - 1)
            guard u0 <= u1, v0 <= v1 else { return nil }
            let a = image.orientation.storedPixel(u: u0, v: v0, width: image.width, height: image.height)
            let b = image.orientation.storedPixel(u: u1, v: v1, width: image.width, height: image.height)
            let x0 = min(a.x, b.x) & ~1, y0 = min(a.y, b.y)   // an even first column: chroma pairs start there
            (x, y, width, height) = (x0, y0, max(a.x, b.x) - x0 + 1, max(a.y, b.y) - y0 + 1)
            guard width * height <= 16 * w * h, width * height * 4 <= capacity else { return nil }
        }

        func convert(_ reader: YUVReader, into pixels: UnsafeMutablePointer<UInt32>) {
            for row in 0..<height {
                reader.convertStoredRow(y: y + row, x: x, count: width, into: pixels + row * width)
            }
        }
    }
}
