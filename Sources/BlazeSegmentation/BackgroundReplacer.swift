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

    public init() {}

    /// The upright image with `background` behind the person, as tightly packed rgb8.
    /// - Throws: as `replaceBackground(of:mask:with:into:bytesPerRow:pixelFormat:)`.
    public func replaceBackground(of image: ImageView, mask: SegmentationMask,
                                  with background: Background) throws(BackgroundReplacementError) -> ImageBuffer {
        var buffer = ImageBuffer(width: 0, height: 0)
        try replaceBackground(of: image, mask: mask, with: background, into: &buffer)
        return buffer
    }

    /// Writes the result into `buffer`, resized to the upright image (same size: no allocation when its pixels
    /// are not shared), in its pixel format (gray8 becomes rgb8), orientation `.up`.
    /// - Throws: as `replaceBackground(of:mask:with:into:bytesPerRow:pixelFormat:)`; `buffer` is unchanged then.
    public func replaceBackground(of image: ImageView, mask: SegmentationMask, with background: Background,
                                  into buffer: inout ImageBuffer) throws(BackgroundReplacementError) {
        try Self.check(image, mask: mask, background: background)
        let format: PixelFormat = buffer.pixelFormat == .gray8 ? .rgb8 : buffer.pixelFormat
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
    }

    /// Writes the upright image with `background` behind the person into `output`: `uprightHeight` rows of
    /// `bytesPerRow` bytes (default: tightly packed), each pixel in `pixelFormat` (rgb8, rgba8, bgra8 or argb8;
    /// alpha 255).
    /// - Throws: `BackgroundReplacementError.maskSizeMismatch` (the mask is not at the upright image's size),
    ///   `.invalidMask`, `.backgroundSizeMismatch`, `.invalidBlurRadius`, `.invalidOutput` (rows too short, gray8),
    ///   `.outputTooSmall`. Nothing is written then.
    public func replaceBackground(of image: ImageView, mask: SegmentationMask, with background: Background,
                                  into output: UnsafeMutableRawBufferPointer, bytesPerRow: Int? = nil,
                                  pixelFormat: PixelFormat = .rgb8) throws(BackgroundReplacementError) {
        let width = image.uprightWidth, height = image.uprightHeight
        try Self.check(image, mask: mask, background: background)
        guard pixelFormat != .gray8 else { throw .invalidOutput("gray8 cannot hold a colour background; use rgb8") }
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
    @inline(__always)
    static func blend(_ front: Float, _ back: Float, _ m: Float) -> UInt8 {
        UInt8(back + m * (front - back) + 0.5)
    }

    /// The loop shared by the backgrounds, specialized per background and per output layout.
    static func composite<Back: BackgroundPixels>(_ front: UprightPixels, mask: UnsafePointer<Float>, target: Target,
                                                  width: Int, height: Int, back: Back) {
        switch target.format {
        case .rgb8: composite(front, mask, target, width, height, back, offsets: (0, 1, 2), alpha: -1, bytesPerPixel: 3)
        case .rgba8: composite(front, mask, target, width, height, back, offsets: (0, 1, 2), alpha: 3, bytesPerPixel: 4)
        case .bgra8: composite(front, mask, target, width, height, back, offsets: (2, 1, 0), alpha: 3, bytesPerPixel: 4)
        case .argb8: composite(front, mask, target, width, height, back, offsets: (1, 2, 3), alpha: 0, bytesPerPixel: 4)
        case .gray8: break  // refused before
        }
    }

    @inline(__always)
    static func composite<Back: BackgroundPixels>(_ front: UprightPixels, _ mask: UnsafePointer<Float>, _ target: Target,
                                                  _ width: Int, _ height: Int, _ back: Back, offsets: (Int, Int, Int),
                                                  alpha: Int, bytesPerPixel: Int) {
        for v in 0..<height {
            let row = target.base + v * target.bytesPerRow, maskRow = mask + v * width
            for u in 0..<width {
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

/// A background's RGB at upright pixel (u, v).
protocol BackgroundPixels {
    func rgb(_ u: Int, _ v: Int) -> (Float, Float, Float)
}

/// One colour everywhere.
struct ColorPixels: BackgroundPixels {
    let rgb: (Float, Float, Float)
    @inline(__always) func rgb(_ u: Int, _ v: Int) -> (Float, Float, Float) { rgb }
}

/// Interleaved RGB floats, `width` pixels a row (the blurred image).
struct FloatPixels: BackgroundPixels {
    let base: UnsafePointer<Float>
    let width: Int
    @inline(__always) func rgb(_ u: Int, _ v: Int) -> (Float, Float, Float) {
        let p = base + (v * width + u) * 3
        return (p[0], p[1], p[2])
    }
}

/// Reads an image's pixels in upright coordinates as RGB floats (gray replicated, alpha ignored).
struct UprightPixels: BackgroundPixels {
    let start: UnsafePointer<UInt8>
    let du: Int
    let dv: Int
    let offsets: (r: Int, g: Int, b: Int)

    init(_ image: ImageView) {
        let p = image.pixelFormat.bytesPerPixel, r = image.bytesPerRow
        let lastX = (image.width - 1) * p, lastY = (image.height - 1) * r
        let origin: Int
        switch image.orientation {
        case .up: (origin, du, dv) = (0, p, r)
        case .upMirrored: (origin, du, dv) = (lastX, -p, r)
        case .down: (origin, du, dv) = (lastX + lastY, -p, -r)
        case .downMirrored: (origin, du, dv) = (lastY, p, -r)
        case .leftMirrored: (origin, du, dv) = (0, r, p)
        case .right: (origin, du, dv) = (lastY, -r, p)
        case .rightMirrored: (origin, du, dv) = (lastX + lastY, -r, -p)
        case .left: (origin, du, dv) = (lastX, r, -p)
        }
        start = image.baseAddress.assumingMemoryBound(to: UInt8.self) + origin
        offsets = image.pixelFormat.channelOffsets
    }

    @inline(__always)
    func rgb(_ u: Int, _ v: Int) -> (Float, Float, Float) {
        let p = start + u * du + v * dv
        return (Float(p[offsets.r]), Float(p[offsets.g]), Float(p[offsets.b]))
    }
}
