/// An image that owns its 8-bit pixels: rows tightly packed, top row first, as stored (the orientation says
/// how to show it). What BlazeImageIO's decoder returns, and what annotators draw on.
public struct ImageBuffer: Hashable, Sendable {
    /// Stored width in pixels.
    public var width: Int
    /// Stored height in pixels.
    public var height: Int
    /// The layout of each pixel's bytes.
    public var pixelFormat: PixelFormat
    /// `height` rows of `bytesPerRow` bytes.
    public var pixels: [UInt8]
    /// How the stored pixels are shown upright (from the file's EXIF tag; `.up` when it has none).
    public var orientation: ImageOrientation
    /// How YUV pixels become RGB (YUV formats only).
    public var colorSpace: YUVColorSpace

    /// An image of `pixels`: `height` rows of `bytesPerRow` bytes; a YUV format's planes one after the other, as
    /// `ImageView.init(pixels:...)` reads them with `bytesPerRow == width`.
    /// - Parameters:
    ///   - width: stored width, in pixels.
    ///   - height: stored height, in pixels.
    ///   - pixelFormat: the layout of the pixels.
    ///   - pixels: the bytes; not checked here (`withView` checks them).
    ///   - orientation: how the stored pixels are shown upright.
    ///   - colorSpace: how YUV samples become RGB (unused for the packed formats).
    public init(width: Int, height: Int, pixelFormat: PixelFormat, pixels: [UInt8], orientation: ImageOrientation = .up,
                colorSpace: YUVColorSpace = .default) {
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.pixels = pixels
        self.orientation = orientation
        self.colorSpace = colorSpace
    }

    /// A black upright image of the given size (a YUV one with black luma for the default colour space and
    /// neutral chroma).
    /// - Parameters:
    ///   - width: width, in pixels.
    ///   - height: height, in pixels.
    ///   - pixelFormat: the layout of the pixels.
    public init(width: Int, height: Int, pixelFormat: PixelFormat = .rgb8) {
        let count = max(width, 0) * max(height, 0) * pixelFormat.bytesPerPixel
        var pixels = [UInt8](repeating: 0, count: count)
        if pixelFormat.isYUV, let total = try? ImageView.byteCount(width: width, height: height, bytesPerRow: width,
                                                                    pixelFormat: pixelFormat) {
            pixels = [UInt8](repeating: 16, count: count) + [UInt8](repeating: 128, count: total - count)
        }
        self.init(width: width, height: height, pixelFormat: pixelFormat, pixels: pixels)
    }

    /// `width · pixelFormat.bytesPerPixel` (of the luma plane for YUV).
    public var bytesPerRow: Int { width * pixelFormat.bytesPerPixel }
    /// Width of the upright (displayed) image.
    public var uprightWidth: Int { orientation.swapsDimensions ? height : width }
    /// Height of the upright (displayed) image.
    public var uprightHeight: Int { orientation.swapsDimensions ? width : height }

    /// Calls `body` with a zero-copy view of the pixels, with the image's orientation.
    /// - Parameter body: reads the view; it is valid only during the call.
    /// - Returns: what `body` returns.
    /// - Throws: `ImagingError` when the geometry does not fit `pixels`, or what `body` throws.
    public func withView<R>(_ body: (ImageView) throws -> R) throws -> R {
        try ImageView.withPixels(pixels, width: width, height: height, bytesPerRow: bytesPerRow,
                                 pixelFormat: pixelFormat, orientation: orientation, colorSpace: colorSpace, body)
    }

    /// The upright image (orientation applied) as tightly packed RGB, for drawing on or for a model.
    /// Gray is replicated into the three channels; alpha is dropped; YUV is converted (`ImageView.uprightRGB()`).
    /// - Returns: an rgb8 image of `uprightWidth` x `uprightHeight` pixels, orientation `.up`.
    /// - Throws: `ImagingError` when the geometry does not fit `pixels`.
    public func uprightRGB() throws(ImagingError) -> ImageBuffer {
        let needed = try ImageView.byteCount(width: width, height: height, bytesPerRow: bytesPerRow, pixelFormat: pixelFormat)
        guard pixels.count >= needed else { throw .bufferTooSmall(bytes: pixels.count, needed: needed) }
        return pixels.withUnsafeBytes { raw in
            // The geometry was checked above, so the view cannot fail.
            (try? ImageView(pixels: raw, width: width, height: height, bytesPerRow: bytesPerRow, pixelFormat: pixelFormat,
                            orientation: orientation, colorSpace: colorSpace))?.uprightRGB()
                ?? ImageBuffer(width: 0, height: 0)
        }
    }
}
