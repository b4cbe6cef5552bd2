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
    /// Frames per `denominator` seconds.
    public var numerator: Int
    /// Seconds per `numerator` frames (1 for integer rates).
    public var denominator: Int

    /// A rate of `numerator / denominator` frames per second.
    /// - Parameters:
    ///   - numerator: frames, such as 30000.
    ///   - denominator: seconds, such as 1001.
    public init(numerator: Int, denominator: Int = 1) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// An integer rate.
    /// - Parameter framesPerSecond: frames per second, such as 30.
    public init(_ framesPerSecond: Int) {
        self.init(numerator: framesPerSecond, denominator: 1)
    }

    /// The rate in frames per second, such as 29.97.
    public var framesPerSecond: Double { Double(numerator) / Double(denominator) }
}

/// How a `VideoWriter` encodes.
public struct VideoWriterOptions: Hashable, Sendable {
    /// The encoder (default `.automatic`: H.264 where the system's FFmpeg has libx264, else MPEG-4 Part 2).
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

    /// Creates options. Each parameter sets the property of the same name; the defaults give 30 frames per
    /// second, one tick per frame, each codec's default quality, a key frame every 60 frames, one encoder thread,
    /// RGB frames and no display matrix.
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
