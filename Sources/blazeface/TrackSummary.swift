import BlazeTracking
import Foundation

/// The end-of-run summary of `blazeface track`: the IDs seen, how long each was on screen, frames, speed and
/// peak memory.
struct TrackSummary {
    /// Per ID: the time of the first and the last frame it was on, and on how many frames (processed or
    /// carried) it was.
    struct Appearance {
        var first: Double
        var last: Double
        var frames: Int
    }

    /// The container's frame rate, for the length of a single frame.
    let frameRate: Double?
    private(set) var appearances: [Int: Appearance] = [:]
    private(set) var frames = 0
    /// Frames the tracker processed (all of them, or one in `--every`).
    private(set) var processedFrames = 0
    private var firstTime: Double?
    private var lastTime = 0.0
    private let start = Date()

    init(frameRate: Double?) { self.frameRate = frameRate }

    mutating func add(_ result: FaceTrackingResult, time: Double) {
        frames += 1
        if result.processed { processedFrames += 1 }
        if firstTime == nil { firstTime = time }
        lastTime = time
        for face in result.faces {
            appearances[face.id, default: Appearance(first: time, last: time, frames: 0)].last = time
            appearances[face.id]?.frames += 1
        }
    }

    /// One frame's duration: the container's rate, else the mean spacing of the frames read, else 1/30 s.
    var frameDuration: Double {
        if let frameRate, frameRate > 0 { return 1 / frameRate }
        if frames > 1, let firstTime { return (lastTime - firstTime) / Double(frames - 1) }
        return 1.0 / 30
    }

    /// Time on screen of an ID: from the start of the first frame it was on to the end of the last (gaps
    /// within the hold included).
    func timeOnScreen(_ appearance: Appearance) -> Double { appearance.last - appearance.first + frameDuration }

    /// The video's length as read: from the first frame's time to the end of the last frame.
    var videoSeconds: Double { firstTime.map { lastTime - $0 + frameDuration } ?? 0 }

    /// Each ID's appearance, by ID: time on screen, the start of its first and the end of its last frame (seconds
    /// of the stream, as `time` in the JSON lines) and its frames; what the text summary says, as values.
    var tracks: [VideoOutcome.Track] {
        appearances.keys.sorted().compactMap { id in
            appearances[id].map { a in
                VideoOutcome.Track(id: id, seconds: rounded(timeOnScreen(a)), first: rounded(a.first),
                                   last: rounded(a.last + frameDuration), frames: a.frames)
            }
        }
    }

    private func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

    /// The summary's lines.
    func lines(metrics: FaceTrackerMetrics) -> [String] {
        let seconds = Date().timeIntervalSince(start)
        let fps = seconds > 0 ? Double(frames) / seconds : 0
        let video = videoSeconds
        var out = ["\(frames) frames (\(metrics.framesProcessed) processed), \(String(format: "%.2f", video)) s of video "
                   + "in \(String(format: "%.2f", seconds)) s: \(String(format: "%.1f", fps)) fps, "
                   + "\(String(format: "%.1f", seconds > 0 ? video / seconds : 0))x real time",
                   "tracker: \(String(format: "%.1f", metrics.effectiveFramesPerSecond)) fps in process(), "
                   + "\(metrics.detectorRuns) detector runs, \(metrics.meshRuns) mesh runs (detector "
                   + "\(String(format: "%.2f", metrics.detectSeconds)) s, mesh \(String(format: "%.2f", metrics.landmarksSeconds)) s, "
                   + "smoothing \(String(format: "%.2f", metrics.smoothingSeconds)) s, attributes "
                   + "\(String(format: "%.2f", metrics.attributesSeconds)) s, in all \(String(format: "%.2f", metrics.totalSeconds)) s); peak memory "
                   + Format.bytes(FaceTrackerMetrics.peakResidentBytes)]
        let ids = appearances.keys.sorted()
        out.append("\(ids.count) ID\(ids.count == 1 ? "" : "s") seen" + (ids.isEmpty ? "" : ":"))
        for id in ids {
            guard let a = appearances[id] else { continue }
            out.append("  ID \(id): \(String(format: "%.2f", timeOnScreen(a))) s on screen "
                       + "(\(String(format: "%.2f", a.first))-\(String(format: "%.2f", a.last + frameDuration)) s), "
                       + "on \(a.frames) frames")
        }
        return out
    }
}
