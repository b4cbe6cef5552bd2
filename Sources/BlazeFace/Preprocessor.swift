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

    /// Values stored per model column (and per model row) by `fill`.
    static let tableStride = 4

    /// Writes `size x size x 3` floats (RGB, row-major) into `output`.
    ///
    /// `columns` and `rows` are scratch buffers of at least `tableStride * size` values, reused between
    /// calls. Per column (and per row) they hold the byte offsets of the two taps and their weights in
    /// 1/32 pixel; a tap outside the image gets weight 0 and an offset clamped into the image, so the
    /// inner loop has no branch and reads only inside the image.
    static func fill(_ output: UnsafeMutablePointer<Float>, size: Int, image: ImageView,
                     region: RegionOfInterest, range: ClosedRange<Float>,
                     columns: UnsafeMutablePointer<Int>, rows: UnsafeMutablePointer<Int>) {
        let base = image.baseAddress.assumingMemoryBound(to: UInt8.self)
        let (ro, go, bo) = image.pixelFormat.channelOffsets
        let (origin, du, dv) = addressing(image)
        let scale = (range.upperBound - range.lowerBound) / 255
        let offset = range.lowerBound
        let step = region.side / Double(size)

        /// Fills one table: for each model index, the offsets and weights of the two taps along an axis.
        func table(_ t: UnsafeMutablePointer<Int>, start: Double, extent: Int, stride: Int) {
            for i in 0..<size {
                let (first, fraction) = fixedPoint(start + Double(i) * step)
                let second = first + 1
                t[4 * i] = min(max(first, 0), extent - 1) * stride
                t[4 * i + 1] = min(max(second, 0), extent - 1) * stride
                t[4 * i + 2] = (0..<extent).contains(first) ? 32 - fraction : 0
                t[4 * i + 3] = (0..<extent).contains(second) ? fraction : 0
            }
        }
        table(columns, start: region.centerX - region.side / 2, extent: image.uprightWidth, stride: du)
        table(rows, start: region.centerY - region.side / 2, extent: image.uprightHeight, stride: dv)

        let start = base + origin
        switch (ro, go, bo) {
        case (0, 1, 2): sample(output, size: size, start: start, columns: columns, rows: rows, scale: scale,
                               offset: offset, channels: (0, 1, 2))
        case (2, 1, 0): sample(output, size: size, start: start, columns: columns, rows: rows, scale: scale,
                               offset: offset, channels: (2, 1, 0))
        default: sample(output, size: size, start: start, columns: columns, rows: rows, scale: scale,
                        offset: offset, channels: (ro, go, bo))
        }
    }

    /// The sampling loop of `fill`, inlined per pixel layout so that the channel offsets are constants.
    /// A model row whose two taps are both outside the image (the letterbox bands) is the range's value
    /// for 0 throughout, written without sampling.
    @inline(__always)
    static func sample(_ output: UnsafeMutablePointer<Float>, size: Int, start: UnsafePointer<UInt8>,
                       columns: UnsafeMutablePointer<Int>, rows: UnsafeMutablePointer<Int>, scale: Float,
                       offset: Float, channels c: (Int, Int, Int)) {
        var out = output
        for j in 0..<size {
            let row = rows + 4 * j
            let wy0 = Int32(truncatingIfNeeded: row[2]), wy1 = Int32(truncatingIfNeeded: row[3])
            if wy0 == 0 && wy1 == 0 {
                out.update(repeating: offset, count: 3 * size)
                out += 3 * size
                continue
            }
            let top = start + row[0], bottom = start + row[1]
            for i in 0..<size {
                let column = columns + 4 * i
                let wx0 = Int32(truncatingIfNeeded: column[2]), wx1 = Int32(truncatingIfNeeded: column[3])
                let w00 = wx0 &* wy0, w01 = wx1 &* wy0, w10 = wx0 &* wy1, w11 = wx1 &* wy1
                let a = top + column[0], b = top + column[1], d = bottom + column[0], e = bottom + column[1]
                @inline(__always)
                func channel(_ k: Int) -> Float {
                    let sum = Int32(a[k]) &* w00 &+ Int32(b[k]) &* w01 &+ Int32(d[k]) &* w10 &+ Int32(e[k]) &* w11
                    return Float((sum &+ 512) &>> 10) * scale + offset
                }
                out[0] = channel(c.0)
                out[1] = channel(c.1)
                out[2] = channel(c.2)
                out += 3
            }
        }
    }
}
