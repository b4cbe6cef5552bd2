import ArgumentParser
import BlazeImageIO
import BlazeReports
import BlazeSegmentation
import Foundation

/// `blazeface segment`: MediaPipe's selfie segmentation on image files: a person mask per image, and
/// optionally the image with a new background.
struct SegmentCommand: ImageBatchCommand {
    static let configuration = CommandConfiguration(
        commandName: "segment",
        abstract: "Segment people in images (\(ImageFileFormat.listedNames); MediaPipe's selfie segmentation); write masks or replace the background.",
        discussion: """
            Each image gets a mask of person probabilities at its upright size (after EXIF orientation), as \
            MediaPipe's SelfieSegmentation returns it. The report gives the model used and the share of pixels \
            whose probability is above 0.5.
            --mask-dir DIR writes DIR/<file name without extension>.png: the mask as an 8-bit grayscale PNG at the \
            image's size (probability × 255, rounded).
            --background with --out DIR writes DIR/<file name without extension>.png: the upright image (RGB) with \
            white, black, a colour #RRGGBB, blur (radius 2% of the shorter side; blur:N for N pixels) or a picture \
            behind the person, blended with the mask's soft edges. A picture of another size is scaled to cover \
            the image (aspect ratio kept, centred, the overflow cropped).
            --json prints {"images": [{"path", "width", "height", "model", "personShare", "mask", "output"}]}: \
            model is general or landscape (the one that ran, also with --model automatic), personShare the share \
            of pixels above 0.5 (0...1), mask and output the files written (null when not asked). An image that \
            failed has {"path", "error"}.
            An image that cannot be read is reported and the others go on; the exit status is then 1.
            Models are found in --models-dir (only there, when given), else $BLAZEFACE_MODELS, else a Models folder \
            beside the executable, else ./Models (run Models/fetch.sh).
            """)

    typealias Outcome = SegmentResult

    @OptionGroup var batch: ImageBatchOptions

    @Option(help: ArgumentHelp("""
        general: 256x256, any picture (MediaPipe's model_selection=0); landscape: 256x144, video frames \
        (model_selection=1); automatic: landscape for images wider than 4:3, else general.
        """))
    var model: PersonSegmenter.Model = .general

    @Option(help: ArgumentHelp("Write each image's mask as DIR/<name>.png, 8-bit grayscale at the image's size.",
                               valueName: "dir"))
    var maskDir: String?

    @Option(help: ArgumentHelp("What to put behind the person: white, black, #RRGGBB, blur, blur:RADIUS or a picture file (needs --out).",
                               valueName: "background"))
    var background: String?

    @Option(help: ArgumentHelp("Write each image with its new background as DIR/<name>.png (needs --background).",
                               valueName: "dir"))
    var out: String?

    func validate() throws {
        if let background {
            _ = try BackgroundChoice(parsing: background)
            guard out != nil else { throw ValidationError("--background needs --out DIR, the folder for the pictures") }
        } else if out != nil {
            throw ValidationError("--out needs --background")
        }
        if let maskDir, let out, Self.samePlace(maskDir, out) {
            throw ValidationError("--mask-dir and --out must be different folders: both write <name>.png")
        }
    }

    /// Whether two folder arguments name the same folder (after `..`, `.` and symbolic links).
    static func samePlace(_ a: String, _ b: String) -> Bool {
        func normal(_ path: String) -> String {
            URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        }
        return normal(a) == normal(b)
    }

    func run() throws {
        try runBatch()
    }

    /// One thread's segmenter and replacer (each serializes its calls: one per worker) and the background.
    struct Worker: Sendable {
        let segmenter: PersonSegmenter
        let replacer: BackgroundReplacer
        let background: LoadedBackground?
    }

    func prepareOutputs() throws {
        for folder in [maskDir, out].compactMap({ $0 }) {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
    }

    func makeWorker() throws -> Worker {
        let limits = ImageDecodingOptions(maximumPixelCount: batch.maxPixels, maximumFileBytes: batch.maxFileBytes)
        return Worker(segmenter: try PersonSegmenter(model: model, modelsDirectory: batch.modelsDir),
                      replacer: BackgroundReplacer(),
                      background: try background.map { try LoadedBackground(BackgroundChoice(parsing: $0), limits: limits) })
    }

    func outcome(at path: String, limits: ImageDecodingOptions, with worker: Worker) throws -> SegmentResult {
        let image = try ImageDecoder.decode(contentsOf: path, options: limits)
        let width = image.uprightWidth, height = image.uprightHeight
        let mask = try image.withView { try worker.segmenter.segment($0) }
        var maskFile: String?, outputFile: String?
        if let maskDir {
            let target = outputPath(in: maskDir, for: path)
            try PNGEncoder.write(mask.grayscaleImage(), to: target)
            maskFile = target
        }
        if let out, let background = worker.background {
            let picture = try background.withBackground(width: width, height: height) { background in
                try image.withView { try worker.replacer.replaceBackground(of: $0, mask: mask, with: background) }
            }
            let target = outputPath(in: out, for: path)
            try PNGEncoder.write(picture, to: target)
            outputFile = target
        }
        let report = SegmentationReport(
            width: width, height: height, model: worker.segmenter.modelChoice(width: width, height: height),
            personShare: mask.personShare)
        return SegmentResult(path: path, report: report, mask: maskFile, output: outputFile)
    }
}

extension PersonSegmenter.Model: ExpressibleByArgument {}
