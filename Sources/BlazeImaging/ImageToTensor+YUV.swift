/// `ImageToTensor` on YUV 4:2:0 views, sampled directly from the planes: no full-frame conversion to RGB.
///
/// Each tap of the bilinear sampling is converted on its own, the luma sample with the chroma sample of its 2x2
/// block (`YUVColorSpace.FixedPoint`: rounded and clamped to 8 bits), then the four taps are weighted as for an
/// RGB image. So the tensor is, bit for bit, the one the same converter makes of the frame converted to RGB
/// first with `ImageBuffer.uprightRGB()` (nearest chroma, as libswscale's and libyuv's unscaled converters do),
/// for every sampling, fit, border and orientation: the same positions (`fixedPoint`, `rowPositions`), the same
/// taps (`taps`), the same weights and rounding as the RGB loops' reference.
extension ImageToTensor {
    /// Reads the RGB of the taps around an upright position of a YUV view.
    struct YUVSource {
        let luma: UnsafePointer<UInt8>
        let lumaStride: Int
        let cb: UnsafePointer<UInt8>, cr: UnsafePointer<UInt8>
        let cbStride: Int, crStride: Int, step: Int
        /// Upright pixel (u, v) is stored pixel (x0 + xu·u + xv·v, y0 + yu·u + yv·v).
        let x0: Int, xu: Int, xv: Int, y0: Int, yu: Int, yv: Int
        let extentX: Int, extentY: Int
        let replicate: Bool
        let conversion: YUVColorSpace.FixedPoint

        init(_ image: ImageView, chroma: ChromaPlanes, replicate: Bool) {
            luma = image.baseAddress.assumingMemoryBound(to: UInt8.self)
            lumaStride = image.bytesPerRow
            cb = chroma.cb.assumingMemoryBound(to: UInt8.self)
            cr = chroma.cr.assumingMemoryBound(to: UInt8.self)
            (cbStride, crStride, step) = (chroma.cbBytesPerRow, chroma.crBytesPerRow, chroma.pixelStride)
            let o = image.orientation, (w, h) = (image.width, image.height)
            let origin = o.storedPixel(u: 0, v: 0, width: w, height: h)
            let right = o.storedPixel(u: 1, v: 0, width: w, height: h), down = o.storedPixel(u: 0, v: 1, width: w, height: h)
            (x0, y0) = origin
            (xu, yu) = (right.x - origin.x, right.y - origin.y)
            (xv, yv) = (down.x - origin.x, down.y - origin.y)
            (extentX, extentY) = (image.uprightWidth, image.uprightHeight)
            self.replicate = replicate
            conversion = image.colorSpace.fixedPoint
        }

        /// The tensor pixel at fixed-point upright position `(fx, fy)` (1/32 pixel), as 8-bit R, G, B in lanes
        /// 0...2: the reference's taps and weights (`taps`), each tap converted, then `(sum + 512) >> 10`.
        @inline(__always)
        func pixel(_ fx: Int, _ fy: Int) -> SIMD4<Int32> {
            let (u0, u1, wx0, wx1) = ImageToTensor.taps(fx, extent: extentX, stride: 1, replicate: replicate)
            let (v0, v1, wy0, wy1) = ImageToTensor.taps(fy, extent: extentY, stride: 1, replicate: replicate)
            let us = SIMD4(u0, u1, u0, u1), vs = SIMD4(v0, v0, v1, v1)
            let xs = x0 &+ us &* xu &+ vs &* xv, ys = y0 &+ us &* yu &+ vs &* yv
            var y = SIMD4<Int32>(), u = SIMD4<Int32>(), v = SIMD4<Int32>()
            for k in 0..<4 {
                let x = xs[k], row = ys[k]
                y[k] = Int32(luma[row &* lumaStride &+ x])
                let cx = (x &>> 1) &* step, cy = row &>> 1
                u[k] = Int32(cb[cy &* cbStride &+ cx])
                v[k] = Int32(cr[cy &* crStride &+ cx])
            }
            let (r, g, b) = conversion.convert(y, u, v)
            let w = SIMD4<Int32>(Int32(truncatingIfNeeded: wx0 &* wy0), Int32(truncatingIfNeeded: wx1 &* wy0),
                                 Int32(truncatingIfNeeded: wx0 &* wy1), Int32(truncatingIfNeeded: wx1 &* wy1))
            return (SIMD4((r &* w).wrappedSum(), (g &* w).wrappedSum(), (b &* w).wrappedSum(), 0) &+ 512) &>> 10
        }
    }

    /// Writes one tensor pixel's three floats.
    @inline(__always)
    static func store(_ out: UnsafeMutablePointer<Float>, _ value: SIMD4<Int32>, scale: Float, offset: Float) {
        let f = SIMD4<Float>(value) * scale + offset
        out[0] = f[0]
        out[1] = f[1]
        out[2] = f[2]
    }

    /// `.detector` sampling (`fillSeparable`'s positions) of a YUV view. A tensor row whose taps both weigh 0 (a
    /// letterbox band with `.zero` border) is the range's value for 0 throughout.
    func fillYUVSeparable(_ output: UnsafeMutablePointer<Float>, image: ImageView, chroma: ChromaPlanes,
                          origin: (Double, Double), step: (Double, Double), roundHalfEven: Bool) {
        let source = YUVSource(image, chroma: chroma, replicate: options.border == .replicate)
        let (scale, offset) = valueTransform
        let (w, h) = (options.width, options.height)
        let xs = warpScratch.positions
        for i in 0..<w { xs[i] = Int64(Self.fixedPoint(origin.0 + Double(i) * step.0, roundHalfEven: roundHalfEven)) }
        var out = output
        for j in 0..<h {
            let fy = Self.fixedPoint(origin.1 + Double(j) * step.1, roundHalfEven: roundHalfEven)
            let (_, _, wy0, wy1) = Self.taps(fy, extent: source.extentY, stride: 1, replicate: source.replicate)
            if wy0 == 0 && wy1 == 0 {
                out.update(repeating: offset, count: 3 * w)
                out += 3 * w
                continue
            }
            for i in 0..<w {
                Self.store(out, source.pixel(Int(truncatingIfNeeded: xs[i]), fy), scale: scale, offset: offset)
                out += 3
            }
        }
    }

    /// `.warp` sampling (the per-pixel reference's positions, `rowPositions`) of a YUV view, turned or not.
    func fillYUVWarped(_ output: UnsafeMutablePointer<Float>, image: ImageView, chroma: ChromaPlanes, frame: WarpFrame) {
        let source = YUVSource(image, chroma: chroma, replicate: options.border == .replicate)
        let (scale, offset) = valueTransform
        let (w, h) = (options.width, options.height)
        let xs = warpScratch.positions, ys = warpScratch.positions + w
        var out = output
        for j in 0..<h {
            Self.rowPositions(xs, ys, width: w, row: (frame.origin.0 + Double(j) * frame.yStep.x,
                                                      frame.origin.1 + Double(j) * frame.yStep.y), step: frame.xStep)
            for i in 0..<w {
                Self.store(out, source.pixel(Int(truncatingIfNeeded: xs[i]), Int(truncatingIfNeeded: ys[i])),
                           scale: scale, offset: offset)
                out += 3
            }
        }
    }
}
