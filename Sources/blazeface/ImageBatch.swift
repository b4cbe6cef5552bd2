import ArgumentParser
import BlazeImageIO
import BlazeReports
import Foundation

/// The options of the commands that run on image files (`detect`, `landmarks`, `segment`).
struct ImageBatchOptions: ParsableArguments {
    @Argument(help: "Image files (\(ImageFileFormat.listedNames): recognised by content) or folders to search for them (by extension: \(ImageFileFormat.listedExtensions)).")
    var inputs: [String] = []

    @Option(help: ArgumentHelp("""
        Read the image paths from FILE, one per line (- for standard input), as they come: each image's result \
        is printed as one JSON line (--json-lines) as soon as it is done; the run ends when the input does, \
        with exit status 0 (a failed image is a line with "error").
        """, valueName: "file"))
    var filesFrom: String?

    @Flag(help: "Print one compact JSON line per image as soon as it is done (the --json document's entries).")
    var jsonLines = false

    @Flag(help: "With --json-lines: print each line when its image is done, not in the order of the inputs.")
    var unordered = false

    @Option(help: "Folder holding the models (Models/fetch.sh fetches them).")
    var modelsDir: String?

    @Flag(help: "Print one JSON document instead of a table.")
    var json = false

    @Option(help: "Images processed in parallel, each worker with its own models (default: the number of cores).")
    var threads: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Refuse images with more pixels than this.")
    var maxPixels: Int = 100_000_000

    @Option(help: "Refuse image files larger than this many bytes (default 1 GiB).")
    var maxFileBytes: Int = 1 << 30

    func validate() throws {
        if filesFrom != nil && !inputs.isEmpty {
            throw ValidationError("give the images either as arguments or with --files-from, not both")
        }
        if filesFrom == nil && inputs.isEmpty { throw ValidationError("no images: give files, folders or --files-from") }
        if json && (jsonLines || filesFrom != nil) { throw ValidationError("--json and --json-lines exclude each other") }
        if unordered && !(jsonLines || filesFrom != nil) { throw ValidationError("--unordered needs --json-lines") }
        guard threads >= 1 else { throw ValidationError("--threads must be at least 1") }
        guard maxPixels >= 1 else { throw ValidationError("--max-pixels must be at least 1") }
        guard maxFileBytes >= 1 else { throw ValidationError("--max-file-bytes must be at least 1") }
    }
}

/// One image's entry in a batch command's report: what was found, or why it failed.
protocol ImageOutcome: Codable, Sendable {
    init(path: String, error: String)

    var path: String { get }
    /// What the progress line says of the image ("2 faces", "41.3% person"); nil for an image that failed.
    var summary: String? { get }
    /// The image's lines in the human-readable output.
    var tableLines: [String] { get }
}

/// A command that runs on image files. `runBatch()` does the rest, the same for every such command: collects
/// the images (files and folders), runs them on `batch.threads` workers (one `Worker`, with its own models, per
/// thread) with progress on stderr, prints the table or the JSON report, and exits with status 1 when an image
/// failed (each failure is reported with its image; the others go on).
protocol ImageBatchCommand: ParsableCommand, Sendable {
    /// What one thread runs: a detector, a landmarker, a segmenter.
    associatedtype Worker: Sendable
    associatedtype Outcome: ImageOutcome

    var batch: ImageBatchOptions { get }
    /// A new worker. Called once per thread before any image is read, so that a missing or bad model ends the
    /// command at once.
    func makeWorker() throws -> Worker
    /// Creates the folders the command writes into; called once, before the workers are made.
    func prepareOutputs() throws
    /// The outcome of the image file at `path`, decoded within `limits`, writing whatever files the command
    /// writes for it. An error becomes the image's outcome.
    func outcome(at path: String, limits: ImageDecodingOptions, with worker: Worker) throws -> Outcome
}

