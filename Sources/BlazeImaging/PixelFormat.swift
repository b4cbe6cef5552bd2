/// The layout of the pixels of an `ImageView`. Alpha, where present, is ignored (treated as opaque).
///
/// The packed formats hold whole pixels in one plane. The YUV 4:2:0 formats (`nv12`, `nv21`, `i420`) hold a
/// full-size luma plane and chroma planes of `(width + 1) / 2 x (height + 1) / 2` samples, each chroma sample
/// covering a 2x2 block of luma; their view carries the chroma planes (`ImageView.chroma`) and the colour
/// space that turns them into RGB (`ImageView.colorSpace`). See `ImageView+YUV.swift`.
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
    /// YUV 4:2:0, two planes: luma, then Cb, Cr pairs (`kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange` and
    /// `...FullRange`, "420v" / "420f"; FFmpeg's `nv12`).
    case nv12
    /// YUV 4:2:0, two planes: luma, then Cr, Cb pairs (Android's `NV21`, the camera's default preview format).
    case nv21
    /// YUV 4:2:0, three planes: luma, Cb, Cr (FFmpeg's `yuv420p`, what most video decoders produce; Android's
    /// `YUV_420_888` with a chroma pixel stride of 1).
    case i420

    /// True for the YUV 4:2:0 formats.
    @inlinable
    public var isYUV: Bool {
        switch self {
        case .nv12, .nv21, .i420: return true
        case .rgb8, .rgba8, .bgra8, .argb8, .gray8: return false
        }
    }

    /// Bytes per pixel; for the YUV formats, of the luma plane (1).
    @inlinable
    public var bytesPerPixel: Int {
        switch self {
        case .rgb8: return 3
        case .rgba8, .bgra8, .argb8: return 4
        case .gray8, .nv12, .nv21, .i420: return 1
        }
    }

    /// Byte offsets of red, green and blue within a pixel (all 0 for gray). Meaningless for the YUV formats
    /// (all 0: the luma plane), whose readers must convert through `ImageView.colorSpace`.
    @inlinable
    public var channelOffsets: (r: Int, g: Int, b: Int) {
        switch self {
        case .rgb8, .rgba8: return (0, 1, 2)
        case .bgra8: return (2, 1, 0)
        case .argb8: return (1, 2, 3)
        case .gray8, .nv12, .nv21, .i420: return (0, 0, 0)
        }
    }
}
