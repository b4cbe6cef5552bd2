import ArgumentParser
import BlazeFaceMesh
import BlazeImageIO
import BlazeReports
import Foundation

/// `--annotate`, for the commands that find faces (`detect`, `landmarks`).
struct AnnotateOptions: ParsableArguments {
    @Option(help: "Write a PNG per image with the results drawn on it, into this folder.")
    var annotate: String?
}

/// A batch command that finds faces (`detect`, `landmarks`, `analyze`): it supplies `faces(in:with:)`, its
/// library report and `draw`, and gets the outcome and the `--annotate` PNGs from here.
protocol FaceBatchCommand: ImageBatchCommand where Outcome == ImageEntry<Report> {
    /// What the command finds in one image.
    associatedtype Faces
    /// The library's report of one image (`DetectionReport`, `LandmarksReport`, `AnalysisReport`).
    associatedtype Report: ReportText

    var annotation: AnnotateOptions { get }
    /// The faces of one image (any orientation; results in upright pixels).
    func faces(in image: ImageView, with worker: Worker) throws -> Faces
    /// The report of one image's faces; `width` and `height` are the upright image's.
    func report(of faces: Faces, width: Int, height: Int) -> Report
    /// Draws one image's faces for `--annotate`.
    func draw(_ faces: Faces, on annotator: inout Annotator)
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
        return ImageEntry(path: path,
                          outcome: .report(report(of: faces, width: image.uprightWidth, height: image.uprightHeight)))
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
    /// Full-range by default, as in the library: picture files are often group photos and scenes with faces a
    /// few metres away, which MediaPipe's short-range detector misses (Documentation/Landmarks.md has the counts).
    @Option(help: ArgumentHelp("""
        The face detector: full-range (faces within ~5 m, small faces too), short-range (MediaPipe FaceMesh's: \
        faces within ~2 m), full-range-sparse, back.
        """))
    var detector = DetectorName(.fullRange)

    /// No limit by default: a user of the tool expects every face (MediaPipe's FaceMesh keeps one).
    @Option(help: "At most this many faces per image, highest detection scores first (default: no limit; MediaPipe's FaceMesh has 1).")
    var maxFaces: Int?

    @OptionGroup var rotations: RotationOptions

    func validate() throws {
        if let maxFaces, maxFaces < 1 { throw ValidationError("--max-faces must be at least 1") }
    }

    /// The landmarker's options for these flags.
    var landmarkerOptions: FaceLandmarker.Options {
        FaceLandmarker.Options(detector: detector.model, maximumFaces: maxFaces, tryRotations: rotations.tryRotations)
    }
}
