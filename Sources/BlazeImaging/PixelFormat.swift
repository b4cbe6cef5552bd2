/// The layout of one pixel in an `ImageView`. Alpha, where present, is ignored (treated as opaque).
public enum PixelFormat: String, Hashable, Sendable, CaseIterable {
    /// Red, green, blue: 3 bytes.
    case rgb8
    /// Red, green, blue, alpha: 4 bytes.
    case rgba8
    /// Blue, green, red, alpha: 4 bytes (`kCVPixelFormatType_32BGRA`, the usual iOS/macOS camera buffer).
    case bgra8
    /// Alpha, red, green, blue: 4 bytes (`kCVPixelFormatType_32ARGB`).
    case argb8
    /// One gray byte.
    case gray8

    @inlinable
    public var bytesPerPixel: Int {
        switch self {
        case .rgb8: return 3
        case .rgba8, .bgra8, .argb8: return 4
        case .gray8: return 1
        }
    }

    /// Byte offsets of red, green and blue within a pixel (all 0 for gray).
    @inlinable
    public var channelOffsets: (r: Int, g: Int, b: Int) {
        switch self {
        case .rgb8, .rgba8: return (0, 1, 2)
        case .bgra8: return (2, 1, 0)
        case .argb8: return (1, 2, 3)
        case .gray8: return (0, 0, 0)
        }
    }
}
