import BlazeTracking
import BlazeVideoIO
import Foundation

/// One video's line of `blazeface track --files-from FILE|- --json-lines`: its summary (the IDs seen and
/// their time on screen, as the text summary gives them) and where its per-frame lines are, or why it failed.
/// A video damaged part-way has both: the summary of the frames before the damage, and `error`.
struct VideoOutcome: ImageOutcome {
    /// One ID's appearance in the video.
    struct Track: Codable, Equatable, Sendable {
        /// The face's ID, unique within the video.
        var id: Int
        /// Seconds on screen: from the start of its first frame to the end of its last (gaps in the hold included).
        var seconds: Double
        /// The stream time (seconds from the first frame) at which it appeared, and at which it was last on screen.
        var first: Double
        var last: Double
        /// Frames it was on.
        var frames: Int
    }

    var path: String
    /// Frames read, and of those, processed by the tracker (`--every`).
    var frames: Int?
    var processedFrames: Int?
    /// The length of video read, in seconds.
    var seconds: Double?
    /// The IDs seen, in order.
    var ids: [Track]?
    /// The file holding the video's per-frame JSON lines (those of `track VIDEO --json-lines`).
    var framesFile: String?
    var error: String?

    init(path: String, error: String) {
        self.path = path
        self.error = error
    }

    init(path: String, summary: TrackSummary, framesFile: String, error: String?) {
        self.path = path
        frames = summary.frames
        processedFrames = summary.processedFrames
        seconds = (summary.videoSeconds * 1000).rounded() / 1000
        ids = summary.tracks
        self.framesFile = framesFile
        self.error = error
    }

    var summary: String? {
        guard error == nil, let ids else { return nil }
        return "\(ids.count) ID\(ids.count == 1 ? "" : "s")"
    }

    var tableLines: [String] { [path + ": " + (error ?? summary ?? "")] }
}

extension TrackCommand {
    /// `--files-from`: the videos one after the other on one tracker (its models loaded once, reset between
    /// videos), each video's line on standard output when it is done, in input order; exit status 0 at the end
    /// of the input, whatever failed (each failure is a line with "error").
    func runFilesFrom(_ list: String, outDir: String) throws {
        signal(SIGPIPE, SIG_IGN)  // a reader that goes away ends the run quietly, not with a signal
        try reportingFailures {
            let reader = try LineSource(list)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: outDir, isDirectory: &isFolder), !isFolder.boolValue {
                throw CommandFailure("--out-dir \(outDir): not a folder")
            }
            do { try FileManager.default.createDirectory(atPath: outDir, withIntermediateDirectories: true) }
            catch { throw CommandFailure("--out-dir \(outDir): cannot create the folder (\(error.localizedDescription))") }
            // One worker: the tracker is only ever used by the batch's single thread.
            nonisolated(unsafe) let tracker = try FaceTracker(options: trackerOptions, modelsDirectory: modelsDir)
            let stream = StreamingBatch<VideoOutcome>(source: { reader.next() }, ordered: true, window: 1)
            stream.run(workers: 1) { _, path in
                tracker.reset(asNewTracker: true)  // IDs from 1 and frames from 0, as a run of its own
                return track(path, with: tracker, framesFile: Self.framesFile(for: path, in: outDir))
            }
        }
    }

    /// One video through the tracker, its frame lines written to `framesFile` (aside first, then renamed, so
    /// that a file with the final name is always whole, and a second run on the same video replaces it whole).
    private func track(_ path: String, with tracker: FaceTracker, framesFile: String) -> VideoOutcome {
        let reader: VideoReader
        do { reader = try VideoReader(contentsOf: path, options: VideoReadingOptions(pixelFormat: .i420, threadCount: threads)) }
        catch { return VideoOutcome(path: path, error: Self.message(for: error)) }
        let info = reader.info
        let frames: FrameSource
        do { frames = try FrameSource(reader, readAhead: readAhead) }
        catch { return VideoOutcome(path: path, error: Self.message(for: error)) }
        let partial = framesFile + ".\(getpid()).partial"  // two runs on one video (a retried task) never share it
        let descriptor = open(partial, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            return VideoOutcome(path: path, error: "cannot write \(partial): \(String(cString: strerror(errno)))")
        }
        let lines = TrackLines(landmarks: landmarks, attributes: attributes, rotations: tryRotations)
        var writeFailed = false
        var summary = TrackSummary(frameRate: info.frameRate)
        var noProgress: TrackProgress?
        let failure = follow(path, frames, tracker, nil, &summary, &noProgress) { result, time in
            if !writeFailed && !lines.write(result, time: time, to: descriptor) { writeFailed = true }
        }
        let closed = close(descriptor) == 0
        var message = failure.map { Self.message(for: $0) }
        if writeFailed || !closed {
            message = message ?? "cannot write \(partial): \(String(cString: strerror(errno)))"
        } else if rename(partial, framesFile) != 0 {
            message = message ?? "cannot rename \(partial): \(String(cString: strerror(errno)))"
        }
        return VideoOutcome(path: path, summary: summary, framesFile: framesFile, error: message)
    }

    /// Where a video's frame lines go: its name (at most 80 bytes) and a hash of its whole path as given, so
    /// that two videos of the same name in different folders never share a file.
    static func framesFile(for path: String, in outDir: String) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325  // FNV-1a, 64 bits
        for byte in path.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        let name = (path as NSString).lastPathComponent
        let stem = String(decoding: Array((name as NSString).deletingPathExtension.utf8.prefix(80)), as: UTF8.self)
        let hex = String(hash, radix: 16)
        return (outDir as NSString).appendingPathComponent(
            "\(stem.isEmpty ? "video" : stem).\(String(repeating: "0", count: 16 - hex.count) + hex).jsonl")
    }
}
