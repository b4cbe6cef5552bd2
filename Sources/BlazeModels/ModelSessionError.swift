import BlazeImaging
import BlazeRuntime
import Foundation

/// Why a model session could not be created or could not run an image.
public enum ModelSessionError: Error, Equatable, Sendable {
    /// No file at `path`.
    case modelNotFound(path: String)
    /// The file exists but cannot be loaded or run.
    case invalidModel(path: String, error: InterpreterError)
    /// The model loads but does not fit the pipeline (its inputs or outputs differ from what it needs).
    case incompatibleModel(path: String, reason: String)
    /// No output of that name; `available` lists the model's output names.
    case unknownOutput(name: String, available: [String])
    /// An option is out of range.
    case invalidOptions(String)
    /// The image or region cannot be sampled into the model's input.
    case invalidImage(ImagingError)
    /// Reading the outputs failed (a defect: inputs and outputs are checked at creation).
    case inferenceFailed(String)
}

extension ModelSessionError: CustomStringConvertible, LocalizedError {
    /// A one-line message for people, with the path, name or reason concerned.
    public var description: String {
        switch self {
        case let .modelNotFound(path):
            return "no model file at \(path)"
        case let .invalidModel(path, error):
            return "cannot load model \(path): \(error.description)"
        case let .incompatibleModel(path, reason):
            return "model \(path) does not fit: \(reason)"
        case let .unknownOutput(name, available):
            return "the model has no output named \"\(name)\" (its outputs: \(available.joined(separator: ", ")))"
        case let .invalidOptions(reason):
            return "invalid options: \(reason)"
        case let .invalidImage(error):
            return "invalid image: \(error.description)"
        case let .inferenceFailed(reason):
            return "inference failed: \(reason)"
        }
    }

    /// The same message as `description`.
    public var errorDescription: String? { description }
}
