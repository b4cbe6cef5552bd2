import ArgumentParser
import BlazeImageIO
import Foundation

/// `--annotate`, for the commands that find faces (`detect`, `landmarks`).
struct AnnotateOptions: ParsableArguments {
    @Option(help: "Write a PNG per image with the results drawn on it, into this folder.")
    var annotate: String?
}

/// One image's entry in the report of a command that finds faces: its size and faces, or why it failed.
protocol FaceOutcome: ImageOutcome {
    /// What the command finds in one image.
    associatedtype Faces

    init(path: String, width: Int, height: Int, faces: Faces)

    /// The number of faces; nil for an image that failed.
    var faceCount: Int? { get }
}

extension FaceOutcome {
    var summary: String? { faceCount.map { "\($0) face\($0 == 1 ? "" : "s")" } }
}

/// A batch command that finds faces (`detect`, `landmarks`): it supplies `faces(in:with:)` and `draw`, and gets
/// the outcome and the `--annotate` PNGs from here.
protocol FaceBatchCommand: ImageBatchCommand where Outcome: FaceOutcome {
    var annotation: AnnotateOptions { get }
    /// The faces of one image (any orientation; results in upright pixels).
    func faces(in image: ImageView, with worker: Worker) throws -> Outcome.Faces
    /// Draws one image's faces for `--annotate`.
    func draw(_ faces: Outcome.Faces, on annotator: inout Annotator)
}

extension FaceBatchCommand {
    func prepareOutputs() throws {
        if let annotate = annotation.annotate {
            try FileManager.default.createDirectory(atPath: annotate, withIntermediateDirectories: true)
        }
    }

    /// The image's faces, drawn into `--annotate`'s folder as `<name>.png` when asked.
    func outcome(of image: DecodedImage, at path: String, with worker: Worker) throws -> Outcome {
        let faces = try image.withView { try self.faces(in: $0, with: worker) }
        if let annotate = annotation.annotate {
            var annotator = try Annotator(image: image.uprightRGB())
            draw(faces, on: &annotator)
            try PNGEncoder.write(annotator.image, to: outputPath(in: annotate, for: path))
        }
        return Outcome(path: path, width: image.uprightWidth, height: image.uprightHeight, faces: faces)
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

/// One picture's faces and whether the report gives each face's `uprightRotation` (only with
/// `--try-rotations`, so that the output without it stays as it was).
struct FacesFound<Faces> {
    var faces: Faces
    var reportsRotation: Bool
}

/// A box in a JSON report: `{"x", "y", "width", "height"}`, pixels of the upright image.
struct BoxResult: Encodable {
    var x: Double
    var y: Double
    var width: Double
    var height: Double

    init(_ rect: Rect) {
        (x, y, width, height) = (rect.x, rect.y, rect.width, rect.height)
    }
}
