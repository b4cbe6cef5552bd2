/// The encoders a `VideoWriter` can use.
public enum VideoCodec: String, Hashable, Sendable, CaseIterable {
    /// H.264 (libx264) when the system's FFmpeg has it, MPEG-4 Part 2 otherwise.
    case automatic
    /// H.264 through libx264 (Debian's libavcodec has it); `.unsupportedCodec` without it.
    case h264
    /// MPEG-4 Part 2 (FFmpeg's own encoder, always there).
    case mpeg4
}

/// A frame rate as a fraction: 30/1, 30000/1001 (29.97) ...
public struct FrameRate: Hashable, Sendable {
    public var numerator: Int
    public var denominator: Int

    public init(numerator: Int, denominator: Int = 1) {
        self.numerator = numerator
        self.denominator = denominator
    }

    public init(_ framesPerSecond: Int) {
        self.init(numerator: framesPerSecond, denominator: 1)
    }

    public var framesPerSecond: Double { Double(numerator) / Double(denominator) }
}

/// How a `VideoWriter` encodes.
public struct VideoWriterOptions: Hashable, Sendable {
    public var codec: VideoCodec
    /// The nominal frame rate, written in the container; frames given without a time are spaced by it.
    public var frameRate: FrameRate
    /// Timestamp ticks per second (the stream's time base is 1 / `ticksPerSecond`). Nil (default): the frame
    /// rate's numerator over its denominator, one tick per frame for integer rates. Give e.g. 90,000 to keep
    /// irregular frame times; each time is rounded to the nearest tick.
    public var ticksPerSecond: Int?
    /// H.264: the constant rate factor, 0 ... 51, lower is better (default 20). MPEG-4: the quantizer,
    /// 1 ... 31, lower is better (default 3).
    public var quality: Int?
    /// Frames between key frames. Default 60.
    public var keyFrameInterval: Int
    /// Encoder threads; 0 lets FFmpeg choose. Default 1.
    public var threadCount: Int
    /// The layout of the frames given to `append`: `.rgb8` (default), `.rgba8` or `.bgra8` (alpha ignored).
    public var pixelFormat: PixelFormat
    /// Written as the stream's display matrix (MP4, MOV, MKV), so that players turn the stored frames; `.up`
    /// (default) writes none.
    public var orientation: ImageOrientation

    public init(
        codec: VideoCodec = .automatic, frameRate: FrameRate = FrameRate(30), ticksPerSecond: Int? = nil,
        quality: Int? = nil, keyFrameInterval: Int = 60, threadCount: Int = 1, pixelFormat: PixelFormat = .rgb8,
        orientation: ImageOrientation = .up
    ) {
        self.codec = codec
        self.frameRate = frameRate
        self.ticksPerSecond = ticksPerSecond
        self.quality = quality
        self.keyFrameInterval = keyFrameInterval
        self.threadCount = threadCount
        self.pixelFormat = pixelFormat
        self.orientation = orientation
    }
}
