/// An image in memory: owned 8-bit pixels, top-left origin, rows tightly packed.
///
/// `pixels` holds `height` rows of `width * format.bytesPerPixel` bytes, top row first. The decoder
/// always produces a consistent value; one built by hand must keep `pixels.count == width * height *
/// format.bytesPerPixel` (the `PNGEncoder` checks it).
///
/// The EXIF orientation is reported, not applied: the pixels are as stored in the file. Pass it on (for
/// example as BlazeFace's `ImageOrientation(exif:)`) to get results in upright coordinates.
public struct DecodedImage: Hashable, Sendable {
    /// Width in pixels (> 0 for decoded images).
    public var width: Int
    /// Height in pixels (> 0 for decoded images).
    public var height: Int
    /// The layout of each pixel.
    public var format: ImagePixelFormat
    /// `height` rows of `bytesPerRow` bytes, top row first.
    public var pixels: [UInt8]
    /// The file's EXIF orientation tag, 1...8; 1 when the file has none (or an unreadable one).
    public var exifOrientation: Int

    public init(width: Int, height: Int, format: ImagePixelFormat, pixels: [UInt8], exifOrientation: Int = 1) {
        self.width = width
        self.height = height
        self.format = format
        self.pixels = pixels
        self.exifOrientation = exifOrientation
    }

    /// Bytes per row: `width * format.bytesPerPixel` (rows are tightly packed).
    public var bytesPerRow: Int { width * format.bytesPerPixel }
}
