import ArgumentParser
import BlazeFace
import CAllocationCounter
import Foundation

/// `blazeface-bench`: measures the interpreter on the bundled models, and optionally the whole detector.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "blazeface-bench",
        abstract: "Measure load time, invoke latency, GFLOP/s, allocations and memory of the BlazeFace models.",
        discussion: """
            Models: \(ModelChoice.namesHelp) (the default, all \(ModelChoice.defaultNames.count)); another \
            catalog model (\(ModelChoice.otherNamesHelp)); or the path of a .tflite file. Models are found in \
            --models-dir, else $BLAZEFACE_MODELS, else a Models folder beside the executable, else ./Models \
            (run Models/fetch.sh).
            Every input is filled once with the fixed pattern ((i * 37) mod 255) / 127.5 - 1.
            Build in release: swift build -c release --product blazeface-bench. \
            Side by side with LiteRT: Benchmarks/compare_litert.sh; the face-mesh pipelines with MediaPipe's \
            FaceMesh: Benchmarks/compare_mediapipe_facemesh.sh; the segmentation pipelines with MediaPipe's \
            SelfieSegmentation: Benchmarks/compare_mediapipe_segmentation.sh; a photo-library scan (--library) with \
            MediaPipe's: Benchmarks/compare_library.sh. See Documentation/Benchmarks.md.
            """)

    @Option(name: .customLong("model"), help: ArgumentHelp("A model name or .tflite path (repeatable; default: all six).", valueName: "name-or-path"))
    var models: [String] = []

    @Option(help: "Interpreter threads (Interpreter.Options.threadCount).")
    var threads: Int = 1

    @Option(help: "Timed invokes per model.")
    var iterations: Int = 200

    @Option(help: "Untimed warm-up invokes per model.")
    var warmup: Int = 20

    @Option(help: ArgumentHelp("Stop a model's timed invokes after this many seconds even if fewer than --iterations ran (warm-up: a quarter of it).", valueName: "seconds"))
    var timeLimit: Double?

    @Option(help: "Loads per model for the load time (the median is reported).")
    var loads: Int = 5

    @Flag(help: "Print one JSON object instead of tables.")
    var json = false

    @Option(help: ArgumentHelp("Also time FaceDetector.detect(_:into:) on this picture (JPEG, PNG, HEIC, WebP, ...; short-range and every selected detector model).", valueName: "image"))
    var detect: String?

    @Option(help: ArgumentHelp("With --detect or --pipelines: centre the picture on a gray canvas of this size, such as 1280x720.", valueName: "WxH"))
    var detectSize: String?

    @Option(help: ArgumentHelp("Also time the pipelines on this picture (any format blazeface reads): the face mesh's (detect, landmarks, landmarks-tracking, tracking: FaceTracker; MediaPipe's FaceMesh configuration: attention mesh, short-range detector, one face) and the person segmentation's (segmentation, segmentation-landscape: the mask at the frame's size). Without --model the per-model invoke table is skipped.", valueName: "image"))
    var pipelines: String?

    @Option(help: ArgumentHelp("With --pipelines: all, face (the face mesh's) or segmentation.", valueName: "set"))
    var pipelineSet: PipelineSet = .all

    @Option(help: ArgumentHelp("Also time CaptureQualityAssessor.assess (passport framing, pose from the mesh) on the one face of this picture. Without --model the per-model invoke table is skipped.", valueName: "image"))
    var captureQuality: String?

    @Option(help: ArgumentHelp("Also time decoding this video file to RGB (VideoReader, --threads decoder threads) on this thread and through a FramePrefetcher, whole passes alternating until --iterations frames and 3 passes each. A JPEG or PNG (by its extension) instead makes a 300-frame 1280x720 (or --detect-size) H.264 clip of it first. Without --model the per-model invoke table is skipped.", valueName: "video"))
    var decode: String?

    @Option(help: ArgumentHelp("Also time a photo-library scan of this folder: images per second of detect's and analyze's pipelines (full-range detector; analyze: mesh and attributes), reading and decoding each file included, at --library-threads workers. Without --model the per-model invoke table is skipped.", valueName: "folder"))
    var library: String?

    @Option(help: ArgumentHelp("With --library: how each file is decoded, full (every pixel) or shrink (shrink-on-load).", valueName: "full|shrink"))
    var libraryDecode: LibraryDecode = .full

    @Option(help: ArgumentHelp("With --library-decode shrink: the fewest pixels kept on a picture's longer side (the scale is the smallest of 1/2, 1/4, 1/8 that keeps them; default: the detector's shrinkOnLoadLongSide, 1728 for full-range).", valueName: "pixels"))
    var libraryShrinkLongSide: Int?

    @Option(help: ArgumentHelp("With --library: the worker counts to measure, each worker a thread with its own models (blazeface's --threads).", valueName: "list"))
    var libraryThreads: String = "1,2"

    @Option(help: ArgumentHelp("With --library: the pipelines to measure: detect, analyze, decode (the decode alone).", valueName: "list"))
    var libraryVerbs: String = "detect,analyze"

    @Option(help: ArgumentHelp("With --library: timed passes over the folder per verb and worker count (the median is reported), after one untimed.", valueName: "count"))
    var libraryPasses: Int = 3

    @Flag(help: "With --detect: measure only the detector (skip the per-model invoke table).")
    var detectOnly = false

    @Flag(help: "With --detect: also time ImageToTensor on the frame (detector letterbox, 192x192 crops unturned and turned) and BackgroundReplacer (colour, picture, blur).")
    var imaging = false

    @Flag(help: "Print a per-operator profile of each model.")
    var perOp = false

    @Option(help: ArgumentHelp("Folder holding the fetched models.", valueName: "dir"))
    var modelsDir: String?

    func validate() throws {
        guard threads >= 1 else { throw ValidationError("--threads must be at least 1") }
        guard iterations >= 1 else { throw ValidationError("--iterations must be at least 1") }
        guard warmup >= 0 else { throw ValidationError("--warmup must be at least 0") }
        if let timeLimit, !(timeLimit > 0) { throw ValidationError("--time-limit must be positive") }
        guard loads >= 1 else { throw ValidationError("--loads must be at least 1") }
        if detectSize != nil, detect == nil, pipelines == nil, captureQuality == nil, decode == nil {
            throw ValidationError("--detect-size needs --detect IMAGE, --pipelines IMAGE or --decode IMAGE")
        }
        if detectOnly, detect == nil { throw ValidationError("--detect-only needs --detect IMAGE") }
        if pipelineSet != .all, pipelines == nil { throw ValidationError("--pipeline-set needs --pipelines IMAGE") }
        if imaging, detect == nil { throw ValidationError("--imaging needs --detect IMAGE") }
        if library == nil, libraryDecode != .full || libraryThreads != "1,2" || libraryVerbs != "detect,analyze"
            || libraryPasses != 3 || libraryShrinkLongSide != nil {
            throw ValidationError("the --library-... options need --library FOLDER")
        }
        if let libraryShrinkLongSide, libraryShrinkLongSide < 1 {
            throw ValidationError("--library-shrink-long-side must be at least 1")
        }
        guard libraryPasses >= 1 else { throw ValidationError("--library-passes must be at least 1") }
        guard Self.parseThreads(libraryThreads) != nil else {
            throw ValidationError("--library-threads must be a list of worker counts such as 1,2")
        }
        guard let verbs = Self.parseVerbs(libraryVerbs) else {
            throw ValidationError("--library-verbs must be a list of detect, analyze and decode")
        }
        if libraryDecode == .shrink, verbs.contains(.analyze) {
            throw ValidationError("--library-decode shrink measures detect (and decode) only: the library shrinks for the detector alone")
        }
        if let detectSize, Self.parseSize(detectSize) == nil {
            throw ValidationError("--detect-size must look like 1280x720")
        }
    }

    static func parseSize(_ text: String) -> (width: Int, height: Int)? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0, w * h <= 100_000_000 else { return nil }
        return (w, h)
    }

    static func parseThreads(_ text: String) -> [Int]? {
        let counts = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !counts.isEmpty, counts.allSatisfy({ ($0 ?? 0) >= 1 && ($0 ?? 0) <= 64 }) else { return nil }
        return counts.map { $0! }
    }

    static func parseVerbs(_ text: String) -> [LibraryVerb]? {
        let verbs = text.split(separator: ",").map { LibraryVerb(rawValue: $0.trimmingCharacters(in: .whitespaces)) }
        guard !verbs.isEmpty, verbs.allSatisfy({ $0 != nil }) else { return nil }
        return verbs.map { $0! }
    }

    func run() throws {
        do {
            try measure()
        } catch {
            FileHandle.standardError.write(Data("blazeface-bench: error: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }

    private func measure() throws {
        var seen = Set<String>()
        let arguments = models.isEmpty ? ModelChoice.defaultNames.map(\.rawValue) : models
        // --decode alone needs no model.
        let needsModels = !((decode != nil || library != nil) && models.isEmpty && detect == nil && pipelines == nil
                            && captureQuality == nil)
        let choices = try arguments.filter { seen.insert($0).inserted && needsModels }
            .map { try ModelChoice.resolve($0, modelsDir: modelsDir) }

        // Decode the frames first: a bad image fails before minutes of measuring.
        let canvas = detectSize.flatMap(Self.parseSize)
        let frame = try detect.map { try Frame.load($0, canvas: canvas) }
        let pipelineFrame = try pipelines.map { try Frame.load($0, canvas: canvas) }
        let captureFrame = try captureQuality.map { try Frame.load($0, canvas: canvas) }
        let detectOnly = detectOnly || ((pipelines != nil || captureQuality != nil || decode != nil || library != nil)
                                        && models.isEmpty)

        var invokes: [InvokeResult] = []
        if !json, !detectOnly {
            print(TextReport.header(threads: threads, iterations: iterations, warmup: warmup, loads: loads))
            print()
        }
        for choice in choices where !detectOnly {
            progress("\(choice.name): loading and invoking ...")
            invokes.append(try InvokeBenchmark.run(choice, threads: threads, iterations: iterations, warmup: warmup,
                                                   loads: loads, perOp: perOp, timeLimit: timeLimit))
        }
        if !json, !detectOnly {
            print(TextReport.invokeTable(invokes))
            if blaze_allocation_counting_available() != 1 { print("(allocation counting is unavailable on this platform)") }
            for result in invokes where result.profile != nil { print(TextReport.profileTable(result)) }
        }

        var detects: [DetectResult] = []
        if let frame {
            var detectorChoices = choices.filter { $0.detector != nil }
            if !detectorChoices.contains(where: { $0.detector == .shortRange }) {
                detectorChoices.insert(try ModelChoice.resolve(FaceDetector.Model.shortRange.catalogName.rawValue, modelsDir: modelsDir), at: 0)
            }
            for choice in detectorChoices {
                progress("\(choice.name): detect on \(frame.width)x\(frame.height) ...")
                detects.append(try DetectBenchmark.run(choice, detectorModel: choice.detector!, frame: frame, threads: threads,
                                                       iterations: iterations, warmup: warmup, timeLimit: timeLimit))
            }
            if !json { print(TextReport.detectTable(detects)) }
            if imaging {
                progress("ImageToTensor on \(frame.width)x\(frame.height) ...")
                let rows = try ImagingBenchmark.run(frame, iterations: iterations)
                if !json {
                    print("\nImageToTensor on \(frame.recipe), \(iterations) conversions each:")
                    for row in rows { print("  \(row.name): median \(String(format: "%.1f", row.medianUs)) us, fastest \(String(format: "%.1f", row.minUs)) us") }
                }
                progress("BackgroundReplacer on \(frame.width)x\(frame.height) ...")
                let blends = try BackgroundBenchmark.run(frame, iterations: iterations)
                if !json {
                    print("\nBackgroundReplacer.replaceBackground on \(frame.recipe), \(iterations) replacements each:")
                    for row in blends { print("  \(row.name): median \(String(format: "%.2f", row.medianMs)) ms, fastest \(String(format: "%.2f", row.minMs)) ms") }
                }
            }
        }

        var pipelineResults: [PipelineResult] = []
        if let pipelineFrame {
            progress("pipelines on \(pipelineFrame.width)x\(pipelineFrame.height) ...")
            if pipelineSet != .segmentation {
                pipelineResults += try PipelineBenchmark.run(frame: pipelineFrame, threads: threads, modelsDir: modelsDir,
                                                             iterations: iterations, warmup: warmup, timeLimit: timeLimit)
            }
            if pipelineSet != .face {
                pipelineResults += try SegmentationBenchmark.run(frame: pipelineFrame, threads: threads, modelsDir: modelsDir,
                                                                 iterations: iterations, warmup: warmup, timeLimit: timeLimit)
            }
            if !json { print(TextReport.pipelineTable(pipelineResults)) }
        }

        if let captureFrame {
            progress("capture quality on \(captureFrame.width)x\(captureFrame.height) ...")
            let r = try CaptureQualityBenchmark.run(frame: captureFrame, modelsDir: modelsDir, iterations: iterations)
            print(String(format: "capture quality (passport, pose estimated) on %@, face %.0f px high: median %.1f us, fastest %.1f us, %@ allocations",
                         captureFrame.recipe, r.faceSize, r.medianUs, r.minUs, r.allocations.map(String.init) ?? "?"))
        }

        var decodes: [DecodeResult] = []
        if let decode {
            var video = decode
            if [".png", ".jpg", ".jpeg"].contains(where: { decode.lowercased().hasSuffix($0) }) {
                progress("writing a clip of \(decode) ...")
                video = try DecodeBenchmark.clip(from: decode, size: canvas)
            }
            defer { if video != decode { try? FileManager.default.removeItem(atPath: video) } }
            progress("decoding \(video) ...")
            decodes = try DecodeBenchmark.run(path: video, threads: threads, minimumFrames: iterations, timeLimit: timeLimit)
            if !json { print(DecodeBenchmark.table(decodes)) }
        }

        var libraryReport: LibraryReport?
        if let library {
            libraryReport = try LibraryBenchmark.run(
                folder: library, verbs: Self.parseVerbs(libraryVerbs)!, threads: Self.parseThreads(libraryThreads)!,
                decode: libraryDecode, shrinkLongSide: libraryShrinkLongSide, passes: libraryPasses,
                modelsDir: modelsDir, progress: { progress($0) })
            if !json { print(libraryReport!.table) }
        }

        progress(nil)
        if json {
            let report = JSONReport(
                results: invokes.map { .invoke($0.json) } + pipelineResults.map { .pipeline($0.json) },
                detect: detects.map(\.json),
                decode: decode == nil ? nil : decodes,
                library: libraryReport,
                settings: JSONSettings(
                    iterations: iterations, warmup: warmup, loads: loads, threads: threads, time_limit_s: timeLimit,
                    input_pattern: "element i = ((i * 37) mod 255) / 127.5 - 1 (float32), written once",
                    arithmetic_limit_gflops_per_thread: singleCoreLimitGFLOPS,
                    allocation_counting: blaze_allocation_counting_available() == 1
                        ? "heap allocations of every thread of the process while timing (malloc interposed by CAllocationCounter)" : "unavailable",
                    peak_rss: "VmHWM (or ru_maxrss), reset before each model where /proc/self/clear_refs allows",
                    cpus: ProcessInfo.processInfo.activeProcessorCount))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            FileHandle.standardOutput.write(try encoder.encode(report) + Data("\n".utf8))
        }
    }

    /// A progress line on stderr when it is a terminal; nil clears it.
    private func progress(_ message: String?) {
        guard isatty(STDERR_FILENO) != 0 else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K\(message ?? "")".utf8))
    }
}
extension PipelineSet: ExpressibleByArgument {}
extension LibraryDecode: ExpressibleByArgument {}
