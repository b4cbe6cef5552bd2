internal import CBlazeVideoCodecs

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes frames to a video file: H.264 (libx264) or MPEG-4 Part 2, in the container the file's extension
/// names (.mp4, .mov, .m4v, .mkv, .avi).
///
/// `finish()` flushes the encoder and writes the container's index (an MP4's moov): call it at the end, and
/// also when the work that feeds the writer fails, so that the file is valid up to the last frame appended.
/// A writer released without `finish()` finishes the file in `deinit`, ignoring errors. After an error in
/// `append`, `finish()` still finalizes the frames written before it.
///
/// Not thread-safe: use a writer from one thread at a time. Writers are independent of each other and of readers:
/// several may run at once on several threads.
public final class VideoWriter {
    /// The file being written, as given to `init`.
    public let path: String
    /// Stored frame width, in pixels; every frame appended must have it.
    public let width: Int
    /// Stored frame height, in pixels; every frame appended must have it.
    public let height: Int
    /// The options the writer was created with.
    public let options: VideoWriterOptions
    /// The encoder in use: "libx264" or "mpeg4".
    public let codecName: String
    /// Frames appended so far.
    public private(set) var framesWritten = 0

    private let writer: OpaquePointer
    private let ticksPerSecond: Int
    private var lastTick: Int64?
    private var finished = false

