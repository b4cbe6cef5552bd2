import ArgumentParser
import BlazeFaceAnalysis
import BlazeFaceMesh
import BlazeImageIO
import BlazeJobs
import BlazeReports
import Foundation

/// `blazeface analyze`: per face, the head pose, open eyes, smile, capture quality and framing hints.
struct AnalyzeCommand: FaceBatchCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Head pose, open eyes, smiles, capture quality and framing hints of the faces in images (\(ImageFileFormat.listedNames)).",
        discussion: """
            Each face is found, its 478-point mesh computed (as `landmarks` does), and from the mesh: the head \
            pose (ML Kit's Euler angles in degrees, relative to the camera's axes, with MediaPipe's camera: \
            vertical field of view 63 degrees), the probabilities that the subject's own left and right eyes \
            are open and that the subject smiles, and the capture quality (0...1) with the hints that say what \
            to fix for the --framing (passport: US passport photo rules; selfie: a looser target).
            --json prints {"images": [{"path", "width", "height", "hints", "faces": [{"box": {"x", "y", \
            "width", "height"}, "score", "pose": {"pitch", "yaw", "roll"}, "leftEyeOpen", "rightEyeOpen", \
            "smiling", "quality", "hints": [...]}]}]}. A face's hints are its own (tooSmall, offCentre, \
            lookStraight, eyesClosed, tooDark, tooBright, blurry); the image's add noFace and multipleFaces.
            --annotate draws each face's box, its axes from the nose tip (red: toward the subject's left, \
            green: up the face, blue: out of the face), the probabilities, the quality and the hints.
            --try-rotations also runs the detector on the picture turned by 90, 180 and 270 degrees (up to 4 times \
            the detector's time); each face then reports "uprightRotation" (0, 90, 180 or 270), the clockwise turn \
            in degrees that makes it upright; its pose is relative to the picture as it is, so a face reporting \
            "uprightRotation": 90 has a roll near +90, one reporting 270 near -90.
            An image that cannot be read is reported and the others go on; the exit status is then 1.
            Models are found in --models-dir (only there, when given), else $BLAZEFACE_MODELS, else a Models folder \
            beside the executable, else ./Models (run Models/fetch.sh).
            """)

    typealias Outcome = ImageEntry<AnalysisReport>
    typealias Worker = FaceJob

    @OptionGroup var batch: ImageBatchOptions

    @OptionGroup var annotation: AnnotateOptions

    @Option(help: "The target the hints judge against: passport (US passport photo rules) or selfie.")
    var framing: FramingName = .selfie

    @OptionGroup var faceOptions: MeshFaceOptions

    func run() throws {
        try runBatch()
    }

    static let task = FaceTask.analyze

    var jobOptions: FaceJobOptions {
        var options = faceOptions.jobOptions
        options.framing = framing.framing
        return options
    }

    func run(_ job: FaceJob, on picture: PictureSource, limits: ImageDecodingOptions) throws
        -> FaceJobResult<AnalyzedImage, AnalysisReport> {
        try job.analyze(picture, limits: limits)
    }

    func draw(_ image: AnalyzedImage, on annotator: inout Annotator) {
        for face in image.faces.reversed() { annotator.draw(face, camera: image.camera) }
    }
}

/// `--framing`: a preset of `Framing`.
enum FramingName: String, ExpressibleByArgument, CaseIterable {
    case passport, selfie

    var framing: Framing {
        switch self {
        case .passport: return .passport
        case .selfie: return .selfie
        }
    }
}
