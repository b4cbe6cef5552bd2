import BlazeVideoIO
import Foundation

/// The progress line of `blazeface track` on standard error: frames (of the container's count when it gives
/// one), frames per second and the time left (from the frame count, else the duration). Drawn only when
/// standard error is a terminal (so that logs and pipes get the summary alone), redrawn in place with a
/// carriage return at most ten times a second, and erased at the end.
struct TrackProgress {
    private let total: Int?
    private let duration: Double?
    private let interactive = isatty(STDERR_FILENO) != 0
    private let start = Date()
    private var lastDrawn = Date.distantPast
    private var drawn = false

    init(info: VideoInfo) {
        total = info.frameCount.flatMap { $0 > 0 ? $0 : nil }
        duration = info.duration.flatMap { $0 > 0 ? $0 : nil }
    }

    /// After `frames` frames, the last at `time` seconds from the first.
    mutating func update(frames: Int, time: Double) {
        guard interactive else { return }
        let now = Date()
        guard now.timeIntervalSince(lastDrawn) >= 0.1 else { return }
        lastDrawn = now
        drawn = true
        FileHandle.standardError.write(Data(("\r" + Self.line(frames: frames, time: time, elapsed: now.timeIntervalSince(start),
                                                              total: total, duration: duration) + "\u{1B}[K").utf8))
    }

    /// Erases the line.
    mutating func finish() {
        guard drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        drawn = false
    }

    /// `[#######.............]  120/300 frames  95.2 fps  ETA 0:02`, or without a bar and ETA when neither the
    /// frame count nor the duration is known.
    static func line(frames: Int, time: Double, elapsed: Double, total: Int?, duration: Double?) -> String {
        let fps = elapsed > 0 ? Double(frames) / elapsed : 0
        var fraction: Double?
        if let total { fraction = Double(frames) / Double(total) } else if let duration { fraction = time / duration }
        guard let done = fraction.map({ min(max($0, 0), 1) }) else {
            return "\(frames) frames  \(String(format: "%.1f", fps)) fps"
        }
        let width = 24, filled = Int((done * Double(width)).rounded(.down))
        let bar = "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
        let left = done > 0 ? elapsed * (1 - done) / done : 0
        let seconds = Int(left.rounded())
        let count = total.map { "\(frames)/\($0)" } ?? "\(frames)"
        return "\(bar) \(count) frames  \(String(format: "%.1f", fps)) fps  ETA \(seconds / 60):"
            + "\(seconds % 60 < 10 ? "0" : "")\(seconds % 60)"
    }
}
