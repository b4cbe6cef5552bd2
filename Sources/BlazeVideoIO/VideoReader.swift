@_exported import BlazeImaging
internal import CBlazeVideoCodecs

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a video file frame by frame through FFmpeg's libraries (libavformat, libavcodec, libswscale).
///
/// Containers: MP4, MOV, Matroska/WebM, AVI, and FLV, MPEG-TS/PS, ASF, Ogg, IVF, NUT and raw H.264/HEVC/MPEG-4
/// streams; nothing that references other files or URLs. Codecs: whatever the system's FFmpeg decodes (H.264,
/// HEVC, MPEG-4 Part 2, VP8/VP9, AV1 with dav1d or libaom ...).
///
/// YUV: with `VideoReadingOptions.pixelFormat` `.i420`, frames come as the decoder made them (yuv420p streams,
/// most H.264, HEVC, VP9 and AV1 video: copied, not converted; others converted to yuv420p by libswscale), with
/// the stream's matrix and range in `image.colorSpace`: every pipeline samples such a frame directly, with no
/// full-frame RGB conversion.
///
/// Memory is bounded: one converted frame buffer is reused from frame to frame (a frame the caller keeps is
/// copied on the next read, by `ImageBuffer`'s copy-on-write), and FFmpeg holds a few decoded frames. Frame
/// sizes are checked against `VideoReadingOptions` before any buffer of that size is allocated.
///
/// Orientation: the stream's display matrix (phones record "rotate 90°" there) is reported in
/// `info.orientation` and in every frame's `image.orientation`; the pixels are never rotated. BlazeFace and
/// the other pipelines take oriented views and report upright coordinates.
///
/// Damage: frames are delivered up to the last good one; then `nextFrame()` throws `.corrupt` (damaged data)
/// or `.truncated` (the data ends before the container says it does), and returns nil on every later call.
/// A stream that ends normally returns nil.
///
/// Not thread-safe: use a reader from one thread at a time (it may move between threads). Readers are
/// independent of each other.
public final class VideoReader {
    /// The container's description of the video stream.
    public let info: VideoInfo
    /// The options the reader was created with.
    public let options: VideoReadingOptions
    /// Frames delivered so far.
    public private(set) var framesRead = 0

    private let reader: OpaquePointer
    /// The bytes of `init(data:)`, owned by the reader (FFmpeg reads them in place).
    private let memory: UnsafeMutableRawBufferPointer?
    private let pixels: blz_video_pixels
    /// The converted frame (internal for `nextFrame(into:)`, in VideoReader+Recycling.swift).
    var buffer: ImageBuffer
    private var ended = false

    /// Opens the file at `path` and reads its header. The file is opened without blocking: a FIFO or a device
    /// is refused before anything is read.
    /// - Parameters:
    ///   - path: the video file.
    ///   - options: the delivered pixel format, the limits, decoder threads and what damage does.
    /// - Throws: `VideoIOError.fileNotFound`, `.cannotRead`, `.notARegularFile`, `.notAVideo`, `.noVideoStream`,
    ///   `.unsupportedCodec`, `.corrupt`, `.truncated` (the header ends early; an MP4 cut before its index),
    ///   `.tooLarge`, `.invalidArgument` (options out of range).
    public convenience init(contentsOf path: String, options: VideoReadingOptions = .init()) throws(VideoIOError) {
        try self.init(options: options, memory: nil, path: path)
    }

