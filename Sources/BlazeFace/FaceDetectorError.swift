import BlazeModels

/// Why a face detector could not be created or could not process an image.
///
/// The failures every pipeline shares (model not found, invalid or incompatible model, invalid options,
/// invalid image, inference failed) are `.pipeline(PipelineError)`; build them with the shared constructors
/// (`FaceDetectorError.invalidOptions("...")`) and match them as `.pipeline(.modelNotFound(let file, _))`.
public enum FaceDetectorError: PipelineFailure {
    /// A failure every pipeline shares (see `PipelineError`).
    case pipeline(PipelineError)
    /// The anchor or decoding configuration is invalid.
    case invalidConfiguration(String)

    /// What the errors' text calls this pipeline.
    public static let pipelineName = "face detector"

    /// A one-line message for people, naming the pipeline where it helps.
    public var description: String {
        switch self {
        case let .pipeline(error): return error.description(pipeline: Self.pipelineName)
        case let .invalidConfiguration(reason): return "invalid detector configuration: \(reason)"
        }
    }
}
