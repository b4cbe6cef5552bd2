import Foundation

/// Why a background replacement was refused. Nothing is written to the output then.
public enum BackgroundReplacementError: Error, Equatable, Sendable {
    /// The mask is not at the upright image's size (segment with `Resolution.image`).
    case maskSizeMismatch(maskWidth: Int, maskHeight: Int, imageWidth: Int, imageHeight: Int)
    /// The mask's `values` do not hold `width · height` values.
    case invalidMask(width: Int, height: Int, values: Int)
    /// The background picture's upright size is not the image's (it is not scaled: resize it first).
    case backgroundSizeMismatch(backgroundWidth: Int, backgroundHeight: Int, imageWidth: Int, imageHeight: Int)
    /// A blur radius below 0.
    case invalidBlurRadius(Int)
    /// The output cannot hold the image (`needed` bytes for the geometry given).
    case outputTooSmall(bytes: Int, needed: Int)
    /// The image or the background picture is YUV, which the compositing does not read (convert it with
    /// `ImageView.uprightRGB()` first).
    case unsupportedPixelFormat(PixelFormat)
    /// The output's geometry is unusable: rows shorter than a line of pixels, or a gray format.
    case invalidOutput(String)
}

extension BackgroundReplacementError: CustomStringConvertible, LocalizedError {
    /// A one-line message for people, with the sizes or values concerned and what to do.
    public var description: String {
        switch self {
        case let .maskSizeMismatch(mw, mh, iw, ih):
            return "the mask is \(mw)x\(mh) but the upright image is \(iw)x\(ih); segment with resolution .image"
        case let .invalidMask(width, height, values):
            return "the \(width)x\(height) mask holds \(values) values instead of \(width * height)"
        case let .backgroundSizeMismatch(bw, bh, iw, ih):
            return "the background picture is \(bw)x\(bh) (upright) but the image is \(iw)x\(ih); resize it first"
        case let .invalidBlurRadius(radius):
            return "blur radius \(radius) is negative"
        case let .outputTooSmall(bytes, needed):
            return "the output holds \(bytes) bytes; the image needs \(needed)"
        case let .unsupportedPixelFormat(format):
            return "background replacement reads packed RGB-family pixels, not \(format.rawValue); convert with uprightRGB()"
        case let .invalidOutput(reason):
            return "invalid output: \(reason)"
        }
    }

    /// The same message as `description`.
    public var errorDescription: String? { description }
}
