/// The layout of one pixel of a `DecodedImage`: 8-bit samples, no padding.
public enum ImagePixelFormat: String, Hashable, Sendable, CaseIterable {
    /// One gray byte.
    case gray8
    /// Red, green, blue: 3 bytes.
    case rgb8
    /// Red, green, blue, alpha (straight, not premultiplied): 4 bytes.
    case rgba8

    /// Bytes (and channels) per pixel: 1, 3 or 4.
    public var bytesPerPixel: Int {
        switch self {
        case .gray8: return 1
        case .rgb8: return 3
        case .rgba8: return 4
        }
    }

    /// The format with `channels` bytes per pixel, or nil for other counts.
    init?(channels: Int) {
        switch channels {
        case 1: self = .gray8
        case 3: self = .rgb8
        case 4: self = .rgba8
        default: return nil
        }
    }
}
