import Foundation

/// What goes behind the person.
public enum Background {
    /// One colour (a passport photo's white: `.color(red: 255, green: 255, blue: 255)`, `passportWhite`).
    case color(red: UInt8, green: UInt8, blue: UInt8)
    /// The image itself, blurred (`BoxBlur`: a box of `2 · radius + 1` pixels applied twice); radius 0 leaves
    /// it sharp. A negative radius is refused.
    case blur(radius: Int)
    /// Another picture of the image's upright size (any pixel format and orientation); it is not scaled.
    case image(ImageView)

    /// White.
    public static var passportWhite: Background { .color(red: 255, green: 255, blue: 255) }
}

/// Puts a new background behind the people of an image, with the soft edges of a segmentation mask:
/// per pixel and channel `background + m · (image − background)`, rounded half up to 8 bits, with `m` the mask
/// value clamped to 0...1 (NaN counts as 0). A mask of 1 gives the image's pixel, 0 the background's, and the
/// values between blend linearly.
///
/// ```swift
/// let replacer = BackgroundReplacer()
/// let mask = try segmenter.segment(image)                               // the image's size
/// let photo = try replacer.replaceBackground(of: image, mask: mask, with: .passportWhite)
/// ```
///
/// The output is the upright image (orientation applied) in an 8-bit RGB-family format. The `into:` calls
/// write into the caller's memory and, once the blur's scratch exists for the image's size, allocate nothing.
/// Thread safety: a replacer may be shared between threads; its calls are serialized by a lock (they share
/// the blur's scratch).
public final class BackgroundReplacer: @unchecked Sendable {
    private var blurred: [Float] = []
    private var scratch: [Float] = []
    private let lock = NSLock()

    /// A replacer; the blur's scratch is made on first use.
    public init() {}

    /// The upright image with `background` behind the person, as tightly packed rgb8.
    /// - Parameters:
    ///   - image: the image, read upright (its orientation applied); any pixel format but YUV; borrowed for the
    ///     call only.
    ///   - mask: the person mask at the upright image's size (`PersonSegmenter.Resolution.image`), values 0...1.
    ///   - background: what goes behind the person.
    /// - Returns: a new rgb8 image of the upright size, orientation `.up`.
    /// - Throws: as `replaceBackground(of:mask:with:into:bytesPerRow:pixelFormat:)`.
    public func replaceBackground(of image: ImageView, mask: SegmentationMask,
                                  with background: Background) throws(BackgroundReplacementError) -> ImageBuffer {
        var buffer = ImageBuffer(width: 0, height: 0)
        try replaceBackground(of: image, mask: mask, with: background, into: &buffer)
        return buffer
    }

