extension ImageView {
    /// The upright image (orientation applied) as tightly packed RGB, for drawing on or for another library.
    /// Gray is replicated into the three channels, alpha dropped, and YUV converted with `colorSpace`, each pixel
    /// with the chroma sample of its 2x2 block (`YUVConversion`), as decoders' unscaled converters do.
    /// - Returns: an rgb8 image of `uprightWidth` x `uprightHeight` pixels, orientation `.up`.
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

    /// Through `YUVReader`: when upright, stored rows converted to RGB words in a row scratch, then packed (each
    /// word stored as 4 bytes 3 apart, the next overwriting its fourth; the row's last as 3 bytes); turned, eight
    /// upright pixels at a time, a row's last pixels repeating its last one.
    private func convertYUV(_ chroma: ChromaPlanes, into dst: UnsafeMutablePointer<UInt8>) {
        let reader = YUVReader(self, chroma: chroma), uw = uprightWidth
        if orientation == .up, width > 0 {   // stored rows are upright rows: contiguous reads
            let words = UnsafeMutablePointer<UInt32>.allocate(capacity: width)
            defer { words.deallocate() }
            for v in 0..<height {
                reader.convertStoredRow(y: v, x: 0, count: width, into: words)
                let q = UnsafeMutableRawPointer(dst + v * width * 3)
                for k in 0..<(width - 1) { q.storeBytes(of: words[k], toByteOffset: 3 &* k, as: UInt32.self) }
                let last = words[width - 1], o = 3 * (width - 1)
                q.storeBytes(of: UInt16(truncatingIfNeeded: last), toByteOffset: o, as: UInt16.self)
                q.storeBytes(of: UInt8(truncatingIfNeeded: last >> 16), toByteOffset: o + 2, as: UInt8.self)
            }
            return
        }
        let lanes = SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7), last = Int32(uw - 1)
        var q = dst
        for v in 0..<uprightHeight {
            let row = SIMD8<Int32>(repeating: Int32(v))
            var u = 0
            while u < uw {
                var columns = Int32(u) &+ lanes
                let beyond = last &- columns
                columns &+= beyond & (beyond &>> 31)   // min(columns, last) without a lane comparison
                let (x, y) = reader.stored(u: columns, v: row)
                let (r, g, b) = reader.rgb(x: x, y: y)
                for k in 0..<min(8, uw - u) {
                    q[0] = UInt8(truncatingIfNeeded: r[k])
                    q[1] = UInt8(truncatingIfNeeded: g[k])
                    q[2] = UInt8(truncatingIfNeeded: b[k])
                    q += 3
                }
                u += 8
            }
        }
    }
}
