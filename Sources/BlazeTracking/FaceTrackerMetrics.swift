import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a tracker has done so far (`FaceTracker.metrics`): counts, where the time went, memory.
public struct FaceTrackerMetrics: Hashable, Sendable {
    /// Frames given to `process` (rejected frames not counted).
    public var framesReceived = 0
    /// Frames processed (not skipped by the frame interval).
    public var framesProcessed = 0
    /// Processed frames on which the detector ran.
    public var detectorRuns = 0
    /// Mesh inferences (one per followed face and per new detection).
    public var meshRuns = 0
    /// IDs given so far.
    public var tracksStarted = 0
    /// Seconds of wall time spent in the detector on the processed frames.
    public var detectSeconds = 0.0
    /// Seconds of wall time spent computing meshes: of followed faces and of new detections.
    public var landmarksSeconds = 0.0
    /// Seconds of wall time spent on each face's attributes (head pose, expression, the hook, gestures).
    public var attributesSeconds = 0.0
    /// Seconds of wall time spent smoothing points and boxes.
    public var smoothingSeconds = 0.0
    /// Seconds of wall time inside `process` (all stages, association and bookkeeping, skipped frames).
    public var totalSeconds = 0.0

    /// Every count and time 0.
    public init() {}

    /// Processed frames per second of time spent in `process`: the tracker's own throughput, excluding the time
    /// the caller spends between frames (decoding, drawing).
    public var effectiveFramesPerSecond: Double {
        totalSeconds > 0 ? Double(framesProcessed) / totalSeconds : 0
    }

    /// The process's peak resident memory so far, in bytes (getrusage's `ru_maxrss`; 0 where unavailable).
    public static var peakResidentBytes: Int {
        #if canImport(Glibc) || canImport(Darwin)
        var usage = rusage()
        #if canImport(Darwin)
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { return 0 }
        return Int(usage.ru_maxrss)            // bytes on Darwin
        #else
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        return Int(usage.ru_maxrss) * 1024     // kilobytes on Linux
        #endif
        #else
        return 0
        #endif
    }
}

/// A monotonic clock in seconds (no allocation).
enum Clock {
    @inline(__always)
    static func now() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) * 1e-9
    }
}
