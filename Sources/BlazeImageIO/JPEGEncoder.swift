internal import CBlazeImageCodecs

/// Writes 8-bit gray and RGB images as baseline JPEG (libjpeg-turbo, its default 4:2:0 chroma for RGB).
///
/// Package-level: the tests and the shrink-on-load measurements make large JPEGs of known quality from the
/// samples with it; the tool writes PNG. An `orientation` other than `.up` is recorded in an APP1 EXIF segment,
/// so `ImageDecoder` reads back the same orientation; the pixels are written as stored. Thread-safe.
package enum JPEGEncoder {
    /// The JPEG file bytes for `image`.
    ///
    /// - Parameters:
    ///   - image: gray8 or rgb8 pixels, rows tightly packed.
    ///   - quality: libjpeg's quality, 1...100.
    /// - Returns: a complete JPEG file.
    /// - Throws: `.zeroSize` for an empty image; `.unsupported` for another pixel format, a buffer of the wrong
    ///   size, a side above 65,500 pixels, a quality outside 1...100, or when libjpeg fails.
    package static func encode(_ image: ImageBuffer, quality: Int = 90) throws(ImageIOError) -> [UInt8] {
        guard image.width > 0, image.height > 0 else { throw .zeroSize }
        guard image.pixelFormat == .gray8 || image.pixelFormat == .rgb8 else {
            throw .unsupported("JPEG writing takes gray8 or rgb8 pixels, not \(image.pixelFormat.rawValue)")
        }
        let rowBytes = image.width * image.pixelFormat.bytesPerPixel
        guard image.pixels.count == rowBytes * image.height, image.width <= 65_500, image.height <= 65_500 else {
            throw .unsupported("a \(image.width) x \(image.height) image with \(image.pixels.count) bytes cannot be written as JPEG")
        }
        let exif = image.orientation == .up ? [] : PNGEncoder.exifPayload(orientation: image.orientation.exifValue)
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            exif.withUnsafeBufferPointer { exif in
                blz_jpeg_encode(pixels.baseAddress, UInt32(image.width), UInt32(image.height),
                                UInt32(image.pixelFormat.bytesPerPixel), rowBytes, Int32(clamping: quality),
                                exif.baseAddress, exif.count, &output, &outputSize, &message, message.count)
            }
        }
        defer { blz_free(output) }
        guard status == .BLZ_STATUS_OK, let output else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .unsupported("JPEG encoding failed: \(text)")
        }
        return Array(UnsafeBufferPointer(start: output, count: outputSize))
    }
}
