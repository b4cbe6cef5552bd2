import ArgumentParser
import BlazeFace
import BlazeFaceMesh
import BlazeImageIO
import BlazeJobs
import BlazeReports
import BlazeModels
import Foundation

/// `blazeface landmarks`: MediaPipe's face mesh (478 or 468 points per face) on image files.
struct LandmarksCommand: FaceBatchCommand {
    static let configuration = CommandConfiguration(
        commandName: "landmarks",
        abstract: "Compute MediaPipe's face mesh (478 or 468 points per face) in images (\(ImageFileFormat.listedNames)).",
        discussion: """
            Points are pixels of the upright image (after EXIF orientation), origin top-left, with z (depth, \
            smaller is nearer) on the same scale as x. Point 1 is the nose tip; 468 and 473 are the centres of \
            the subject's right and left irises (478-point models).
            --json prints {"images": [{"path", "width", "height", "faces": [{"box": {"x", "y", "width", \
            "height"}, "score", "presence", "landmarks": [[x, y, z], ...]}]}]}: box and score are the face's \
            detection, presence the mesh model's confidence that it sees a face.
            With --detector short-range and the other options at their defaults, this is MediaPipe's legacy \
            FaceMesh graph with its detector settings (add --max-faces 1 for FaceMesh's default of one face). \
            The default detector, photo (full-range, short-range and full-range-sparse together), also finds the \
            small faces of group photos, close-ups and faces in old photographs, which the short-range detector \
            alone misses.
            An image that cannot be read is reported and the others go on; the exit status is then 1.
            --annotate draws each face's region, mesh, contours and irises.
            --try-rotations also runs the detector on the picture turned by 90, 180 and 270 degrees (up to 4 times \
            the detector's time); each face then reports "uprightRotation" (0, 90, 180 or 270), the clockwise turn \
            in degrees that makes it upright, and its mesh is computed in that turn.
            Models are found in --models-dir (only there, when given), else $BLAZEFACE_MODELS, else a Models folder \
            beside the executable, else ./Models (run Models/fetch.sh).
            """)

    typealias Outcome = ImageEntry<LandmarksReport>
    typealias Worker = FaceJob

    @OptionGroup var batch: ImageBatchOptions

    @OptionGroup var annotation: AnnotateOptions

    @Option(help: ArgumentHelp("""
        attention: 478 points, lips, eyes and irises refined (MediaPipe's refine_landmarks); \
        mesh: 468 points, the fastest; mesh-iris: 478 points from the mesh and the separate iris model.
        """))
    var model: FaceLandmarker.Model = .attention

    @OptionGroup var faceOptions: MeshFaceOptions

    func run() throws {
        try runBatch()
    }

    static let task = FaceTask.landmarks

    var jobOptions: FaceJobOptions {
        var options = faceOptions.jobOptions
        options.mesh = model
        return options
    }

    func run(_ job: FaceJob, on picture: PictureSource, limits: ImageDecodingOptions) throws
        -> FaceJobResult<[FaceLandmarks], LandmarksReport> {
        try job.landmarks(picture, limits: limits)
    }

    func draw(_ faces: [FaceLandmarks], on annotator: inout Annotator) {
        for face in faces.reversed() { annotator.draw(face) }
    }
}

extension FaceLandmarker.Model: ExpressibleByArgument {}

/// `track --detector`: one of the catalog's face detectors, by its command-line name (`short-range`, ...; aliases
/// such as `front` are accepted but not listed). Video keeps one model.
struct DetectorName: ExpressibleByArgument {
    var model: FaceDetector.Model

    init(_ model: FaceDetector.Model) { self.model = model }

    init?(argument: String) {
        guard case .catalog(let model)? = FaceJobOptions.DetectorSource(name: argument) else { return nil }
        self.model = model
    }

    static var allValueStrings: [String] { FaceDetector.Model.allCases.map(\.catalogName.rawValue) }

    var defaultValueDescription: String { model.catalogName.rawValue }
}
