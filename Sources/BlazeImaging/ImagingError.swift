import Foundation

/// Why an image view, a region or a tensor conversion was refused. Every case says what was wrong with the
/// numbers that matter.
public enum ImagingError: Error, Equatable, Sendable {
    /// A width or height below 1.
    case emptyImage(width: Int, height: Int)
    /// Rows shorter than a line of pixels.
    case rowTooShort(bytesPerRow: Int, width: Int, bytesPerPixel: Int)
    /// The geometry's byte count overflows or is too large to address.
    case tooLarge(width: Int, height: Int, bytesPerRow: Int)
    /// The pixel buffer holds fewer bytes than the geometry needs.
    case bufferTooSmall(bytes: Int, needed: Int)
    /// Plane `plane` of a YUV view (0 luma, 1 chroma or Cb, 2 Cr) holds fewer bytes than its rows need.
    case planeTooSmall(plane: Int, bytes: Int, needed: Int)
    /// A region whose centre, size or rotation is not finite, or whose size is not positive.
    case invalidRegion(String)
    /// Tensor options out of range (size, value range).
    case invalidOptions(String)
    /// An output buffer that cannot hold the tensor.
    case outputTooSmall(floats: Int, needed: Int)
    /// The requested operation does not support this pixel format.
    case unsupportedPixelFormat(PixelFormat, reason: String)
    /// A CoreVideo pixel buffer in a format other than BGRA, '420v' or '420f' (`PixelBufferFormat`), by its
    /// four-character code.
    case unsupportedPixelBufferFormat(fourCC: UInt32)
    /// A pixel buffer or picture that cannot be read: a plane missing or without a base address (an unlocked
    /// buffer), a plane smaller than the image, a lock or a drawing that failed.
    case invalidPixelBuffer(String)
}

extension ImagingError: CustomStringConvertible, LocalizedError {
    /// A one-line message for people, with the value or limit concerned.
    public var description: String {
        switch self {
        case let .emptyImage(width, height):
            return "the image is \(width)x\(height) pixels; both sides must be at least 1"
        case let .rowTooShort(bytesPerRow, width, bytesPerPixel):
            return "bytesPerRow \(bytesPerRow) is less than \(width) pixels x \(bytesPerPixel) bytes"
        case let .tooLarge(width, height, bytesPerRow):
            return "a \(width)x\(height) image with \(bytesPerRow) bytes per row is too large to address"
        case let .bufferTooSmall(bytes, needed):
            return "the pixel buffer holds \(bytes) bytes; the image's rows need \(needed)"
        case let .planeTooSmall(plane, bytes, needed):
            return "plane \(plane) of the YUV image holds \(bytes) bytes; its rows need \(needed)"
        case let .invalidRegion(reason):
            return "invalid region: \(reason)"
        case let .invalidOptions(reason):
            return "invalid image-to-tensor options: \(reason)"
        case let .outputTooSmall(floats, needed):
            return "the output holds \(floats) floats; the tensor needs \(needed)"
        case let .unsupportedPixelFormat(format, reason):
            return "pixel format \(format.rawValue) is not supported here: \(reason)"
        case let .unsupportedPixelBufferFormat(fourCC):
            return "pixel buffer format \(PixelBufferFormat.describe(fourCC: fourCC)) is not read without a copy; "
                + "BGRA, '420v' and '420f' are"
        case let .invalidPixelBuffer(reason):
            return "invalid pixel buffer: \(reason)"
        }
    }

    /// The same message as `description`.
    public var errorDescription: String? { description }
}
