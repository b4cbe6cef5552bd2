/// The square region of the upright image that is fed to the model, in upright pixels.
struct RegionOfInterest: Hashable, Sendable {
    var centerX: Double
    var centerY: Double
    var side: Double

    /// Maps a point normalized to the model input (0...1) back to upright image pixels.
    @inline(__always)
    func imagePoint(x: Float, y: Float) -> Point {
        Point(x: centerX + (Double(x) - 0.5) * side, y: centerY + (Double(y) - 0.5) * side)
    }
}

/// Fills a model's input tensor straight from the source pixels in one pass: orientation, letterbox or
/// centre crop, bilinear sampling and range conversion, with no intermediate image and no allocation.
///
/// The sampling reproduces MediaPipe's CPU image-to-tensor step (OpenCV's fixed-point bilinear warp):
/// model pixel `i` reads the upright image at `left + i * side / size` (corner-aligned), the position is
/// rounded to 1/32 of a pixel, the four taps are weighted in integers and the result is rounded to an
/// 8-bit value before the range conversion; taps outside the image read 0. This keeps our scores and
/// boxes equal to MediaPipe's to float precision rather than merely close.
enum Preprocessor {
    /// The square region used for an upright image of `width` x `height`.
    static func region(width: Int, height: Int, mode: FaceDetector.Preprocessing) -> RegionOfInterest {
        let w = Double(width), h = Double(height)
        let side = mode == .letterbox ? max(w, h) : min(w, h)
        return RegionOfInterest(centerX: w / 2, centerY: h / 2, side: side)
    }

    /// A sampling position: the first tap and its weight of the next tap, in 1/32 pixel.
    @inline(__always)
    static func fixedPoint(_ position: Double) -> (index: Int, fraction: Int) {
        let scaled = Int((position * 32 + 0.5).rounded(.down))
        return (scaled >> 5, scaled & 31)
    }

    /// Byte offset of upright pixel (0, 0) in the stored image and the byte steps for one upright
    /// pixel right (`du`) and down (`dv`): every orientation is an affine map of pixel indices.
    static func addressing(_ image: ImageView) -> (origin: Int, du: Int, dv: Int) {
        let p = image.pixelFormat.bytesPerPixel, r = image.bytesPerRow
        let lastX = (image.width - 1) * p, lastY = (image.height - 1) * r
        switch image.orientation {
        case .up: return (0, p, r)
        case .upMirrored: return (lastX, -p, r)
        case .down: return (lastX + lastY, -p, -r)
        case .downMirrored: return (lastY, p, -r)
        case .leftMirrored: return (0, r, p)
        case .right: return (lastY, -r, p)
        case .rightMirrored: return (lastX + lastY, -r, -p)
        case .left: return (lastX, r, -p)
        }
    }

    /// Writes `size x size x 3` floats (RGB, row-major) into `output`.
    ///
    /// `columns` and `rows` are scratch buffers of at least `2 * size` values, reused between calls.
    static func fill(_ output: UnsafeMutablePointer<Float>, size: Int, image: ImageView,
                     region: RegionOfInterest, range: ClosedRange<Float>,
                     columns: UnsafeMutablePointer<Int>, rows: UnsafeMutablePointer<Int>) {
        let uprightW = image.uprightWidth, uprightH = image.uprightHeight
        let base = image.baseAddress.assumingMemoryBound(to: UInt8.self)
        let (ro, go, bo) = image.pixelFormat.channelOffsets
        let (origin, du, dv) = addressing(image)
        let scale = (range.upperBound - range.lowerBound) / 255
        let offset = range.lowerBound
        let step = region.side / Double(size)
        let left = region.centerX - region.side / 2
        let top = region.centerY - region.side / 2
        // Per column and per row: the first tap and the 1/32-pixel weight of the second.
        for i in 0..<size {
            let (u0, ax) = fixedPoint(left + Double(i) * step)
            columns[2 * i] = u0
            columns[2 * i + 1] = ax
        }
        for j in 0..<size {
            let (v0, ay) = fixedPoint(top + Double(j) * step)
            rows[2 * j] = v0
            rows[2 * j + 1] = ay
        }

        @inline(__always)
        func tap(_ u: Int, _ v: Int) -> SIMD3<Int32> {
            guard u >= 0, u < uprightW, v >= 0, v < uprightH else { return .zero }
            let p = base + (origin + u * du + v * dv)
            return SIMD3(Int32(p[ro]), Int32(p[go]), Int32(p[bo]))
        }

        var out = output
        for j in 0..<size {
            let v0 = rows[2 * j], ay = Int32(rows[2 * j + 1])
            let wy1 = ay, wy0 = 32 - ay
            for i in 0..<size {
                let u0 = columns[2 * i], ax = Int32(columns[2 * i + 1])
                let wx1 = ax, wx0 = 32 - ax
                var sum = tap(u0, v0) &* (wx0 * wy0)
                sum &+= tap(u0 + 1, v0) &* (wx1 * wy0)
                sum &+= tap(u0, v0 + 1) &* (wx0 * wy1)
                sum &+= tap(u0 + 1, v0 + 1) &* (wx1 * wy1)
                let value = (sum &+ 512) &>> 10
                out[0] = Float(value.x) * scale + offset
                out[1] = Float(value.y) * scale + offset
                out[2] = Float(value.z) * scale + offset
                out += 3
            }
        }
    }
}
