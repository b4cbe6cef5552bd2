import BlazeModels

/// Why a person segmenter could not be created or could not segment an image.
///
/// The segmenter has no failure of its own: every case is one all pipelines share (`PipelineError`). A model
/// that is not a segmentation model (it needs one `1 x H x W x 3` image input and a `1 x h x w x 1` mask
/// output, h, w ≥ 2; a face detector or a face mesh given by mistake) is `.pipeline(.incompatibleModel)`.
public enum PersonSegmenterError: PipelineFailure {
    /// A failure every pipeline shares (see `PipelineError`).
    case pipeline(PipelineError)

    /// What the errors' text calls this pipeline.
    public static let pipelineName = "person segmenter"

    /// A one-line message for people, naming the pipeline where it helps.
    public var description: String {
        switch self {
        case let .pipeline(error): return error.description(pipeline: Self.pipelineName)
        }
    }
}
