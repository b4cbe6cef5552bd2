import Foundation

/// Why an image could not be read, decoded or written.
public enum ImageIOError: Error, Equatable, Sendable {
    /// The file could not be opened or read (`reason` is the system's, e.g. "No such file or directory").
    case cannotRead(path: String, reason: String)
    /// The path names a FIFO, a device, a directory or a socket (`kind`), not a regular file: refused
    /// before anything is read, so a named pipe cannot block the reader and `/dev/zero` cannot fill memory.
    case notARegularFile(path: String, kind: String)
    /// The file has more bytes than `ImageDecodingOptions.maximumFileBytes` (`limit`).
    case fileTooLarge(path: String, bytes: Int, limit: Int)
    /// No image format was recognised: the data starts with no signature of an `ImageFileFormat` (no `ftyp` box
    /// with a HEIF or AVIF brand either; nor of the other image formats named in `.unsupported` errors, such as
    /// JPEG XL or PSD).
    case unknownFormat
    /// The data is damaged: a bad marker, CRC, compressed stream or entropy-coded segment.
    case corrupt(String)
    /// The data ends before the image does (including data too short to hold a signature).
    case truncated(String)
    /// The header declares more pixels than `ImageDecodingOptions.maximumPixelCount` (`limit`), or a
    /// decoded size that does not fit in memory addresses.
    case tooLarge(width: Int, height: Int, limit: Int)
    /// The header declares a zero width or height, or an image to encode is empty.
    case zeroSize
    /// A valid file of a kind this library does not decode (12-bit or lossless JPEG, a format recognised by
    /// its signature but not decoded, such as JPEG XL: the message names it; a HEIF whose codec libheif lacks, a
    /// HEIF beyond libheif's security limits), or an image that cannot be encoded as given.
    case unsupported(String)
    /// The file could not be created or written.
    case cannotWrite(path: String, reason: String)
}

extension ImageIOError: CustomStringConvertible {
    /// A one-line message for people, with the file, value or limit concerned.
    public var description: String {
        switch self {
        case .cannotRead(let path, let reason): return "cannot read \(path): \(reason)"
        case .notARegularFile(let path, let kind): return "cannot read \(path): it is \(kind), not a regular file"
        case .fileTooLarge(let path, let bytes, let limit):
            return "cannot read \(path): the file has \(bytes) bytes, more than the limit of \(limit) (ImageDecodingOptions.maximumFileBytes)"
        case .unknownFormat:
            let names = ImageFileFormat.allCases.map(\.displayName).joined(separator: ", ")
            return "no image format recognised: the data starts with no signature of \(names)"
        case .corrupt(let detail): return "corrupt image: \(detail)"
        case .truncated(let detail): return "truncated image: \(detail)"
        case .tooLarge(let width, let height, let limit):
            return "image too large: \(width) x \(height) pixels exceeds the limit of \(limit) pixels"
        case .zeroSize: return "the image has a zero width or height"
        case .unsupported(let detail): return "unsupported image: \(detail)"
        case .cannotWrite(let path, let reason): return "cannot write \(path): \(reason)"
        }
    }
}

extension ImageIOError: LocalizedError {
    /// The same message as `description`.
    public var errorDescription: String? { description }
}
