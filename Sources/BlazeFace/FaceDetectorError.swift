import BlazeAnchors
import BlazeModels
import BlazeRuntime
import Foundation

/// Why a face detector could not be created or could not process an image.
public enum FaceDetectorError: Error, Equatable, Sendable {
    /// The model file was not found; `searched` lists the folders tried, in order. The description is
    /// `ModelLocatorError`'s: what an app developer and what a command-line user should do.
    case modelNotFound(file: String, searched: [String])
    /// The model file exists but cannot be loaded or run.
    case invalidModel(path: String, error: InterpreterError)
    /// The model loads but does not fit the detector's configuration (its inputs or outputs differ).
    case incompatibleModel(path: String, reason: String)
    /// The anchor or decoding configuration is invalid.
    case invalidConfiguration(String)
    /// An option is out of range.
    case invalidOptions(String)
    /// The image cannot be sampled into the model's input (see `ImagingError`).
    case invalidImage(String)
    /// The model failed while running an image (a defect: inputs and outputs are checked at creation).
    case inferenceFailed(String)
}

extension FaceDetectorError: CustomStringConvertible, LocalizedError {
    public var description: String {
        switch self {
        case let .modelNotFound(file, searched):
            return ModelLocatorError.notFound(file: file, searched: searched).description
        case let .invalidModel(path, error):
            return "cannot load model \(path): \(error.description)"
        case let .incompatibleModel(path, reason):
            return "model \(path) does not fit this detector: \(reason)"
        case let .invalidConfiguration(reason):
            return "invalid detector configuration: \(reason)"
        case let .invalidOptions(reason):
            return "invalid detector options: \(reason)"
        case let .invalidImage(reason):
            return "invalid image: \(reason)"
        case let .inferenceFailed(reason):
            return "inference failed: \(reason)"
        }
    }

    public var errorDescription: String? { description }
}

extension FaceDetectorError {
    /// The detector's view of a model-session error.
    init(_ error: ModelSessionError) {
        switch error {
        case let .modelNotFound(path):
            self = .modelNotFound(file: (path as NSString).lastPathComponent,
                                  searched: [(path as NSString).deletingLastPathComponent])
        case let .invalidModel(path, error): self = .invalidModel(path: path, error: error)
        case let .incompatibleModel(path, reason): self = .incompatibleModel(path: path, reason: reason)
        case let .unknownOutput(name, available):
            self = .invalidConfiguration("the model has no output \"\(name)\" (its outputs: \(available.joined(separator: ", ")))")
        case let .invalidOptions(reason): self = .invalidOptions(reason)
        case let .invalidImage(error): self = .invalidImage(error.description)
        case let .inferenceFailed(reason): self = .inferenceFailed(reason)
        }
    }
}