    /// Writes the result into `buffer`, resized to the upright image (same size: no allocation when its pixels
    /// are not shared), in its pixel format (gray8 and YUV become rgb8), orientation `.up`.
    /// - Parameters:
    ///   - image: the image, read upright (its orientation applied); any pixel format but YUV; borrowed for the
    ///     call only.
    ///   - mask: the person mask at the upright image's size (`PersonSegmenter.Resolution.image`), values 0...1.
    ///   - background: what goes behind the person.
    ///   - buffer: receives the result; its pixel format is kept when it is an RGB-family one.
    /// - Throws: as `replaceBackground(of:mask:with:into:bytesPerRow:pixelFormat:)`; `buffer` is unchanged then.
    public func replaceBackground(of image: ImageView, mask: SegmentationMask, with background: Background,
                                  into buffer: inout ImageBuffer) throws(BackgroundReplacementError) {
        try Self.check(image, mask: mask, background: background)
        let format: PixelFormat = buffer.pixelFormat == .gray8 || buffer.pixelFormat.isYUV ? .rgb8 : buffer.pixelFormat
        let count = image.uprightWidth * image.uprightHeight * format.bytesPerPixel
        buffer.width = image.uprightWidth
        buffer.height = image.uprightHeight
        buffer.pixelFormat = format
        buffer.orientation = .up
        if buffer.pixels.count != count { buffer.pixels = [UInt8](repeating: 0, count: count) }
        var failure: BackgroundReplacementError?
        buffer.pixels.withUnsafeMutableBytes { bytes in
            do throws(BackgroundReplacementError) {
                try replaceBackground(of: image, mask: mask, with: background, into: bytes, pixelFormat: format)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// The checks that do not depend on the output.
    static func check(_ image: ImageView, mask: SegmentationMask, background: Background) throws(BackgroundReplacementError) {
        let width = image.uprightWidth, height = image.uprightHeight
        guard mask.isConsistent else {
            throw .invalidMask(width: mask.width, height: mask.height, values: mask.values.count)
        }
        guard mask.width == width, mask.height == height else {
            throw .maskSizeMismatch(maskWidth: mask.width, maskHeight: mask.height, imageWidth: width, imageHeight: height)
        }
        if case let .image(picture) = background, picture.uprightWidth != width || picture.uprightHeight != height {
            throw .backgroundSizeMismatch(backgroundWidth: picture.uprightWidth, backgroundHeight: picture.uprightHeight,
                                          imageWidth: width, imageHeight: height)
        }
        if case let .blur(radius) = background, radius < 0 { throw .invalidBlurRadius(radius) }
        // The compositing reads packed pixels: a YUV frame is converted first (`ImageView.uprightRGB()`).
        if image.pixelFormat.isYUV { throw .unsupportedPixelFormat(image.pixelFormat) }
        if case let .image(picture) = background, picture.pixelFormat.isYUV {
            throw .unsupportedPixelFormat(picture.pixelFormat)
        }
    }

    /// Writes the upright image with `background` behind the person into `output`: `uprightHeight` rows of
    /// `bytesPerRow` bytes (default: tightly packed), each pixel in `pixelFormat` (rgb8, rgba8, bgra8 or argb8;
    /// alpha 255).
    /// - Parameters:
    ///   - image: the image, read upright (its orientation applied); any pixel format but YUV; borrowed for the
    ///     call only.
    ///   - mask: the person mask at the upright image's size (`PersonSegmenter.Resolution.image`), values 0...1.
    ///   - background: what goes behind the person.
    ///   - output: the caller's memory, written while the call runs and not kept.
    ///   - bytesPerRow: the output's row stride in bytes; nil for tightly packed rows.
    ///   - pixelFormat: the output's pixel format: rgb8, rgba8, bgra8 or argb8.
    /// - Throws: `BackgroundReplacementError.maskSizeMismatch` (the mask is not at the upright image's size),
    ///   `.invalidMask`, `.backgroundSizeMismatch`, `.invalidBlurRadius`, `.unsupportedPixelFormat` (a YUV image or
    ///   background picture: convert it with `uprightRGB()`), `.invalidOutput` (rows too short, gray8, YUV),
    ///   `.outputTooSmall`. Nothing is written then.
    public func replaceBackground(of image: ImageView, mask: SegmentationMask, with background: Background,
                                  into output: UnsafeMutableRawBufferPointer, bytesPerRow: Int? = nil,
                                  pixelFormat: PixelFormat = .rgb8) throws(BackgroundReplacementError) {
        let width = image.uprightWidth, height = image.uprightHeight
        try Self.check(image, mask: mask, background: background)
        guard pixelFormat != .gray8, !pixelFormat.isYUV else {
            throw .invalidOutput("\(pixelFormat) is not an output format here; use rgb8, rgba8, bgra8 or argb8")
        }
        let rowBytes = bytesPerRow ?? width * pixelFormat.bytesPerPixel
        let needed: Int
        do {
            needed = try ImageView.byteCount(width: width, height: height, bytesPerRow: rowBytes, pixelFormat: pixelFormat)
        } catch {
            throw .invalidOutput(error.description)
        }
        guard let out = output.baseAddress, output.count >= needed else {
            throw .outputTooSmall(bytes: output.count, needed: needed)
        }
        lock.lock()
        defer { lock.unlock() }
        let target = Target(base: out.assumingMemoryBound(to: UInt8.self), bytesPerRow: rowBytes, format: pixelFormat)
        let foreground = UprightPixels(image)
        mask.values.withUnsafeBufferPointer { mask in
            let m = mask.baseAddress!
            switch background {
            case let .color(red, green, blue):
                Self.composite(foreground, mask: m, target: target, width: width, height: height,
                               back: ColorPixels(rgb: (Float(red), Float(green), Float(blue))))
            case let .image(picture):
                Self.composite(foreground, mask: m, target: target, width: width, height: height,
                               back: UprightPixels(picture))
            case let .blur(radius):
                let n = width * height * 3
                if blurred.count != n {
                    blurred = [Float](repeating: 0, count: n)
                    scratch = [Float](repeating: 0, count: n)
                }
                blurred.withUnsafeMutableBufferPointer { pixels in
                    scratch.withUnsafeMutableBufferPointer { scratch in
                        let p = pixels.baseAddress!
                        for v in 0..<height {
                            for u in 0..<width {
                                let (r, g, b) = foreground.rgb(u, v)
                                let i = (v * width + u) * 3
                                p[i] = r; p[i + 1] = g; p[i + 2] = b
                            }
                        }
                        BoxBlur.blur(p, scratch: scratch.baseAddress!, width: width, height: height, radius: radius)
                        Self.composite(foreground, mask: m, target: target, width: width, height: height,
                                       back: FloatPixels(base: p, width: width))
                    }
                }
            }
        }
    }

    /// One pixel channel: `back + m · (front − back)` rounded half up (both in 0...255, so is the result).
    /// The scalar reference of `blend8`, and the loop's last pixels of a row.
    @inline(__always)
    static func blend(_ front: Float, _ back: Float, _ m: Float) -> UInt8 {
        UInt8(back + m * (front - back) + 0.5)
    }

    /// `blend` of 8 pixels' channel, the same IEEE operations in the same order, so the same bytes: the sum is
    /// truncated by rounding it to an integer (adding and removing 2^23, exact below 2^22) and stepping back
    /// where that rounded up. The lanes hold the bytes as integers (0...255).
    @inline(__always)
    static func blend8(_ front: SIMD8<Float>, _ back: SIMD8<Float>, _ m: SIMD8<Float>) -> SIMD8<Int32> {
        let sum = back + m * (front - back) + 0.5
        let magic = SIMD8<Float>(repeating: 8_388_608)
        let nearest = (sum + magic) - magic
        let floor = nearest.replacing(with: nearest - 1, where: nearest .> sum)
        return unsafeBitCast(floor + magic, to: SIMD8<Int32>.self) & 0xFF
    }

    /// Mask values `p[0..<8]` clamped to 0...1 as the scalar loop clamps them (`raw > 0 ? min(raw, 1) : 0`: NaN
    /// and negatives give 0).
    @inline(__always)
    static func clampedMask8(_ p: UnsafePointer<Float>) -> SIMD8<Float> {
        let raw = UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
        let positive = raw.replacing(with: 0, where: .!(raw .> 0))
        return positive.replacing(with: 1, where: positive .> 1)
    }

    /// The loop shared by the backgrounds, specialized per background and per output layout.
    static func composite<Back: BackgroundPixels>(_ front: UprightPixels, mask: UnsafePointer<Float>, target: Target,
                                                  width: Int, height: Int, back: Back) {
        switch target.format {
        case .rgb8: composite(front, mask, target, width, height, back, offsets: (0, 1, 2), alpha: -1, bytesPerPixel: 3)
        case .rgba8: composite(front, mask, target, width, height, back, offsets: (0, 1, 2), alpha: 3, bytesPerPixel: 4)
        case .bgra8: composite(front, mask, target, width, height, back, offsets: (2, 1, 0), alpha: 3, bytesPerPixel: 4)
        case .argb8: composite(front, mask, target, width, height, back, offsets: (1, 2, 3), alpha: 0, bytesPerPixel: 4)
        case .gray8, .nv12, .nv21, .i420: break  // refused before
        }
    }

    @inline(__always)
    static func composite<Back: BackgroundPixels>(_ front: UprightPixels, _ mask: UnsafePointer<Float>, _ target: Target,
                                                  _ width: Int, _ height: Int, _ back: Back, offsets: (Int, Int, Int),
                                                  alpha: Int, bytesPerPixel: Int) {
        // The alpha byte of a 4-byte pixel as a little-endian word (0 without alpha).
        let opaque = alpha >= 0 ? Int32(bitPattern: UInt32(0xFF) << UInt32(8 * alpha)) : 0
        for v in 0..<height {
            let row = target.base + v * target.bytesPerRow, maskRow = mask + v * width
            // Blocks of 8 pixels: the arithmetic on vectors of one channel, the bytes gathered per lane and stored per
            // lane (3 bytes a pixel) or as one vector of 8 words (4 bytes a pixel).
            var start = 0
            while start + 8 <= width {
                let m = clampedMask8(maskRow + start)
                let (fr, fg, fb) = front.rgb8(start, v)
                let (br, bg, bb) = back.rgb8(start, v)
                let red = blend8(fr, br, m), green = blend8(fg, bg, m), blue = blend8(fb, bb, m)
                var pixel = row + start * bytesPerPixel
                #if _endian(little)
                if bytesPerPixel == 4 {
                    // Four bytes a pixel: each lane's bytes shifted to their offsets, 8 pixels in one store.
                    let word = red &<< Int32(8 * offsets.0) | green &<< Int32(8 * offsets.1)
                        | blue &<< Int32(8 * offsets.2) | SIMD8(repeating: opaque)
                    UnsafeMutableRawPointer(pixel).storeBytes(of: word, as: SIMD8<Int32>.self)
                    start += 8
                    continue
                }
                #endif
                for i in 0..<8 {
                    pixel[offsets.0] = UInt8(truncatingIfNeeded: red[i])
                    pixel[offsets.1] = UInt8(truncatingIfNeeded: green[i])
                    pixel[offsets.2] = UInt8(truncatingIfNeeded: blue[i])
                    if alpha >= 0 { pixel[alpha] = 255 }
                    pixel += bytesPerPixel
                }
                start += 8
            }
            for u in start..<width {
                let raw = maskRow[u]
                let m = raw > 0 ? min(raw, 1) : 0
                let (fr, fg, fb) = front.rgb(u, v)
                let (br, bg, bb) = back.rgb(u, v)
                let pixel = row + u * bytesPerPixel
                pixel[offsets.0] = blend(fr, br, m)
                pixel[offsets.1] = blend(fg, bg, m)
                pixel[offsets.2] = blend(fb, bb, m)
                if alpha >= 0 { pixel[alpha] = 255 }
            }
        }
    }

    struct Target {
        let base: UnsafeMutablePointer<UInt8>
        let bytesPerRow: Int
        let format: PixelFormat
    }
}

/// A background's RGB at upright pixel (u, v), and at the 8 pixels (u...u+7, v) as vectors of one channel.
protocol BackgroundPixels {
    func rgb(_ u: Int, _ v: Int) -> (Float, Float, Float)
    func rgb8(_ u: Int, _ v: Int) -> (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>)
}

/// One colour everywhere.
struct ColorPixels: BackgroundPixels {
    let rgb: (Float, Float, Float)
    @inline(__always) func rgb(_ u: Int, _ v: Int) -> (Float, Float, Float) { rgb }
    @inline(__always) func rgb8(_ u: Int, _ v: Int) -> (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>) {
        (SIMD8(repeating: rgb.0), SIMD8(repeating: rgb.1), SIMD8(repeating: rgb.2))
    }
}

/// Interleaved RGB floats, `width` pixels a row (the blurred image).
struct FloatPixels: BackgroundPixels {
    let base: UnsafePointer<Float>
    let width: Int
    @inline(__always) func rgb(_ u: Int, _ v: Int) -> (Float, Float, Float) {
        let p = base + (v * width + u) * 3
        return (p[0], p[1], p[2])
    }
    @inline(__always) func rgb8(_ u: Int, _ v: Int) -> (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>) {
        let p = base + (v * width + u) * 3
        var r = SIMD8<Float>(), g = SIMD8<Float>(), b = SIMD8<Float>()
        for i in 0..<8 { r[i] = p[3 * i]; g[i] = p[3 * i + 1]; b[i] = p[3 * i + 2] }
        return (r, g, b)
    }
}

/// Reads an image's pixels in upright coordinates as RGB floats (gray replicated, alpha ignored).
struct UprightPixels: BackgroundPixels {
    let start: UnsafePointer<UInt8>
    let du: Int
    let dv: Int
    let offsets: (r: Int, g: Int, b: Int)

    init(_ image: ImageView) {
        let origin: Int
        (origin, du, dv) = image.uprightStrides
        start = image.baseAddress.assumingMemoryBound(to: UInt8.self) + origin
        offsets = image.pixelFormat.channelOffsets
    }

    @inline(__always)
    func rgb(_ u: Int, _ v: Int) -> (Float, Float, Float) {
        let p = start + u * du + v * dv
        return (Float(p[offsets.r]), Float(p[offsets.g]), Float(p[offsets.b]))
    }

    @inline(__always)
    func rgb8(_ u: Int, _ v: Int) -> (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>) {
        var p = start + u * du + v * dv
        let (or, og, ob) = offsets
        var r = SIMD8<Int32>(), g = SIMD8<Int32>(), b = SIMD8<Int32>()
        for i in 0..<8 {
            r[i] = Int32(p[or]); g[i] = Int32(p[og]); b[i] = Int32(p[ob])
            p += du
        }
        return (SIMD8<Float>(r), SIMD8<Float>(g), SIMD8<Float>(b))
    }
}
