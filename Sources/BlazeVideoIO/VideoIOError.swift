import Foundation

/// Why a video could not be read or written.
///
/// Reading: the errors of `VideoReader.init` come before any frame; `corrupt`, `truncated`, `tooLarge` and
/// `tooManyFrames` can also end the stream in `nextFrame()`, after every frame before the damage was delivered
/// (`afterFrames` says how many).
public enum VideoIOError: Error, Equatable, Sendable {
    /// No file at the path (ENOENT).
    case fileNotFound(path: String)
    /// The file could not be opened (`reason` is the system's, e.g. "Permission denied").
    case cannotRead(path: String, reason: String)
    /// The path names a FIFO, a device, a directory or a socket (`kind`): refused before anything is read,
    /// so a named pipe cannot block the reader.
    case notARegularFile(path: String, kind: String)
    /// No video container recognises the data: an empty file, text, an image, an audio-only format.
    case notAVideo(String)
    /// A container without a video stream (audio only, subtitles ...).
    case noVideoStream
    /// The video's codec has no decoder in this FFmpeg (reading), or the requested encoder is missing (writing).
    case unsupportedCodec(String)
    /// Damaged data: the container's header, a packet or the compressed picture is invalid. `afterFrames`
    /// frames were delivered before it.
    case corrupt(afterFrames: Int, detail: String)
    /// The data ends before the container's header, or before the frames or duration it declares.
    /// `afterFrames` frames were delivered before the end.
    case truncated(afterFrames: Int, detail: String)
    /// A frame size beyond `VideoReadingOptions`' limits (or zero), found in the header or in a frame before
    /// its pixels are allocated.
    case tooLarge(width: Int, height: Int)
    /// More frames than `VideoReadingOptions.maximumFrameCount`, or too many packets without a frame.
    case tooManyFrames(String)
    /// A call that breaks the contract: a frame of the wrong size or format, timestamps that do not increase,
    /// an odd frame size for the encoder, an option out of range, a writer used after `finish()`.
    case invalidArgument(String)
    /// The output file name's extension names no container, or one that cannot hold the codec.
    case unsupportedContainer(String)
    /// The output file could not be created or written.
    case cannotWrite(path: String, reason: String)
    /// The encoder or the muxer failed.
    case encodingFailed(String)
    /// FFmpeg could not allocate memory.
    case outOfMemory(String)
}

extension VideoIOError: CustomStringConvertible {
    /// A one-line message for people, with the file, value or limit concerned.
    public var description: String {
        switch self {
        case .fileNotFound(let path): return "cannot read \(path): no such file"
        case .cannotRead(let path, let reason): return "cannot read \(path): \(reason)"
        case .notARegularFile(let path, let kind): return "cannot read \(path): it is \(kind), not a regular file"
        case .notAVideo(let detail): return "not a video: \(detail)"
        case .noVideoStream: return "the file has no video stream"
        case .unsupportedCodec(let detail): return "unsupported codec: \(detail)"
        case .corrupt(let frames, let detail): return "corrupt video after \(frames) frames: \(detail)"
        case .truncated(let frames, let detail): return "truncated video after \(frames) frames: \(detail)"
        case .tooLarge(let width, let height):
            return "video frames of \(width) x \(height) pixels are beyond the limits (VideoReadingOptions)"
        case .tooManyFrames(let detail): return "too many frames: \(detail)"
        case .invalidArgument(let detail): return "invalid argument: \(detail)"
        case .unsupportedContainer(let detail): return "unsupported container: \(detail)"
        case .cannotWrite(let path, let reason): return "cannot write \(path): \(reason)"
        case .encodingFailed(let detail): return "encoding failed: \(detail)"
        case .outOfMemory(let detail): return "out of memory: \(detail)"
        }
    }
}

extension VideoIOError: LocalizedError {
    /// The same message as `description`.
    public var errorDescription: String? { description }
}
