import ArgumentParser
import BlazeFaceMesh
import BlazeImageIO
import BlazeJobs
import BlazeReports
import Foundation

/// `--annotate`, for the commands that find faces (`detect`, `landmarks`).
struct AnnotateOptions: ParsableArguments {
    @Option(help: "Write a PNG per image with the results drawn on it, into this folder.")
    var annotate: String?
}

/// A batch command that finds faces (`detect`, `landmarks`, `analyze`): a `FaceJob` per worker does the whole
/// picture (decode, pipeline, report); the command names its task, its job options and how to draw what was
/// found, and gets the outcome and the `--annotate` PNGs from here.
protocol FaceBatchCommand: ImageBatchCommand where Outcome == ImageEntry<Report>, Worker == FaceJob {
    /// What the command finds in one picture.
    associatedtype Found
    /// The library's report of one picture (`DetectionReport`, `LandmarksReport`, `AnalysisReport`).
    associatedtype Report: ReportText

    var annotation: AnnotateOptions { get }
    /// The job's options for the command's flags.
    var jobOptions: FaceJobOptions { get }
    /// The task the command runs.
    static var task: FaceTask { get }
    /// Runs the command's task on one picture.
    func run(_ job: FaceJob, on picture: PictureSource, limits: ImageDecodingOptions) throws
        -> FaceJobResult<Found, Report>
    /// Draws one picture's faces for `--annotate`.
    func draw(_ found: Found, on annotator: inout Annotator)
}

extension FaceBatchCommand {
    func prepareOutputs() throws {
        if let annotate = annotation.annotate {
            try FileManager.default.createDirectory(atPath: annotate, withIntermediateDirectories: true)
        }
    }

    /// A job with the command's options, its models loaded. `--annotate` decodes in full, to draw.
    func makeWorker() throws -> FaceJob {
        var options = jobOptions
        if annotation.annotate != nil { options.decode = .full }
        let job = FaceJob(options: options, modelsDirectory: batch.modelsDir)
        try job.prepare(Self.task)
        return job
    }

    /// The picture's faces, drawn into `--annotate`'s folder as `<name>.png` when asked.
    func outcome(at path: String, limits: ImageDecodingOptions, with job: FaceJob) throws -> Outcome {
        let result = try run(job, on: .file(path), limits: limits)
        if let annotate = annotation.annotate {
            var annotator = try Annotator(image: result.picture.image.uprightRGB())
            draw(result.found, on: &annotator)
            try PNGEncoder.write(annotator.image, to: outputPath(in: annotate, for: path))
        }
        return ImageEntry(path: path, outcome: .report(result.report))
    }
}

/// `--try-rotations`, for the commands that find faces in pictures (`detect`, `landmarks`, `analyze`).
struct RotationOptions: ParsableArguments {
    @Flag(help: ArgumentHelp("""
        Also look for faces in the picture turned by 90, 180 and 270 degrees (sideways or upside-down pictures \
        without an EXIF orientation): up to 4 times the detector's time. Each face then reports \
        "uprightRotation" (0, 90, 180 or 270: the clockwise turn, in degrees, that makes it upright).
        """))
    var tryRotations = false
}

/// The face options of the commands that run the mesh (`landmarks`, `analyze`): the detector, how many faces,
/// and --try-rotations.
struct MeshFaceOptions: ParsableArguments {
    /// The still-picture detector by default: picture files are often group photos, close-ups, scenes with
    /// faces a few metres away (Documentation/FaceDetector.md has the counts).
    @Option(help: ArgumentHelp(DetectorChoice.help))
    var detector = DetectorChoice(.stillPictures)

    /// No limit by default: a user of the tool expects every face (MediaPipe's FaceMesh keeps one).
    @Option(help: "At most this many faces per image, highest detection scores first (default: no limit; MediaPipe's FaceMesh has 1).")
    var maxFaces: Int?

    @Option(help: "Minimum face detection score, 0...1 (default: 0.5 with one model, MediaPipe's min_detection_confidence; 0.6 with photo).")
    var minScore: Float?

    @OptionGroup var rotations: RotationOptions

    func validate() throws {
        if let maxFaces, maxFaces < 1 { throw ValidationError("--max-faces must be at least 1") }
        if let minScore, !(0...1).contains(minScore) { throw ValidationError("--min-score must be in 0...1") }
    }

    /// The job's options for these flags.
    var jobOptions: FaceJobOptions {
        FaceJobOptions(detector: detector.source, minimumScore: minScore, maximumFaces: maxFaces,
                       tryRotations: rotations.tryRotations, decode: .full)
    }
}