    /// Opens a video held in memory (the bytes are copied once). Throws as `init(contentsOf:options:)`.
    /// - Parameters:
    ///   - data: the whole file.
    ///   - options: the delivered pixel format, the limits, decoder threads and what damage does.
    /// - Throws: as `init(contentsOf:options:)`, less the errors of opening a file (`.fileNotFound`,
    ///   `.cannotRead`, `.notARegularFile`).
    public convenience init(data: [UInt8], options: VideoReadingOptions = .init()) throws(VideoIOError) {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 64)
        data.withUnsafeBytes { memory.copyMemory(from: $0) }
        try self.init(options: options, memory: UnsafeMutableRawBufferPointer(rebasing: memory[..<data.count]),
                      path: nil)
    }

    private init(options: VideoReadingOptions, memory: UnsafeMutableRawBufferPointer?, path: String?) throws(VideoIOError) {
        func release() { memory.map { UnsafeMutableRawBufferPointer(start: $0.baseAddress, count: 1).deallocate() } }
        let pixels: blz_video_pixels
        switch options.pixelFormat {
        case .rgb8: pixels = .BLZ_VIDEO_PIXELS_RGB24
        case .rgba8: pixels = .BLZ_VIDEO_PIXELS_RGBA
        case .bgra8: pixels = .BLZ_VIDEO_PIXELS_BGRA
        case .i420: pixels = .BLZ_VIDEO_PIXELS_I420
        case .argb8, .gray8, .nv12, .nv21:
            release()
            throw .invalidArgument("a video reader delivers rgb8, rgba8, bgra8 or i420, not \(options.pixelFormat)")
        }
        guard options.maximumWidth > 0, options.maximumHeight > 0, options.maximumPixelCount > 0,
              options.maximumFrameCount >= 0, options.maximumPacketsWithoutFrame > 0, options.threadCount >= 0 else {
            release()
            throw .invalidArgument("VideoReadingOptions: limits must be positive")
        }
        var limits = blz_video_limits()
        limits.max_width = UInt32(clamping: options.maximumWidth)
        limits.max_height = UInt32(clamping: options.maximumHeight)
        limits.max_pixels = UInt64(options.maximumPixelCount)
        limits.max_frames = UInt64(options.maximumFrameCount)
        limits.max_packets_without_frame = UInt32(clamping: options.maximumPacketsWithoutFrame)
        limits.threads = UInt32(clamping: options.threadCount)
        limits.strict = options.stopsAtDamage ? 1 : 0
        guard let reader = blz_video_reader_create(&limits) else {
            release()
            throw .outOfMemory("cannot create a video reader")
        }
        let status: blz_video_status
        if let path {
            status = blz_video_reader_open_file(reader, path)
        } else {
            status = blz_video_reader_open_memory(reader, memory?.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                                  memory?.count ?? 0)
        }
        var raw = blz_video_info()
        if status == .BLZ_VIDEO_OK { _ = blz_video_reader_info(reader, &raw) }
        guard status == .BLZ_VIDEO_OK else {
            let error = Self.error(status, reader, path: path ?? "<memory>", frames: 0)
            blz_video_reader_destroy(reader)
            release()
            throw error
        }
        self.reader = reader
        self.memory = memory
        self.options = options
        self.pixels = pixels
        self.info = VideoInfo(raw)
        self.buffer = ImageBuffer(width: 0, height: 0, pixelFormat: options.pixelFormat, pixels: [],
                                  orientation: info.orientation)
    }

    deinit {
        blz_video_reader_destroy(reader)
        memory.map { UnsafeMutableRawBufferPointer(start: $0.baseAddress, count: 1).deallocate() }
    }

    /// The next frame, or nil after the last one.
    ///
    /// The returned image shares storage with the reader's buffer until the next call, which reuses that
    /// buffer when the caller no longer holds the image (and copies it otherwise).
    /// - Returns: the frame (pixels, time in seconds, index), or nil at the end.
    /// - Throws: `.corrupt`, `.truncated`, `.tooLarge`, `.tooManyFrames` once, after the frames before the
    ///   problem; later calls return nil.
    public func nextFrame() throws(VideoIOError) -> VideoFrame? {
        guard let (time, hasTime, index) = try decodeNext() else { return nil }
        return VideoFrame(image: buffer, time: time, hasContainerTime: hasTime, index: index)
    }

    /// Decodes the next frame and calls `body` with a view of the reader's buffer (no copy), or returns nil
    /// after the last frame. The view is valid only inside `body`.
    /// - Parameter body: reads the frame's view, its time in seconds and its index; the view is valid only during
    ///   the call.
    /// - Returns: what `body` returns, or nil after the last frame.
    /// - Throws: as `nextFrame()`, or what `body` throws.
    public func withNextFrame<R>(_ body: (ImageView, _ time: Double, _ index: Int) throws -> R) throws -> R? {
        guard let (time, _, index) = try decodeNext() else { return nil }
        return try buffer.withView { view in try body(view, time, index) }
    }

    func decodeNext() throws(VideoIOError) -> (Double, Bool, Int)? {
        guard !ended else { return nil }
        var frame = blz_video_frame()
        let status = blz_video_reader_next(reader, &frame)
        guard status == .BLZ_VIDEO_OK else {
            ended = true
            if status == .BLZ_VIDEO_END { return nil }
            throw Self.error(status, reader, path: "", frames: framesRead)
        }
        let width = Int(frame.width), height = Int(frame.height)
        let bytesPerRow = width * options.pixelFormat.bytesPerPixel
        // The frame's size was checked against the limits, so the byte count is small and cannot fail.
        let count = (try? ImageView.byteCount(width: width, height: height, bytesPerRow: bytesPerRow,
                                              pixelFormat: options.pixelFormat)) ?? 0
        buffer.colorSpace = YUVColorSpace(matrix: frame.color_matrix == 709 ? .bt709 : .bt601,
                                          range: frame.full_range != 0 ? .full : .limited)
        if buffer.width != width || buffer.height != height || buffer.pixels.count != count {
            buffer.pixels = []  // release the old frame before the new one is allocated
            buffer.pixels = [UInt8](repeating: 0, count: count)
            buffer.width = width
            buffer.height = height
        }
        let converted = buffer.pixels.withUnsafeMutableBufferPointer { target in
            blz_video_reader_convert(reader, pixels, target.baseAddress, bytesPerRow, target.count)
        }
        guard converted == .BLZ_VIDEO_OK else {
            ended = true
            throw Self.error(converted, reader, path: "", frames: framesRead)
        }
        framesRead += 1
        return (frame.time, frame.has_time != 0, Int(frame.index))
    }

    private static func error(_ status: blz_video_status, _ reader: OpaquePointer, path: String, frames: Int) -> VideoIOError {
        let message = String(cString: blz_video_reader_message(reader))
        switch status {
        case .BLZ_VIDEO_CANNOT_OPEN:
            let code = blz_video_reader_errno(reader)
            return code == ENOENT ? .fileNotFound(path: path) : .cannotRead(path: path, reason: message)
        case .BLZ_VIDEO_NOT_REGULAR_FILE: return .notARegularFile(path: path, kind: message)
        case .BLZ_VIDEO_NOT_A_VIDEO: return .notAVideo(message)
        case .BLZ_VIDEO_NO_VIDEO_STREAM: return .noVideoStream
        case .BLZ_VIDEO_UNSUPPORTED_CODEC: return .unsupportedCodec(message)
        case .BLZ_VIDEO_CORRUPT: return .corrupt(afterFrames: frames, detail: message)
        case .BLZ_VIDEO_TRUNCATED: return .truncated(afterFrames: frames, detail: message)
        case .BLZ_VIDEO_TOO_LARGE:
            var width: Int32 = 0, height: Int32 = 0
            blz_video_reader_rejected_size(reader, &width, &height)
            return .tooLarge(width: Int(width), height: Int(height))
        case .BLZ_VIDEO_TOO_MANY_FRAMES: return .tooManyFrames(message)
        case .BLZ_VIDEO_OUT_OF_MEMORY: return .outOfMemory(message)
        case .BLZ_VIDEO_OK, .BLZ_VIDEO_END, .BLZ_VIDEO_INVALID_ARGUMENT, .BLZ_VIDEO_ENCODING_FAILED,
             .BLZ_VIDEO_WRITE_FAILED, .BLZ_VIDEO_UNSUPPORTED_CONTAINER:
            return .invalidArgument("internal error: " + message)
        }
    }
}

extension VideoInfo {
    init(_ raw: blz_video_info) {
        var orientation = ImageOrientation.up
        if raw.has_display_matrix != 0 {
            let m = raw.display_matrix
            orientation = ImageOrientation(displayMatrix: m.0, m.1, m.2, m.3) ?? .up
        }
        self.init(
            width: Int(raw.width), height: Int(raw.height), orientation: orientation,
            frameRate: raw.frame_rate > 0 ? raw.frame_rate : nil,
            duration: raw.duration >= 0 ? raw.duration : nil,
            frameCount: raw.frame_count >= 0 ? Int(raw.frame_count) : nil,
            codecName: withUnsafeBytes(of: raw.codec_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) },
            containerName: withUnsafeBytes(of: raw.container_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            },
            timeBaseNumerator: Int(raw.time_base_num), timeBaseDenominator: Int(raw.time_base_den))
    }
}
