import BlazeModels
import BlazeRuntime
import Foundation

/// Why a person segmenter could not be created or could not segment an image.
public enum PersonSegmenterError: Error, Equatable, Sendable {
    /// The model file was not found; `searched` lists the folders tried, in order. The description is
    /// `ModelLocatorError`'s: what an app developer and what a command-line user should do.
    case modelNotFound(file: String, searched: [String])
    /// The model file exists but cannot be loaded.
    case invalidModel(path: String, error: InterpreterError)
    /// The model loads but is not a segmentation model: it needs one `1 x H x W x 3` image input and a
    /// `1 x h x w x 1` mask output (h, w ≥ 2). A face detector or a face mesh given by mistake lands here.
    case incompatibleModel(path: String, reason: String)
    /// An option is out of range.
    case invalidOptions(String)
    /// The image cannot be sampled into the model's input (see `ImagingError`).
    case invalidImage(String)
    /// Running the model failed (a defect: inputs and outputs are checked at creation).
    case inferenceFailed(String)
}

extension PersonSegmenterError: CustomStringConvertible, LocalizedError {
    public var description: String {
        switch self {
        case let .modelNotFound(file, searched):
            return ModelLocatorError.notFound(file: file, searched: searched).description
        case let .invalidModel(path, error):
            return "cannot load model \(path): \(error.description)"
        case let .incompatibleModel(path, reason):
            return "model \(path) is not a person segmentation model: \(reason)"
        case let .invalidOptions(reason):
            return "invalid person segmenter options: \(reason)"
        case let .invalidImage(reason):
            return "invalid image: \(reason)"
        case let .inferenceFailed(reason):
            return "segmentation failed: \(reason)"
        }
    }

    public var errorDescription: String? { description }

    /// The segmenter's view of a model-session error.
    init(_ error: ModelSessionError) {
        switch error {
        case let .modelNotFound(path):
            self = .modelNotFound(file: (path as NSString).lastPathComponent,
                                  searched: [(path as NSString).deletingLastPathComponent])
        case let .invalidModel(path, error): self = .invalidModel(path: path, error: error)
        case let .incompatibleModel(path, reason): self = .incompatibleModel(path: path, reason: reason)
        case let .unknownOutput(name, available):
            self = .incompatibleModel(path: "", reason: "no output \(name); the model has \(available)")
        case let .invalidOptions(reason): self = .invalidOptions(reason)
        case let .invalidImage(error): self = .invalidImage(error.description)
        case let .inferenceFailed(reason): self = .inferenceFailed(reason)
        }
    }
}
