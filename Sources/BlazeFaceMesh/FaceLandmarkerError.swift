import BlazeFace
import BlazeModels

/// Why a face landmarker could not be created or could not process an image.
///
/// The failures every pipeline shares (model not found, invalid or incompatible model, invalid options,
/// invalid image, inference failed) are `.pipeline(PipelineError)`; the others are the landmarker's own.
public enum FaceLandmarkerError: PipelineFailure {
    /// A failure every pipeline shares (see `PipelineError`), for the mesh or the iris model.
    case pipeline(PipelineError)
    /// A region given to `landmarks(_:region:)` has a zero, negative or non-finite size or centre.
    case invalidRegion(RotatedRect)
    /// The model produced a non-finite value (NaN or infinity): a corrupted model file.
    case nonFiniteOutput(path: String)
    /// The detector failed (see `FaceDetectorError`).
    case detectionFailed(FaceDetectorError)

    /// What the errors' text calls this pipeline.
    public static let pipelineName = "face landmarker"

    /// A one-line message for people, naming the pipeline where it helps.
    public var description: String {
        switch self {
        case let .pipeline(error):
            return error.description(pipeline: Self.pipelineName)
        case let .invalidRegion(region):
            return "invalid face region \(region): the centre must be finite and both sides positive and finite"
        case let .nonFiniteOutput(path):
            return "model \(path) produced NaN or infinite landmarks; the file is probably corrupted"
        case let .detectionFailed(error):
            return "face detection failed: \(error.description)"
        }
    }
}
