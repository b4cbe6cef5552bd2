import ArgumentParser
import BlazeImageIO
import BlazeImaging
import Foundation

/// `blazeface-soak`: the pipelines on a stream of frames for N frames or T seconds, the resident memory sampled
/// every K frames into a CSV (and an SVG plot), and a verdict: the growth after warm-up must stay under a bound.
struct SoakCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "blazeface-soak",
        abstract: "Run detect, landmarks, segment, track and video decoding for a long time and check that memory stays flat.",
        discussion: """
            The frames cycle through the pictures given (decoded once, upright RGB; pictures of different sizes \
            make the pipelines resize their buffers as a video of changing sources would). Each frame goes \
            through every stage of SoakPipeline.standard, or the --stage ones (the video stage decodes one frame \
            of a short video made from the first picture; the stream stage decodes and tracks that picture's \
            clip as one endless video). Resident memory (Linux: /proc/self/statm; elsewhere \
            the peak from getrusage) is sampled before the first frame and every --sample-every frames. \
            Exit status 1 when the last sample exceeds the sample at --warmup-frames by more than --max-growth-mib.
            """)

    @Option(name: .customLong("image"), help: ArgumentHelp("A picture for a frame (JPEG, PNG, HEIC, WebP, ...; repeatable, at least one).", valueName: "path"))
    var images: [String] = []

    @Option(name: .customLong("stage"), help: ArgumentHelp(
        "Run only this stage (repeatable): detect, landmarks, segment, track, video or stream. Default: all.",
        valueName: "name"))
    var stageNames: [String] = []

    @Option(help: "Frames to run.")
    var frames: Int = 1_000_000

    @Option(help: ArgumentHelp("Stop after this many seconds even if fewer frames ran.", valueName: "seconds"))
    var seconds: Double?

    @Option(help: "Frames between two memory samples.")
    var sampleEvery: Int = 100

    @Option(help: "Frames of warm-up: growth is measured from the first sample at or after this frame.")
    var warmupFrames: Int = 1_000

    @Option(help: ArgumentHelp("Largest growth allowed after warm-up, in MiB.", valueName: "MiB"))
    var maxGrowthMib: Double = 4

    @Option(help: ArgumentHelp("Where to write the samples (frame,seconds,rss_bytes).", valueName: "path"))
    var csv: String = "soak-rss.csv"

    @Option(help: ArgumentHelp("Also plot the samples into this SVG file.", valueName: "path"))
    var svg: String?

    @Option(help: "Interpreter threads of every pipeline.")
    var threads: Int = 1

    @Option(help: ArgumentHelp("Folder holding the fetched models.", valueName: "dir"))
    var modelsDir: String?

    func validate() throws {
        guard !images.isEmpty else { throw ValidationError("give at least one --image") }
        guard frames >= 1 else { throw ValidationError("--frames must be at least 1") }
        if let seconds, !(seconds > 0) { throw ValidationError("--seconds must be positive") }
        guard sampleEvery >= 1 else { throw ValidationError("--sample-every must be at least 1") }
        guard warmupFrames >= 0 else { throw ValidationError("--warmup-frames must be at least 0") }
        guard maxGrowthMib >= 0 else { throw ValidationError("--max-growth-mib must be at least 0") }
        guard threads >= 1 else { throw ValidationError("--threads must be at least 1") }
    }

    func run() throws {
        let pictures = try images.map { try ImageDecoder.decode(contentsOf: $0).uprightRGB() }
        let pipeline = try SoakPipeline.standard(modelsDirectory: modelsDir, threads: threads, videoPicture: pictures[0])
        let names = pipeline.stages.map(\.name)
        if let unknown = stageNames.first(where: { !names.contains($0) }) {
            throw ValidationError("unknown --stage \(unknown): the stages are \(names.joined(separator: ", "))")
        }
        let stages = stageNames.isEmpty ? pipeline.stages : pipeline.stages.filter { stageNames.contains($0.name) }
        var samples = [RSSSample(frame: 0, seconds: 0, bytes: ResidentMemory.current())]
        var found = [Int](repeating: 0, count: stages.count)
        let start = Date()
        var frame = 0
        while frame < frames {
            try pictures[frame % pictures.count].withView { view in
                for (index, stage) in stages.enumerated() { found[index] += try stage.run(view) }
            }
            frame += 1
            guard frame % sampleEvery == 0 || frame == frames else { continue }
            let elapsed = Date().timeIntervalSince(start)
            samples.append(RSSSample(frame: frame, seconds: elapsed, bytes: ResidentMemory.current()))
            if frame % (sampleEvery * 100) == 0 {
                FileHandle.standardError.write(Data("frame \(frame): \(String(format: "%.1f", Double(samples.last!.bytes) / 1_048_576)) MiB\n".utf8))
            }
            if let seconds, elapsed >= seconds { break }
        }
        let elapsed = Date().timeIntervalSince(start)
        try RSSSample.csv(samples).write(toFile: csv, atomically: true, encoding: .utf8)
        let summary = RSSSummary(samples, warmupFrames: warmupFrames)
        if let svg {
            try RSSPlot.svg(samples, warmupFrame: summary.warmup.frame,
                            title: "Resident memory, \(stages.map(\.name).joined(separator: " + ")), \(frame) frames")
                .write(toFile: svg, atomically: true, encoding: .utf8)
        }
        print("frames: \(frame) in \(String(format: "%.0f", elapsed)) s (\(String(format: "%.1f", Double(frame) / elapsed)) frames/s), \(pictures.count) pictures, \(threads) thread(s)")
        for (index, stage) in stages.enumerated() {
            print("  \(stage.name): \(found[index]) found in all (\(String(format: "%.2f", Double(found[index]) / Double(frame))) per frame)")
        }
        print(summary.report(current: ResidentMemory.isCurrent))
        guard summary.growth <= Int(maxGrowthMib * 1_048_576) else {
            print("FAIL: memory grew by more than \(maxGrowthMib) MiB after warm-up")
            throw ExitCode.failure
        }
        print("OK: memory is flat after warm-up (within \(maxGrowthMib) MiB)")
    }
}
