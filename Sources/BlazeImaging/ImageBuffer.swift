/// An image that owns its 8-bit pixels: rows tightly packed, top row first, as stored (the orientation says
/// how to show it). What BlazeImageIO's decoder returns, and what annotators draw on.
public struct ImageBuffer: Hashable, Sendable {
    /// Stored width in pixels.
    public var width: Int
    /// Stored height in pixels.
    public var height: Int
    public var pixelFormat: PixelFormat
    /// `height` rows of `bytesPerRow` bytes.
    public var pixels: [UInt8]
    /// How the stored pixels are shown upright (from the file's EXIF tag; `.up` when it has none).
    public var orientation: ImageOrientation

    public init(width: Int, height: Int, pixelFormat: PixelFormat, pixels: [UInt8], orientation: ImageOrientation = .up) {
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.pixels = pixels
        self.orientation = orientation
    }

    /// A black upright image of the given size.
    public init(width: Int, height: Int, pixelFormat: PixelFormat = .rgb8) {
        self.init(width: width, height: height, pixelFormat: pixelFormat,
                  pixels: [UInt8](repeating: 0, count: max(width, 0) * max(height, 0) * pixelFormat.bytesPerPixel))
    }

    /// `width · pixelFormat.bytesPerPixel`.
    public var bytesPerRow: Int { width * pixelFormat.bytesPerPixel }
    /// Width of the upright (displayed) image.
    public var uprightWidth: Int { orientation.swapsDimensions ? height : width }
    /// Height of the upright (displayed) image.
    public var uprightHeight: Int { orientation.swapsDimensions ? width : height }

    /// Calls `body` with a zero-copy view of the pixels, with the image's orientation.
    /// - Throws: `ImagingError` when the geometry does not fit `pixels`, or what `body` throws.
    public func withView<R>(_ body: (ImageView) throws -> R) throws -> R {
        try ImageView.withPixels(pixels, width: width, height: height, bytesPerRow: bytesPerRow,
                                 pixelFormat: pixelFormat, orientation: orientation, body)
    }

    /// The upright image (orientation applied) as tightly packed RGB, for drawing on or for a model.
    /// Gray is replicated into the three channels; alpha is dropped.
    /// - Throws: `ImagingError` when the geometry does not fit `pixels`.
    public func uprightRGB() throws(ImagingError) -> ImageBuffer {
        let needed = try ImageView.byteCount(width: width, height: height, bytesPerRow: bytesPerRow, pixelFormat: pixelFormat)
        guard pixels.count >= needed else { throw .bufferTooSmall(bytes: pixels.count, needed: needed) }
        let uw = uprightWidth, uh = uprightHeight, bpp = pixelFormat.bytesPerPixel
        let (r, g, b) = pixelFormat.channelOffsets
        var out = [UInt8](repeating: 0, count: uw * uh * 3)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for v in 0..<uh {
                    for u in 0..<uw {
                        let (x, y) = orientation.storedPixel(u: u, v: v, width: width, height: height)
                        let p = (y * width + x) * bpp, q = (v * uw + u) * 3
                        dst[q] = src[p + r]; dst[q + 1] = src[p + g]; dst[q + 2] = src[p + b]
                    }
                }
            }
        }
        return ImageBuffer(width: uw, height: uh, pixelFormat: .rgb8, pixels: out)
    }
}
