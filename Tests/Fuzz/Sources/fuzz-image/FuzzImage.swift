import BlazeImageIO

/// Limits for the image target: 4 megapixels, so that a header claiming a huge picture is refused before
/// its pixels are allocated and one input stays well under libFuzzer's `-rss_limit_mb`.
let options = ImageDecodingOptions(maximumPixelCount: 4_000_000, maximumFileBytes: 1 << 24)

/// libFuzzer entry point: any bytes through `ImageDecoder.decode(data:options:)` (JPEG, PNG, WebP, TIFF, GIF, BMP,
/// PNM, HEIF or AVIF by signature or ftyp brand, EXIF orientation and colour profiles included), then through `ImageDecoder.decodeScaled` with a minimum long side
/// of 1 to 256 pixels taken from the input's size (so JPEGs go through libjpeg's 1/2, 1/4 and 1/8 scaled
/// decodes). Every outcome must be an `ImageIOError` or an image whose buffer holds exactly its width ×
/// height × bytes per pixel; a scaled one must be ceil(declared size / scale) with a scale of 1, 2, 4 or 8.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let image: DecodedImage = try? ImageDecoder.decode(data: bytes, options: options) {
        check(image)
    }
    if let scaled = try? ImageDecoder.decodeScaled(data: bytes, minimumLongSide: size % 256 + 1, options: options) {
        check(scaled.image)
        let d = scaled.scaleDenominator
        precondition([1, 2, 4, 8].contains(d), "scale 1/\(d)")
        precondition(scaled.fullWidth * scaled.fullHeight <= 4_000_000, "declared size outside the limits")
        precondition(scaled.image.width == (scaled.fullWidth + d - 1) / d
                         && scaled.image.height == (scaled.fullHeight + d - 1) / d,
                     "scaled size disagrees with the declared size and the scale")
    }
    return 0
}

/// An image inside the limits whose buffer matches its geometry.
func check(_ image: DecodedImage) {
    precondition(image.width > 0 && image.height > 0 && image.width * image.height <= 4_000_000,
                 "decoded image outside the limits")
    precondition(image.pixels.count == image.width * image.height * image.pixelFormat.bytesPerPixel,
                 "decoded buffer size disagrees with its geometry")
}
