import BlazeImageIO

/// Limits for the image target: 4 megapixels, so that a header claiming a huge picture is refused before
/// its pixels are allocated and one input stays well under libFuzzer's `-rss_limit_mb`.
let options = ImageDecodingOptions(maximumPixelCount: 4_000_000, maximumFileBytes: 1 << 24)

/// libFuzzer entry point: any bytes through `ImageDecoder.decode(data:options:)` (JPEG or PNG by
/// signature, EXIF orientation included). Every outcome must be an `ImageIOError` or an image whose buffer
/// holds exactly its width × height × bytes per pixel.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let image: DecodedImage = try? ImageDecoder.decode(data: bytes, options: options) else { return 0 }
    precondition(image.width > 0 && image.height > 0 && image.width * image.height <= 4_000_000,
                 "decoded image outside the limits")
    precondition(image.pixels.count == image.width * image.height * image.pixelFormat.bytesPerPixel,
                 "decoded buffer size disagrees with its geometry")
    return 0
}
