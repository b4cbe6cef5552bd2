internal import CBlazeImageCodecs

/// Writes 8-bit gray, RGB and RGBA images as PNG (libpng, default compression, adaptive filtering).
///
/// An `orientation` other than `.up` is recorded in an eXIf chunk, so `ImageDecoder` (and viewers that
/// honour eXIf) read back the same orientation; the pixels are written as stored. Thread-safe.
public enum PNGEncoder {
    /// The PNG file bytes for `image`.
    ///
    /// - Parameter image: gray8, rgb8 or rgba8 pixels, rows tightly packed.
    /// - Returns: a complete PNG file.
    /// - Throws: `.zeroSize` for an empty image; `.unsupported` for a pixel format other than gray8, rgb8 and
    ///   rgba8, when `pixels.count` is not `width * height * bytesPerPixel`, when a dimension exceeds PNG's
    ///   2^31 - 1, or when libpng fails.
    public static func encode(_ image: ImageBuffer) throws(ImageIOError) -> [UInt8] {
        guard image.width > 0, image.height > 0 else { throw .zeroSize }
        guard [.gray8, .rgb8, .rgba8].contains(image.pixelFormat) else {
            throw .unsupported("PNG writing takes gray8, rgb8 or rgba8 pixels, not \(image.pixelFormat.rawValue) (convert with uprightRGB())")
        }
        let limit = 0x7FFF_FFFF
        guard image.width <= limit, image.height <= limit else {
            throw .unsupported("PNG dimensions are at most \(limit); the image is \(image.width) x \(image.height)")
        }
        let (rowBytes, rowOverflow) = image.width.multipliedReportingOverflow(by: image.pixelFormat.bytesPerPixel)
        let (byteCount, overflow) = rowBytes.multipliedReportingOverflow(by: image.height)
        guard !rowOverflow, !overflow, image.pixels.count == byteCount else {
            throw .unsupported("the pixel buffer holds \(image.pixels.count) bytes; a \(image.width) x "
                + "\(image.height) \(image.pixelFormat.rawValue) image needs \(image.width) x \(image.height) x "
                + "\(image.pixelFormat.bytesPerPixel)")
        }
        let exif = image.orientation == .up ? [] : exifPayload(orientation: image.orientation.exifValue)

        var output: UnsafeMutablePointer<UInt8>?
        var outputSize = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            exif.withUnsafeBufferPointer { exif in
                blz_png_encode(
                    pixels.baseAddress, UInt32(image.width), UInt32(image.height),
                    UInt32(image.pixelFormat.bytesPerPixel), rowBytes, exif.baseAddress, exif.count,
                    &output, &outputSize, &message, message.count)
            }
        }
        defer { blz_free(output) }
        guard status == .BLZ_STATUS_OK, let output else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .unsupported("PNG encoding failed: \(text)")
        }
        return Array(UnsafeBufferPointer(start: output, count: outputSize))
    }

    /// Encodes `image` and writes it to `path`, replacing any file there.
    ///
    /// - Parameters:
    ///   - image: gray8, rgb8 or rgba8 pixels, rows tightly packed.
    ///   - path: the file to create or replace.
    /// - Throws: as `encode(_:)`, and `.cannotWrite` when the file cannot be created or written.
    public static func write(_ image: ImageBuffer, to path: String) throws(ImageIOError) {
        try FileIO.write(encode(image), to: path)
    }

    /// A minimal big-endian TIFF structure: IFD0 with the orientation tag only.
    static func exifPayload(orientation: Int) -> [UInt8] {
        let value = UInt8(truncatingIfNeeded: orientation)
        return [
            0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08, // "MM", 42, IFD0 at offset 8
            0x00, 0x01, // one entry
            0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, value, 0x00, 0x00, // 0x0112 SHORT x1
            0x00, 0x00, 0x00, 0x00, // no next IFD
        ]
    }
}
