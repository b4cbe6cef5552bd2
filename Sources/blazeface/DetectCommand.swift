import ArgumentParser
import BlazeAnchors
import BlazeFace
import BlazeImageIO
import Foundation

/// `blazeface detect`: finds faces in JPEG and PNG files.
struct DetectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Detect faces in JPEG and PNG images (files or folders).",
        discussion: """
            Coordinates are pixels of the upright image (after EXIF orientation), origin top-left.
            An image that cannot be read is reported and the others go on; the exit status is then 1.
            Models are found in --models-dir (only there, when given), else $BLAZEFACE_MODELS, else a Models folder \
            beside the executable, else ./Models (run Models/fetch.sh).
            """)

    @Argument(help: "Image files (.jpg, .jpeg, .png) or folders to search for them.")
    var inputs: [String]

    @Option(help: ArgumentHelp("\(ModelChoice.detectorNames.joined(separator: ", ")), or the path of a .tflite detector."))
    var model: ModelChoice = .named(.shortRange)

    @Option(help: "Folder holding the models (Models/fetch.sh fetches them).")
    var modelsDir: String?

    @Option(help: "Minimum face score, 0...1 (default: the model's: 0.5 short-range, 0.6 full-range, 0.65 back).")
    var minScore: Float?

    @Option(help: "Non-maximum suppression: weighted (MediaPipe's blending) or hard.")
    var nms: NMSAlgorithm = .weighted

    @Option(help: "IoU above which overlapping detections are merged or dropped, 0...1.")
    var nmsIou: Float = 0.3

    @Option(help: "Report at most this many faces per image, highest scores first.")
    var maxFaces: Int?

    @Option(help: "letterbox (whole image, MediaPipe's) or center (square centre crop).")
    var crop: CropChoice = .letterbox

    @Flag(help: "Print one JSON document instead of a table.")
    var json = false

    @Option(help: "Write a PNG per image with boxes, scores and keypoints drawn, into this folder.")
    var annotate: String?

    @Option(help: "Images processed in parallel (default: the number of cores).")
    var threads: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Refuse images with more pixels than this.")
    var maxPixels: Int = 100_000_000

    @Option(help: "Refuse image files larger than this many bytes (default 1 GiB).")
    var maxFileBytes: Int = 1 << 30

    func validate() throws {
        guard threads >= 1 else { throw ValidationError("--threads must be at least 1") }
        if let minScore, !(0...1).contains(minScore) { throw ValidationError("--min-score must be in 0...1") }
        guard (0...1).contains(nmsIou) else { throw ValidationError("--nms-iou must be in 0...1") }
        if let maxFaces, maxFaces < 1 { throw ValidationError("--max-faces must be at least 1") }
        guard maxPixels >= 1 else { throw ValidationError("--max-pixels must be at least 1") }
        guard maxFileBytes >= 1 else { throw ValidationError("--max-file-bytes must be at least 1") }
    }

    func run() throws {
        var failed = false
        try reportingFailures {
            let paths = try collectImagePaths(inputs)
            guard !paths.isEmpty else { throw CommandFailure("no JPEG or PNG images found in \(inputs.joined(separator: ", "))") }
            if let annotate {
                try FileManager.default.createDirectory(atPath: annotate, withIntermediateDirectories: true)
            }
            let options = FaceDetector.Options(minimumScore: minScore, nms: nms, iouThreshold: nmsIou,
                                               maximumFaces: maxFaces, preprocessing: crop.preprocessing)
            _ = try makeDetector(options)  // fail early, once, on a missing or bad model
            let results = try runAll(paths, options: options)
            failed = results.contains { $0.error != nil }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                let data = try encoder.encode(DetectReport(images: results))
                FileHandle.standardOutput.write(data + Data("\n".utf8))
            } else {
                for result in results { print(result.tableLines.joined(separator: "\n")) }
            }
        }
        if failed { throw ExitCode.failure }
    }

    func makeDetector(_ options: FaceDetector.Options) throws -> FaceDetector {
        switch model {
        case .named(let named):
            return try FaceDetector(model: named, modelsDirectory: modelsDir, options: options)
        case .path(let path):
            return try FaceDetector(modelPath: path, configuration: try ModelChoice.configuration(forModelAt: path), options: options)
        }
    }

    /// Runs every image on `threads` workers, each with its own detector; progress goes to stderr.
    func runAll(_ paths: [String], options: FaceDetector.Options) throws -> [ImageResult] {
        let workers = min(threads, paths.count)
        let detectors = try (0..<workers).map { _ in try makeDetector(options) }
        let state = SharedProgress(count: paths.count)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            while let index = state.next() {
                let result = process(paths[index], detector: detectors[worker])
                state.finish(index, result, showProgress: paths.count > 1)
            }
        }
        return state.results.map { $0! }
    }

    func process(_ path: String, detector: FaceDetector) -> ImageResult {
        do {
            let image = try ImageDecoder.decode(contentsOf: path, options: .init(maximumPixelCount: maxPixels, maximumFileBytes: maxFileBytes))
            let faces = try image.withView { try detector.detect($0) }
            let upright = image.orientation.swapsDimensions ? (image.height, image.width) : (image.width, image.height)
            if let annotate {
                var annotator = try Annotator(image: image.uprightRGB())
                for face in faces.reversed() { annotator.draw(face) }
                let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
                try PNGEncoder.write(annotator.image, to: (annotate as NSString).appendingPathComponent(name + ".png"))
            }
            return ImageResult(path: path, width: upright.0, height: upright.1, faces: faces)
        } catch {
            return ImageResult(path: path, error: Self.message(for: error))
        }
    }
}

/// The work queue and results shared by the workers of `detect`.
final class SharedProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var nextIndex = 0
    private var done = 0
    private let count: Int
    private(set) var results: [ImageResult?]
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

    func finish(_ index: Int, _ result: ImageResult, showProgress: Bool) {
        lock.lock(); defer { lock.unlock() }
        results[index] = result
        done += 1
        guard showProgress else { return }
        let faces = result.faces.map { "\($0.count) face\($0.count == 1 ? "" : "s")" } ?? "error"
        if interactive {
            FileHandle.standardError.write(Data("\r[\(done)/\(count)] \((result.path as NSString).lastPathComponent): \(faces)\u{1B}[K".utf8))
            if done == count { FileHandle.standardError.write(Data("\n".utf8)) }
        } else {
            printError("[\(done)/\(count)] \(result.path): \(faces)")
        }
    }
}
