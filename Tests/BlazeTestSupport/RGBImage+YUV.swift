import BlazeImaging

/// YUV 4:2:0 versions of test pictures, made with the standards' forward matrices in real numbers (independently
/// of `YUVColorSpace`'s fixed point), and the real-number inverse a decoder computes.
extension RGBImage {
    /// `Kr`, `Kb` of the matrix (ITU-R BT.601 and BT.709).
    static func weights(_ matrix: YUVColorSpace.Matrix) -> (kr: Double, kb: Double) {
        matrix == .bt601 ? (0.299, 0.114) : (0.2126, 0.0722)
    }

    /// The picture in `format` (nv12, nv21 or i420), laid out as `ImageView.init(pixels:...)` reads it with rows
    /// `bytesPerRow` apart (`width` when nil); the bytes between rows are noise. Luma is the matrix's weighted
    /// sum of each pixel, chroma the mean of the colour differences of its 2x2 block (as encoders subsample),
    /// each scaled to the range, rounded and clamped.
    public func yuv420(_ format: PixelFormat, colorSpace: YUVColorSpace = .default, bytesPerRow: Int? = nil,
                       seed: UInt64 = 3) -> [UInt8] {
        precondition(format.isYUV)
        let stride = bytesPerRow ?? width
        let total = try! ImageView.byteCount(width: width, height: height, bytesPerRow: stride, pixelFormat: format)
        var random = SplitMix64(seed: seed)
        var bytes = (0..<total).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let (kr, kb) = Self.weights(colorSpace.matrix), kg = 1 - kr - kb
        let limited = colorSpace.range == .limited
        func byte(_ v: Double) -> UInt8 { UInt8(min(max(v.rounded(), 0), 255)) }
        func components(_ x: Int, _ y: Int) -> (luma: Double, cb: Double, cr: Double) {
            let p = offset(x, y)
            let r = Double(pixels[p]), g = Double(pixels[p + 1]), b = Double(pixels[p + 2])
            let luma = kr * r + kg * g + kb * b
            return (luma, (b - luma) / (2 * (1 - kb)), (r - luma) / (2 * (1 - kr)))
        }
        for y in 0..<height {
            for x in 0..<width {
                let luma = components(x, y).luma
                bytes[y * stride + x] = byte(limited ? 16 + luma * 219 / 255 : luma)
            }
        }
        let cw = (width + 1) / 2, ch = (height + 1) / 2, start = stride * height
        let chromaStride = format == .i420 ? (stride + 1) / 2 : stride + stride % 2
        for j in 0..<ch {
            for i in 0..<cw {
                var cb = 0.0, cr = 0.0, count = 0.0
                for y in 2 * j..<min(2 * j + 2, height) {
                    for x in 2 * i..<min(2 * i + 2, width) {
                        let c = components(x, y)
                        cb += c.cb
                        cr += c.cr
                        count += 1
                    }
                }
                let scale = limited ? 224.0 / 255 : 1
                let u = byte(128 + cb / count * scale), v = byte(128 + cr / count * scale)
                switch format {
                case .i420:
                    bytes[start + j * chromaStride + i] = u
                    bytes[start + chromaStride * ch + j * chromaStride + i] = v
                case .nv21:
                    bytes[start + j * chromaStride + 2 * i] = v
                    bytes[start + j * chromaStride + 2 * i + 1] = u
                default:
                    bytes[start + j * chromaStride + 2 * i] = u
                    bytes[start + j * chromaStride + 2 * i + 1] = v
                }
            }
        }
        return bytes
    }

    /// A decoder's conversion of one sample triple in real numbers, rounded to nearest and clamped: the
    /// independent reference of `YUVColorSpace`'s fixed point.
    public static func decoded(y: UInt8, cb: UInt8, cr: UInt8, colorSpace: YUVColorSpace) -> (UInt8, UInt8, UInt8) {
        let (kr, kb) = weights(colorSpace.matrix), kg = 1 - kr - kb
        let limited = colorSpace.range == .limited
        let luma = limited ? (Double(y) - 16) * 255 / 219 : Double(y)
        let scale = limited ? 255.0 / 224 : 1
        let u = (Double(cb) - 128) * scale, v = (Double(cr) - 128) * scale
        let r = luma + 2 * (1 - kr) * v, b = luma + 2 * (1 - kb) * u, g = (luma - kr * r - kb * b) / kg
        func byte(_ x: Double) -> UInt8 { UInt8(min(max(x.rounded(), 0), 255)) }
        return (byte(r), byte(g), byte(b))
    }
}

extension RGBImage {
    /// Calls `body` with a YUV view of the picture (`yuv420(_:colorSpace:bytesPerRow:)`), stored as it is and
    /// shown with `orientation`.
    public func withYUVView<R>(_ format: PixelFormat, colorSpace: YUVColorSpace = .default, padding: Int = 0,
                               orientation: ImageOrientation = .up, _ body: (ImageView) throws -> R) throws -> R {
        let bytes = yuv420(format, colorSpace: colorSpace, bytesPerRow: width + padding)
        return try ImageView.withPixels(bytes, width: width, height: height, bytesPerRow: width + padding,
                                        pixelFormat: format, orientation: orientation, colorSpace: colorSpace, body)
    }
}
