import ArgumentParser
import BlazeAnchors
import BlazeFace
import BlazeImageIO
import BlazeJobs
import BlazeReports
import Foundation

/// `blazeface detect`: finds faces in image files (every format BlazeImageIO reads).
struct DetectCommand: FaceBatchCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Detect faces in images (\(ImageFileFormat.listedNames); files or folders).",
        discussion: """
            Coordinates are pixels of the upright image (after EXIF orientation), origin top-left.
            A JPEG larger than 9 times the detector's input (1,728 pixels for full-range) is decoded smaller \
            (shrink-on-load; --full-decode turns it off, and --annotate decodes in full to draw).
            An image that cannot be read is reported and the others go on; the exit status is then 1.
            --annotate draws each face's box, score and six keypoints.
            --try-rotations also runs the detector on the picture turned by 90, 180 and 270 degrees and keeps one \
            face per person; each face then reports "uprightRotation", the clockwise turn in degrees (0, 90, 180, \
            270) that makes it upright. It costs up to 4 times the detector's time.
            The default detector, photo, runs full-range, short-range and full-range-sparse together and merges \
            their faces: close-ups, group photos and old photographs (Documentation/FaceDetector.md, "Still \
            pictures"); short-range alone (MediaPipe's front-camera model, faces within ~2 m) is the fastest.
            Models are found in --models-dir (only there, when given), else $BLAZEFACE_MODELS, else a Models folder \
            beside the executable, else ./Models (run Models/fetch.sh).
            """)

    typealias Outcome = ImageEntry<DetectionReport>
    typealias Worker = FaceJob

    @OptionGroup var batch: ImageBatchOptions

    @OptionGroup var annotation: AnnotateOptions

    @Option(help: ArgumentHelp(DetectorChoice.help))
    var model = DetectorChoice(.stillPictures)

    @OptionGroup var modelLimits: ModelLimitOptions

    @Option(help: "Minimum face score, 0...1 (default: the model's: 0.6 photo and full-range, 0.5 short-range, 0.65 back).")
    var minScore: Float?

    @Option(help: "Non-maximum suppression: weighted (MediaPipe's blending) or hard.")
    var nms: NMSAlgorithm = .weighted

    @Option(help: "IoU above which overlapping detections are merged or dropped, 0...1.")
    var nmsIou: Float = 0.3

    @Option(help: "Report at most this many faces per image, highest scores first.")
    var maxFaces: Int?

    @Option(help: "letterbox (whole image, MediaPipe's) or center (square centre crop).")
    var crop: CropChoice = .letterbox

    @OptionGroup var rotations: RotationOptions

    @Flag(help: ArgumentHelp("""
        Decode every picture in full. By default a large JPEG is decoded smaller (shrink-on-load: 1/2, 1/4 or 1/8 \
        with libjpeg's DCT scaling, down to 9 times the detector's input, 1,728 pixels for full-range): about half \
        the decode time of a 12 MP photo, boxes within the full decode's own noise, but small faces scored near \
        the threshold can move or be lost (Documentation/Imaging.md). Coordinates are the full picture's either way.
        """))
    var fullDecode = false

    func validate() throws {
        if let minScore, !(0...1).contains(minScore) { throw ValidationError("--min-score must be in 0...1") }
        guard (0...1).contains(nmsIou) else { throw ValidationError("--nms-iou must be in 0...1") }
        if let maxFaces, maxFaces < 1 { throw ValidationError("--max-faces must be at least 1") }
    }

    func run() throws {
        try runBatch()
    }

    static let task = FaceTask.detect

    var jobOptions: FaceJobOptions {
        FaceJobOptions(detector: model.source, minimumScore: minScore, nms: nms, iouThreshold: nmsIou,
                       maximumFaces: maxFaces, preprocessing: crop.preprocessing, modelLimits: modelLimits.limits,
                       tryRotations: rotations.tryRotations,
                       decode: fullDecode ? .full : .shrinkOnLoad(minimumLongSide: nil))
    }

    func run(_ job: FaceJob, on picture: PictureSource, limits: ImageDecodingOptions) throws
        -> FaceJobResult<[Face], DetectionReport> {
        try job.detect(picture, limits: limits)
    }

    func draw(_ faces: [Face], on annotator: inout Annotator) {
        for face in faces.reversed() { annotator.draw(face) }
    }
}
