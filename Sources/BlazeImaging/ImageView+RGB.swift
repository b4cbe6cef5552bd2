extension ImageView {
    /// The upright image (orientation applied) as tightly packed RGB, for drawing on or for another library.
    /// Gray is replicated into the three channels, alpha dropped, and YUV converted with `colorSpace`, each pixel
    /// with the chroma sample of its 2x2 block (`YUVColorSpace.FixedPoint`), as decoders' unscaled converters do.
    public func uprightRGB() -> ImageBuffer {
        let uw = uprightWidth, uh = uprightHeight
        var out = [UInt8](repeating: 0, count: uw * uh * 3)
        out.withUnsafeMutableBufferPointer { dst in
            let target = dst.baseAddress!
            if let chroma { convertYUV(chroma, into: target) } else { copyPacked(into: target) }
        }
        return ImageBuffer(width: uw, height: uh, pixelFormat: .rgb8, pixels: out)
    }

    private func copyPacked(into dst: UnsafeMutablePointer<UInt8>) {
        let (origin, du, dv) = uprightStrides
        let (r, g, b) = pixelFormat.channelOffsets
        let start = baseAddress.assumingMemoryBound(to: UInt8.self) + origin
        var q = dst
        for v in 0..<uprightHeight {
            var p = start + v * dv
            for _ in 0..<uprightWidth {
                q[0] = p[r]; q[1] = p[g]; q[2] = p[b]
                p += du
                q += 3
            }
        }
    }

    /// Four upright pixels at a time through the vector conversion; the row's last ones repeat its last pixel.
    private func convertYUV(_ chroma: ChromaPlanes, into dst: UnsafeMutablePointer<UInt8>) {
        let luma = baseAddress.assumingMemoryBound(to: UInt8.self)
        let cb = chroma.cb.assumingMemoryBound(to: UInt8.self), cr = chroma.cr.assumingMemoryBound(to: UInt8.self)
        let conversion = colorSpace.fixedPoint, uw = uprightWidth
        var q = dst
        for v in 0..<uprightHeight {
            var u = 0
            while u < uw {
                var y = SIMD4<Int32>(), b = SIMD4<Int32>(), r = SIMD4<Int32>()
                for k in 0..<4 {
                    let (sx, sy) = orientation.storedPixel(u: min(u + k, uw - 1), v: v, width: width, height: height)
                    y[k] = Int32(luma[sy * bytesPerRow + sx])
                    let cx = (sx >> 1) * chroma.pixelStride, cy = sy >> 1
                    b[k] = Int32(cb[cy * chroma.cbBytesPerRow + cx])
                    r[k] = Int32(cr[cy * chroma.crBytesPerRow + cx])
                }
                let rgb = conversion.convert(y, b, r)
                for k in 0..<min(4, uw - u) {
                    q[0] = UInt8(truncatingIfNeeded: rgb.r[k])
                    q[1] = UInt8(truncatingIfNeeded: rgb.g[k])
                    q[2] = UInt8(truncatingIfNeeded: rgb.b[k])
                    q += 3
                }
                u += 4
            }
        }
    }
}