extension ImageBatchCommand {
    /// Runs the command on every image of `batch.inputs` (see `ImageBatchCommand`), or streams JSON lines.
    func runBatch() throws {
        if batch.jsonLines || batch.filesFrom != nil { return try runStreaming() }
        var failed = false
        try reportingFailures {
            let paths = try collectImagePaths(batch.inputs)
            guard !paths.isEmpty else {
                throw CommandFailure("no image files found in \(batch.inputs.joined(separator: ", "))")
            }
            try prepareOutputs()
            let results = try processAll(paths)
            failed = results.contains { $0.summary == nil }
            if batch.json {
                let text = try ReportJSON.pretty(BatchReport(images: results))
                FileHandle.standardOutput.write(Data((text + "\n").utf8))
            } else {
                for result in results { print(result.tableLines.joined(separator: "\n")) }
            }
        }
        if failed { throw ExitCode.failure }
    }

    /// `--json-lines` / `--files-from`: one JSON line per image as it is done (`StreamingBatch`). With
    /// `--files-from` the exit status is 0 however many images failed (each is an error line: a worker under
    /// `xargs`, GNU parallel or Spark's `RDD.pipe` must not fail for one bad file); with arguments it is 1
    /// when one failed, as with `--json`.
    func runStreaming() throws {
        signal(SIGPIPE, SIG_IGN)  // a reader that goes away ends the run quietly, not with a signal
        var failed = false
        try reportingFailures {
            let source: () -> LineSource.Line?
            if let filesFrom = batch.filesFrom {
                let reader = try LineSource(filesFrom)
                source = { reader.next() }
            } else {
                var paths = try collectImagePaths(batch.inputs).makeIterator()
                source = { paths.next().map(LineSource.Line.path) }
            }
            try prepareOutputs()
            let workers = try (0..<batch.threads).map { _ in try makeWorker() }
            let stream = StreamingBatch<Outcome>(source: source, ordered: !batch.unordered, window: 4 * batch.threads)
            stream.run(workers: workers.count) { worker, path in process(path, with: workers[worker]) }
            failed = stream.failures > 0 && batch.filesFrom == nil
        }
        if failed { throw ExitCode.failure }
    }

    /// Runs every image on `batch.threads` workers; progress goes to stderr when there is more than one image.
    func processAll(_ paths: [String]) throws -> [Outcome] {
        let count = min(batch.threads, paths.count)
        let workers = try (0..<count).map { _ in try makeWorker() }
        let state = SharedProgress<Outcome>(count: paths.count)
        DispatchQueue.concurrentPerform(iterations: count) { worker in
            while let index = state.next() {
                let result = process(paths[index], with: workers[worker])
                state.finish(index, result, showProgress: paths.count > 1)
            }
        }
        return state.results.map { $0! }
    }

    /// One image: `outcome(at:limits:with:)` within the size limits; any error becomes its outcome.
    func process(_ path: String, with worker: Worker) -> Outcome {
        do {
            let limits = ImageDecodingOptions(maximumPixelCount: batch.maxPixels, maximumFileBytes: batch.maxFileBytes)
            return try outcome(at: path, limits: limits, with: worker)
        } catch {
            return Outcome(path: path, error: Self.message(for: error))
        }
    }
}

/// `DIR/<file name of path without its extension>.png`: where the batch commands write an image's PNG.
func outputPath(in folder: String, for path: String) -> String {
    let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    return (folder as NSString).appendingPathComponent(name + ".png")
}

/// The work queue and results shared by the workers of a batch command.
final class SharedProgress<Outcome: ImageOutcome>: @unchecked Sendable {
    private let lock = NSLock()
    private var nextIndex = 0
    private var done = 0
    private let count: Int
    private(set) var results: [Outcome?]
    private let interactive = isatty(STDERR_FILENO) != 0

    init(count: Int) {
        self.count = count
        results = Array(repeating: nil, count: count)
    }

    func next() -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard nextIndex < count else { return nil }
        nextIndex += 1
        return nextIndex - 1
    }

    func finish(_ index: Int, _ result: Outcome, showProgress: Bool) {
        lock.lock(); defer { lock.unlock() }
        results[index] = result
        done += 1
        guard showProgress else { return }
        let summary = result.summary ?? "error"
        if interactive {
            FileHandle.standardError.write(Data("\r[\(done)/\(count)] \((result.path as NSString).lastPathComponent): \(summary)\u{1B}[K".utf8))
            if done == count { FileHandle.standardError.write(Data("\n".utf8)) }
        } else {
            printError("[\(done)/\(count)] \(result.path): \(summary)")
        }
    }
}