    /// Creates (or truncates) the file at `path` and opens the encoder.
    /// - Parameters:
    ///   - path: the file to create; its extension names the container (.mp4, .mov, .m4v, .mkv, .avi).
    ///   - width: the stored frame width, in pixels; even.
    ///   - height: the stored frame height, in pixels; even.
    ///   - options: codec, frame rate, time base, quality, key frames, threads, pixel format and orientation.
    /// - Throws: `VideoIOError.invalidArgument` (odd or zero size, a bad rate or pixel format),
    ///   `.unsupportedCodec` (`.h264` without libx264), `.unsupportedContainer` (unknown extension, or one that
    ///   cannot hold the codec), `.cannotWrite`, `.encodingFailed`.
    public init(path: String, width: Int, height: Int, options: VideoWriterOptions = .init()) throws(VideoIOError) {
        var config = blz_video_writer_config()
        switch options.pixelFormat {
        case .rgb8: config.input = .BLZ_VIDEO_PIXELS_RGB24
        case .rgba8: config.input = .BLZ_VIDEO_PIXELS_RGBA
        case .bgra8: config.input = .BLZ_VIDEO_PIXELS_BGRA
        case .argb8, .gray8, .nv12, .nv21, .i420:
            throw .invalidArgument("a video writer takes rgb8, rgba8 or bgra8, not \(options.pixelFormat)")
        }
        switch options.codec {
        case .automatic: config.codec = .BLZ_VIDEO_CODEC_AUTOMATIC
        case .h264: config.codec = .BLZ_VIDEO_CODEC_H264
        case .mpeg4: config.codec = .BLZ_VIDEO_CODEC_MPEG4
        }
        let rate = options.frameRate
        guard rate.numerator > 0, rate.denominator > 0, rate.numerator <= Int32.max, rate.denominator <= Int32.max
        else { throw .invalidArgument("the frame rate must be a positive fraction") }
        let ticks = options.ticksPerSecond ?? rate.numerator
        let tickDenominator = options.ticksPerSecond == nil ? rate.denominator : 1
        guard ticks > 0, ticks <= Int32.max else { throw .invalidArgument("ticksPerSecond must be positive") }
        guard width > 0, height > 0, width <= 16384, height <= 16384 else {
            throw .invalidArgument("the frame size \(width) x \(height) is not 1 ... 16384 pixels")
        }
        guard options.keyFrameInterval > 0, options.threadCount >= 0 else {
            throw .invalidArgument("keyFrameInterval must be positive and threadCount not negative")
        }
        config.width = UInt32(width)
        config.height = UInt32(height)
        config.time_base_num = Int32(tickDenominator)
        config.time_base_den = Int32(ticks)
        config.frame_rate_num = Int32(rate.numerator)
        config.frame_rate_den = Int32(rate.denominator)
        config.key_frame_interval = Int32(clamping: options.keyFrameInterval)
        config.threads = UInt32(clamping: options.threadCount)
        let usesH264 = options.codec == .h264 || options.codec == .automatic
        let quality = options.quality ?? (usesH264 ? 20 : 3)
        config.quality = Int32(clamping: quality)
        if options.orientation != .up {
            let m = options.orientation.displayMatrix
            config.has_display_matrix = 1
            config.display_matrix = (Int32(m.a), Int32(m.b), Int32(m.c), Int32(m.d))
        }
        var status = blz_video_status.BLZ_VIDEO_OK
        var message = [CChar](repeating: 0, count: 512)
        var systemError: Int32 = 0
        let created = blz_video_writer_open(path, &config, &status, &message, message.count, &systemError)
        guard let created else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw Self.error(status, text, path: path)
        }
        self.writer = created
        self.path = path
        self.width = width
        self.height = height
        self.options = options
        self.ticksPerSecond = ticks
        self.codecName = String(cString: blz_video_writer_codec_name(created))
        // The time base is tickDenominator / ticks seconds per tick.
        self.secondsPerTick = Double(tickDenominator) / Double(ticks)
    }

    private let secondsPerTick: Double

    deinit {
        blz_video_writer_destroy(writer)
    }

    /// Encodes one frame, shown at `time` seconds (nil: `framesWritten` frame periods). The view's stored
    /// pixels are written as they are (its orientation is ignored; set `options.orientation` for the file).
    /// - Parameters:
    ///   - frame: `width` x `height` pixels in `options.pixelFormat`; read during the call only.
    ///   - time: when the frame is shown, in seconds from the start; nil for `framesWritten` frame periods.
    /// - Throws: `.invalidArgument` for a frame of another size or pixel format, a time that does not come
    ///   after the previous frame's by at least one tick, or a finished writer; `.encodingFailed`,
    ///   `.cannotWrite`.
    public func append(_ frame: ImageView, time: Double? = nil) throws(VideoIOError) {
        guard !finished else { throw .invalidArgument("the writer is finished") }
        guard frame.width == width, frame.height == height, frame.pixelFormat == options.pixelFormat else {
            throw .invalidArgument("a \(frame.width) x \(frame.height) \(frame.pixelFormat) frame for a "
                                   + "\(width) x \(height) \(options.pixelFormat) video")
        }
        let seconds = time ?? Double(framesWritten) / options.frameRate.framesPerSecond
        let scaled = (seconds / secondsPerTick).rounded()
        guard scaled.isFinite, abs(scaled) < 1e15 else { throw .invalidArgument("the time \(seconds) s is out of range") }
        let tick = Int64(scaled)
        if let lastTick, tick <= lastTick {
            throw .invalidArgument("the time \(seconds) s does not come after the previous frame's")
        }
        let capacity = frame.bytesPerRow * (frame.height - 1) + frame.width * frame.pixelFormat.bytesPerPixel
        let status = blz_video_writer_write(writer, frame.baseAddress.assumingMemoryBound(to: UInt8.self),
                                            frame.bytesPerRow, capacity, tick)
        guard status == .BLZ_VIDEO_OK else {
            throw Self.error(status, String(cString: blz_video_writer_message(writer)), path: path)
        }
        lastTick = tick
        framesWritten += 1
    }

    /// Encodes one frame held in an `ImageBuffer` (see `append(_:time:)`).
    /// - Parameters:
    ///   - frame: `width` x `height` pixels in `options.pixelFormat`.
    ///   - time: when the frame is shown, in seconds from the start; nil for `framesWritten` frame periods.
    /// - Throws: as `append(_:time:)` for a view, and `.invalidArgument` when the buffer's pixels do not match its
    ///   size.
    public func append(_ frame: ImageBuffer, time: Double? = nil) throws(VideoIOError) {
        let result: Result<Void, VideoIOError>
        do {
            result = try frame.withView { view in
                Result { () throws(VideoIOError) in try append(view, time: time) }
            }
        } catch {
            throw .invalidArgument("the frame's pixels do not match its size: \(error)")
        }
        try result.get()
    }

    /// Flushes the encoder, writes the container's trailer and closes the file. Later calls do nothing.
    /// - Throws: `.encodingFailed`, `.cannotWrite` (the first time only).
    public func finish() throws(VideoIOError) {
        guard !finished else { return }
        finished = true
        let status = blz_video_writer_finish(writer)
        guard status == .BLZ_VIDEO_OK else {
            throw Self.error(status, String(cString: blz_video_writer_message(writer)), path: path)
        }
    }

    private static func error(_ status: blz_video_status, _ message: String, path: String) -> VideoIOError {
        switch status {
        case .BLZ_VIDEO_INVALID_ARGUMENT: return .invalidArgument(message)
        case .BLZ_VIDEO_UNSUPPORTED_CODEC: return .unsupportedCodec(message)
        case .BLZ_VIDEO_UNSUPPORTED_CONTAINER: return .unsupportedContainer(message)
        case .BLZ_VIDEO_WRITE_FAILED: return .cannotWrite(path: path, reason: message)
        case .BLZ_VIDEO_OUT_OF_MEMORY: return .outOfMemory(message)
        default: return .encodingFailed(message)
        }
    }
}
