import ArgumentParser
import BlazeFace
import BlazeTracking
import BlazeVideoIO
import Foundation

/// `blazeface track`: faces followed through a video file with stable IDs (BlazeTracking's `FaceTracker` on
/// BlazeVideoIO's `VideoReader`), as JSON lines, an annotated video and a summary.
struct TrackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "track",
        abstract: "Follow faces through a video file, giving each a stable ID.",
        discussion: """
            Reads MP4, MOV, MKV, AVI ... through the system's FFmpeg libraries. Coordinates are pixels of the \
            upright frame (after the stream's rotation metadata), origin top-left.
            --json-lines prints one JSON object per processed frame on stdout, flushed line by line: \
            {"frame": N, "time": SECONDS, "faces": [{"id", "box": {"x", "y", "width", "height"}, "score", \
            "framesSeen"}], "events": [{"type": "started"|"missed"|"resumed"|"ended"|"gesture", "id", \
            "gesture"}]}; "time" is the container's presentation time, "score" the mesh model's presence. \
            --landmarks adds "landmarks": [[x, y, z], ...] to each face; --attributes adds "pose": {"pitch", \
            "yaw", "roll"} (degrees), "leftEyeOpen", "rightEyeOpen", "smiling" (0...1) and gesture events \
            (blink, wink, head turn, head tilt, nod).
            --annotate OUT.mp4 writes every frame upright with each face's box and ID (and its mesh with \
            --landmarks), at the input's frame times: H.264 when libx264 is there, MPEG-4 otherwise.
            A progress line (frames, fps, ETA when the container gives its frame count or duration) is drawn \
            on stderr when stderr is a terminal. At the end a summary (IDs seen, time on screen per ID, \
            frames, fps, peak memory) goes to stdout, or to stderr with --json-lines.
            Threads: the tracker runs on the calling thread (its models on --threads threads) while a second \
            thread decodes up to --read-ahead frames ahead (default 2); --read-ahead 0 decodes on the tracker's \
            thread, one frame after the other.
            Frames: the decoder's YUV 4:2:0 planes go to the tracker as they are (the models' crops are sampled \
            from them), except with --annotate, which decodes to RGB for drawing (--decode-to).
            --try-rotations: each time the detector runs (the first frame, then while fewer than --max-faces \
            faces are followed), it also looks in the frame turned by 90, 180 and 270 degrees, for sideways \
            videos without rotation metadata (up to 4 times the detector's time on those frames only). A face \
            found turned is then followed from its own landmarks, in the frame's coordinates; each face of the \
            JSON lines then reports "uprightRotation" (0, 90, 180 or 270: the clockwise quarter turn that makes \
            it upright, the nearest to its region's rotation on that frame).
            A damaged or truncated file: the frames before the damage are processed, the JSON lines written \
            and the annotated video finalized, then the error is reported and the exit status is 1.
            Many videos: --files-from FILE|- --json-lines --out-dir DIR reads one video path per line and \
            tracks them one after the other with the models loaded once. Each video's frame lines go to a file \
            of its own in DIR (its name and a hash of its path: DIR/NAME.HASH.jsonl, written aside and renamed \
            when whole), and one line per video goes to stdout when it is done: {"path", "frames", \
            "processedFrames", "seconds", "ids": [{"id", "seconds" (on screen), "first", "last", "frames"}], \
            "framesFile"}, with "error" for a video that could not be read (then only "path" and "error") or \
            was damaged part-way (the summary of the frames before the damage). The run ends with the input, \
            exit status 0.
            """)

    @Argument(help: "The video file (or --files-from).")
    var video: String?

    @Option(help: ArgumentHelp("""
        Track the videos named in FILE, one path per line (- for standard input), with --json-lines and \
        --out-dir: one summary line per video on stdout, its frame lines in a file under --out-dir.
        """, valueName: "file"))
    var filesFrom: String?

    @Option(help: ArgumentHelp("With --files-from: the folder for the per-video frame lines (created if needed).",
                               valueName: "dir"))
    var outDir: String?

    @Flag(help: "Print one JSON object per processed frame on stdout.")
    var jsonLines = false

    @Option(help: ArgumentHelp("Write the annotated video here (.mp4, .mov, .mkv, .avi).", valueName: "OUT.mp4"))
    var annotate: String?

    @Option(help: "Process every Nth frame; the others carry the last faces (in the annotated video).")
    var every: Int = 1

    @Option(help: "At most this many faces are followed.")
    var maxFaces: Int = 4

    @Option(help: ArgumentHelp("""
        The face detector: full-range (faces within ~5 m, small faces too), short-range (MediaPipe FaceMesh's: \
        faces within ~2 m), full-range-sparse, back.
        """))
    var detector = DetectorName(.fullRange)

    @Flag(help: "When the detector runs, also look in the frame turned by 90, 180 and 270 degrees (sideways videos).")
    var tryRotations = false

    @Flag(help: "Include each face's 478 mesh points in the JSON lines, and draw the mesh in the annotated video.")
    var landmarks = false

    @Flag(help: "Compute head pose, eyes open, smile and gestures (blink, wink, head turn, tilt, nod).")
    var attributes = false

    @Flag(help: "Turn off the One-Euro smoothing of the boxes and points.")
    var noSmoothing = false

    @Option(help: "Threads for the models' inference and FFmpeg's decoder threads.")
    var threads: Int = 1

    @Option(help: ArgumentHelp("""
        Frames decoded ahead on a thread of their own while the tracker works on the current one (one more \
        busy thread; memory: N + 1 frames). 0 decodes on the tracker's thread, one frame after the other.
        """, valueName: "N"))
    var readAhead: Int = 2

    @Option(help: ArgumentHelp("""
        How the decoder's frames reach the tracker: yuv (the decoder's 4:2:0 planes, sampled straight into the \
        models' crops: no full-frame conversion), rgb (converted to RGB by libswscale first), or auto (yuv, \
        but rgb with --annotate, which draws on RGB frames).
        """, valueName: "auto|yuv|rgb"))
    var decodeTo: FrameFormat = .auto

    @Option(help: "Folder holding the models (Models/fetch.sh fetches them).")
    var modelsDir: String?

    func validate() throws {
        if filesFrom != nil && video != nil { throw ValidationError("give a video or --files-from, not both") }
        if filesFrom == nil && video == nil { throw ValidationError("no video: give a file or --files-from") }
        if filesFrom != nil {
            guard jsonLines else { throw ValidationError("--files-from needs --json-lines") }
            guard outDir != nil else { throw ValidationError("--files-from needs --out-dir for the frame lines") }
            guard annotate == nil else { throw ValidationError("--annotate takes one video: not with --files-from") }
        } else if outDir != nil {
            throw ValidationError("--out-dir goes with --files-from")
        }
        guard every >= 1 else { throw ValidationError("--every must be at least 1") }
        guard maxFaces >= 1 else { throw ValidationError("--max-faces must be at least 1") }
        guard threads >= 1 else { throw ValidationError("--threads must be at least 1") }
        guard (0...16).contains(readAhead) else { throw ValidationError("--read-ahead must be 0...16") }
    }

    /// The tracker's options for these flags.
    var trackerOptions: FaceTracker.Options {
        var wanted: FaceTracker.Attributes = []
        if landmarks { wanted.insert(.landmarks) }
        if attributes { wanted.formUnion([.headPose, .gestures, .expression]) }
        return FaceTracker.Options(detector: detector.model, maximumFaces: maxFaces,
                                   smoothing: noSmoothing ? nil : .mediaPipeFace,
                                   frameInterval: every == 1 ? .all : .everyNth(every), attributes: wanted,
                                   threadCount: threads, tryRotations: tryRotations)
    }

    func run() throws {
        if let filesFrom, let outDir { return try runFilesFrom(filesFrom, outDir: outDir) }
        guard let video else { throw ValidationError("no video: give a file or --files-from") }
        try reportingFailures {
            let reader: VideoReader
            let options = VideoReadingOptions(pixelFormat: decodeTo.pixelFormat(annotating: annotate != nil),
                                              threadCount: threads)
            do { reader = try VideoReader(contentsOf: video, options: options) }
            catch { throw CommandFailure(Self.about(video, Self.message(for: error))) }
            let info = reader.info
            let frames = try FrameSource(reader, readAhead: readAhead)  // the reader is the source's from here on
            let tracker = try FaceTracker(options: trackerOptions, modelsDirectory: modelsDir)
            let annotation = try annotate.map { try TrackAnnotation(path: $0, info: info, mesh: landmarks) }
            let lines = jsonLines ? TrackLines(landmarks: landmarks, attributes: attributes, rotations: tryRotations) : nil
            var summary = TrackSummary(frameRate: info.frameRate)
            var progress: TrackProgress? = TrackProgress(info: info)
            let failure = follow(video, frames, tracker, annotation, &summary, &progress) { result, time in
                lines?.write(result, time: time)
            }
            progress?.finish()
            var finishFailure: (any Error)?
            do { try annotation?.finish() } catch { finishFailure = error }
            let report = summary.lines(metrics: tracker.metrics)
            for line in report {
                if jsonLines { printError(line) } else { print(line) }
            }
            if let failure { throw failure }
            if let finishFailure { throw finishFailure }
        }
    }

    /// Runs the stream through the tracker until its end or the first error, which it returns (the outputs
    /// are then still valid up to the last good frame: the caller finishes them). `line` gets each processed
    /// frame's result and the container's time of the frame.
    func follow(_ video: String, _ frames: FrameSource, _ tracker: FaceTracker, _ annotation: TrackAnnotation?,
                _ summary: inout TrackSummary, _ progress: inout TrackProgress?,
                line: (FaceTrackingResult, Double) -> Void) -> (any Error)? {
        var result = FaceTrackingResult()
        var clock = StreamClock()
        do {
            while let frame = try readFrame(frames, of: video) {
                let time = clock.time(for: frame.time)
                try frame.image.withView { view in try tracker.process(view, timestamp: time, into: &result) }
                if result.processed { line(result, frame.time) }
                summary.add(result, time: time)
                try annotation?.append(frame.image, faces: result.faces, time: time - clock.origin)
                progress?.update(frames: frame.index + 1, time: time - clock.origin)
            }
            return nil
        } catch {
            return error
        }
    }

    private func readFrame(_ frames: FrameSource, of video: String) throws -> VideoFrame? {
        do { return try frames.next() } catch { throw CommandFailure(Self.about(video, Self.message(for: error))) }
    }

    /// A reader's message, prefixed with the video's path unless it names it already.
    static func about(_ video: String, _ message: String) -> String {
        message.contains(video) ? message : "\(video): \(message)"
    }

}

/// `blazeface track --decode-to`: the pixel format the reader delivers.
enum FrameFormat: String, ExpressibleByArgument, CaseIterable {
    case auto, yuv, rgb

    /// I420 for `yuv` (and for `auto` without an annotated video, whose drawing needs RGB), else RGB.
    func pixelFormat(annotating: Bool) -> PixelFormat {
        switch self {
        case .yuv: return .i420
        case .rgb: return .rgb8
        case .auto: return annotating ? .rgb8 : .i420
        }
    }
}
