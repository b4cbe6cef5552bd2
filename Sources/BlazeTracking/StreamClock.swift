/// Timestamps for `FaceTracker.process` from a container's: strictly increasing, as the tracker requires.
///
/// Video files do not always give them so: a damaged file repeats a frame's time or goes back in time, and
/// a time may be missing (NaN). The clock passes each good time through, and puts any other frame 1 ms after
/// the one before it, so that a stream never stops on `FaceTrackerError.nonIncreasingTimestamp`. It also
/// keeps the first frame's time as the stream's `origin` (for an annotated video that starts at 0).
///
/// ```swift
/// var clock = StreamClock()
/// while let frame = try reader.nextFrame() {
///     try frame.image.withView { try tracker.process($0, timestamp: clock.time(for: frame.time), into: &result) }
/// }
/// ```
///
/// A value type with no lock: one per stream.
public struct StreamClock: Hashable, Sendable {
    /// The first frame's time in seconds (0 before the first frame).
    public private(set) var origin = 0.0
    private var last: Double?

    /// A clock before its first frame.
    public init() {}

    /// The time to give the tracker for a frame whose container time is `containerTime` (seconds): that time, or
    /// 1 ms after the previous frame's when it is not finite or not after it.
    /// - Parameter containerTime: the frame's time in the container, in seconds (NaN when missing).
    /// - Returns: a finite time in seconds, after the previous one returned.
    public mutating func time(for containerTime: Double) -> Double {
        var time = containerTime.isFinite ? containerTime : (last ?? 0) + 0.001
        if let last { time = max(time, last + 0.001) } else { origin = time }
        last = time
        return time
    }
}
