/// How a `VideoReader` delivers frames, and the limits it applies to files it did not make.
///
/// Every limit is checked before the memory or work it bounds: a frame size against the container's header
/// and again against each decoded frame (before the frame's pixels are converted), the frame count as frames
/// come out.
public struct VideoReadingOptions: Hashable, Sendable {
    /// The delivered pixels: `.rgb8` (default), `.rgba8`, `.bgra8`, or `.i420`: the decoder's YUV 4:2:0 planes
    /// with the stream's colour space, for the pipelines to sample without an RGB conversion (`VideoReader`).
    /// Other formats are refused by the reader.
    public var pixelFormat: PixelFormat
    /// The widest frame accepted, in stored pixels. Default 8192.
    public var maximumWidth: Int
    /// The tallest frame accepted, in stored pixels. Default 8192.
    public var maximumHeight: Int
    /// The largest `width * height` accepted. Default 8192 x 4320 (8K UHD), about 35 million pixels:
    /// about 106 MB as RGB in the reader's one frame buffer, plus FFmpeg's few decoded frames.
    public var maximumPixelCount: Int
    /// Frames delivered before the stream ends with `VideoIOError.tooManyFrames`. Default 100 million (over
    /// 15 days at 60 frames per second); lower it to bound the work of an untrusted file.
    public var maximumFrameCount: Int
    /// Packets read in a row without a frame coming out (packets of other streams included) before the
    /// stream ends with `.tooManyFrames`. Default 100,000.
    public var maximumPacketsWithoutFrame: Int
    /// Decoder threads; 0 lets FFmpeg choose. Default 1.
    public var threadCount: Int
    /// True (default): any decoding error, or a frame the decoder marks as damaged, ends the stream with
    /// `.corrupt` (or `.truncated` at the end of the data) after the frames before it. False: FFmpeg's error
    /// concealment is used, and damaged frames are delivered as it repaired them.
    public var stopsAtDamage: Bool

    /// Creates options. Each parameter sets the property of the same name; the defaults are RGB frames, 8192 x
    /// 8192 and about 35 million pixels at most, 100 million frames, 100,000 packets without a frame, one decoder
    /// thread, and stopping at damage.
    public init(
        pixelFormat: PixelFormat = .rgb8, maximumWidth: Int = 8192, maximumHeight: Int = 8192,
        maximumPixelCount: Int = 8192 * 4320, maximumFrameCount: Int = 100_000_000,
        maximumPacketsWithoutFrame: Int = 100_000, threadCount: Int = 1, stopsAtDamage: Bool = true
    ) {
        self.pixelFormat = pixelFormat
        self.maximumWidth = maximumWidth
        self.maximumHeight = maximumHeight
        self.maximumPixelCount = maximumPixelCount
        self.maximumFrameCount = maximumFrameCount
        self.maximumPacketsWithoutFrame = maximumPacketsWithoutFrame
        self.threadCount = threadCount
        self.stopsAtDamage = stopsAtDamage
    }
}
