/// What the container says about a video stream.
public struct VideoInfo: Hashable, Sendable {
    /// Stored frame width in pixels (before orientation).
    public var width: Int
    /// Stored frame height in pixels (before orientation).
    public var height: Int
    /// How the stored frames are shown upright, from the stream's display matrix (`.up` without one). The
    /// reader reports it in every frame's `ImageBuffer.orientation` and never rotates the pixels.
    public var orientation: ImageOrientation
    /// Average frames per second, when the container says.
    public var frameRate: Double?
    /// Duration in seconds, when the container says.
    public var duration: Double?
    /// The number of frames the container declares (MP4 and AVI do; Matroska does not).
    public var frameCount: Int?
    /// Seconds per tick of the stream's timestamps (its time base), as a fraction.
    public var timeBase: (numerator: Int, denominator: Int) { (timeBaseNumerator, timeBaseDenominator) }
    /// FFmpeg's name of the codec ("h264", "hevc", "mpeg4", "vp9" ...).
    public var codecName: String
    /// FFmpeg's name of the container format ("mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm", "avi" ...).
    public var containerName: String

    var timeBaseNumerator: Int
    var timeBaseDenominator: Int

    /// Width of the upright (displayed) frames.
    public var uprightWidth: Int { orientation.swapsDimensions ? height : width }
    /// Height of the upright (displayed) frames.
    public var uprightHeight: Int { orientation.swapsDimensions ? width : height }
}

/// One decoded frame.
public struct VideoFrame: Hashable, Sendable {
    /// The pixels as stored in the stream (tightly packed, in `VideoReadingOptions.pixelFormat`), with the
    /// stream's orientation in `image.orientation`.
    public var image: ImageBuffer
    /// Presentation time in seconds: the frame's best-effort timestamp (its pts, or FFmpeg's estimate from
    /// the decoding timestamps) times the stream's time base, as the container has it (not shifted to start
    /// at 0). When the container gives none (`hasContainerTime` false), the previous frame's time plus one
    /// frame period.
    public var time: Double
    /// False when `time` was estimated from the frame rate.
    public var hasContainerTime: Bool
    /// 0, 1, 2 ... in delivery (display) order.
    public var index: Int
}
