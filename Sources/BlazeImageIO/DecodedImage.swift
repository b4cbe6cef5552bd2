@_exported import BlazeImaging

/// What `ImageDecoder` returns: BlazeImaging's `ImageBuffer` (owned 8-bit pixels, rows tightly packed, the
/// EXIF orientation reported in `orientation`, not applied).
public typealias DecodedImage = ImageBuffer

/// The decoder's pixel formats are BlazeImaging's (`gray8`, `rgb8`, `rgba8`).
@available(*, deprecated, renamed: "PixelFormat")
public typealias ImagePixelFormat = PixelFormat

extension PixelFormat {
    /// The decoder's format with `channels` bytes per pixel (gray, RGB, RGBA), or nil for other counts.
    init?(decodedChannels channels: Int) {
        switch channels {
        case 1: self = .gray8
        case 3: self = .rgb8
        case 4: self = .rgba8
        default: return nil
        }
    }
}

extension ImageBuffer {
    /// The pre-BlazeImaging spelling of `init(width:height:pixelFormat:pixels:orientation:)`.
    /// - Parameters:
    ///   - width: stored width, in pixels.
    ///   - height: stored height, in pixels.
    ///   - format: the pixel format.
    ///   - pixels: `height` rows of `width` pixels, tightly packed.
    ///   - exifOrientation: the EXIF orientation tag, 1...8 (another value reads as 1, `.up`).
    @available(*, deprecated, message: "use init(width:height:pixelFormat:pixels:orientation:)")
    public init(width: Int, height: Int, format: PixelFormat, pixels: [UInt8], exifOrientation: Int = 1) {
        self.init(width: width, height: height, pixelFormat: format, pixels: pixels,
                  orientation: ImageOrientation(exif: exifOrientation) ?? .up)
    }

    /// The pixel format, under its former name.
    @available(*, deprecated, renamed: "pixelFormat")
    public var format: PixelFormat {
        get { pixelFormat }
        set { pixelFormat = newValue }
    }

    /// The EXIF orientation tag value, 1...8.
    @available(*, deprecated, message: "use orientation (its exifValue is the tag)")
    public var exifOrientation: Int { orientation.exifValue }
}
