import BlazeRuntime
import Foundation

/// The failures every model pipeline shares (a detector, a landmarker, a segmenter, ...): its model file is
/// missing, does not load, or does not fit; its options are out of range; an image cannot be sampled; or a
/// run failed. Each pipeline's own error type carries these as its `.pipeline` case, beside its own cases
/// (see `PipelineFailure`).
public enum PipelineError: Error, Equatable, Sendable {
    /// The model file was not found; `searched` lists the folders tried, in order. The description is
    /// `ModelLocatorError`'s: what an app developer and what a command-line user should do.
    case modelNotFound(file: String, searched: [String])
    /// The model file exists but cannot be loaded: unreadable, malformed, or past one of the `ModelLimits`
    /// (the `InterpreterError` names which).
    case invalidModel(path: String, error: InterpreterError)
    /// The model loads but is not the kind the pipeline needs: `reason` names the inputs or outputs expected
    /// and those the model has.
    case incompatibleModel(path: String, reason: String)
    /// An option is out of range; the text names the option and its allowed values.
    case invalidOptions(String)
    /// The image cannot be sampled into the model's input (see `ImagingError`).
    case invalidImage(String)
    /// Running the model failed (a defect: inputs and outputs are checked at creation).
    case inferenceFailed(String)
}

extension PipelineError {
    /// A model session's error as a pipeline reports it. A missing file names its folder as the one searched; an
    /// unknown output name makes the model `.incompatibleModel`, naming the outputs it has.
    /// - Parameters:
    ///   - error: what `ModelSession` threw.
    ///   - modelPath: the session's model file (an unknown-output error does not carry it).
    public init(_ error: ModelSessionError, modelPath: String) {
        switch error {
        case let .modelNotFound(path):
            self = .modelNotFound(file: (path as NSString).lastPathComponent,
                                  searched: [(path as NSString).deletingLastPathComponent])
        case let .invalidModel(path, error): self = .invalidModel(path: path, error: error)
        case let .incompatibleModel(path, reason): self = .incompatibleModel(path: path, reason: reason)
        case .unknownOutput: self = .incompatibleModel(path: modelPath, reason: error.description)
        case let .invalidOptions(reason): self = .invalidOptions(reason)
        case let .invalidImage(error): self = .invalidImage(error.description)
        case let .inferenceFailed(reason): self = .inferenceFailed(reason)
        }
    }

    /// The model locator's error as a pipeline reports it.
    /// - Parameter error: what `ModelLocator` threw; `.notFound` becomes `.modelNotFound` with the same fields.
    public init(_ error: ModelLocatorError) {
        switch error {
        case let .notFound(file, searched): self = .modelNotFound(file: file, searched: searched)
        }
    }

    /// The error's text, naming the pipeline where it helps.
    /// - Parameter pipeline: what the pipeline is called in a sentence ("face detector", "person segmenter").
    /// - Returns: a one-line message for people.
    public func description(pipeline: String) -> String {
        switch self {
        case let .modelNotFound(file, searched):
            return ModelLocatorError.notFound(file: file, searched: searched).description
        case let .invalidModel(path, error):
            return "cannot load model \(path): \(error.description)"
        case let .incompatibleModel(path, reason):
            return "model \(path) does not fit the \(pipeline): \(reason)"
        case let .invalidOptions(reason):
            return "invalid \(pipeline) options: \(reason)"
        case let .invalidImage(reason):
            return "invalid image: \(reason)"
        case let .inferenceFailed(reason):
            return "\(pipeline) inference failed: \(reason)"
        }
    }
}

/// A pipeline's error type: the shared `PipelineError` as its `.pipeline` case, plus the pipeline's own cases.
///
/// Conforming costs an enum a `case pipeline(PipelineError)` (which satisfies `pipeline(_:)`), a
/// `pipelineName`, and the description of its own cases. It then gets the shared cases' constructors
/// (`.modelNotFound(file:searched:)`, `.invalidOptions(_:)`, ... build `.pipeline(...)`), the conversions from
/// `ModelSessionError` and `ModelLocatorError`, model lookup (`locateModel(_:in:)`) and options checking
/// (`PipelineOptions.validate(as:)`). Match the shared cases as `.pipeline(.invalidModel(let path, _))`.
public protocol PipelineFailure: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// Wraps a shared failure (an enum's `case pipeline(PipelineError)` satisfies this).
    /// - Parameter error: the shared failure.
    /// - Returns: this pipeline's error carrying it.
    static func pipeline(_ error: PipelineError) -> Self
    /// What the pipeline is called in the errors' text, in lower case ("face detector").
    static var pipelineName: String { get }
}

extension PipelineFailure {
    /// `.pipeline(.modelNotFound(file:searched:))`.
    /// - Parameters:
    ///   - file: the model's file name.
    ///   - searched: the folders tried, in order.
    /// - Returns: this pipeline's error.
    public static func modelNotFound(file: String, searched: [String]) -> Self {
        .pipeline(.modelNotFound(file: file, searched: searched))
    }

    /// `.pipeline(.invalidModel(path:error:))`.
    /// - Parameters:
    ///   - path: the model file's path.
    ///   - error: why the interpreter refused it.
    /// - Returns: this pipeline's error.
    public static func invalidModel(path: String, error: InterpreterError) -> Self {
        .pipeline(.invalidModel(path: path, error: error))
    }

    /// `.pipeline(.incompatibleModel(path:reason:))`.
    /// - Parameters:
    ///   - path: the model file's path.
    ///   - reason: the inputs or outputs expected and those the model has.
    /// - Returns: this pipeline's error.
    public static func incompatibleModel(path: String, reason: String) -> Self {
        .pipeline(.incompatibleModel(path: path, reason: reason))
    }

    /// `.pipeline(.invalidOptions(_:))`.
    /// - Parameter reason: the option and its allowed values.
    /// - Returns: this pipeline's error.
    public static func invalidOptions(_ reason: String) -> Self { .pipeline(.invalidOptions(reason)) }

    /// `.pipeline(.invalidImage(_:))`.
    /// - Parameter reason: why the image cannot be sampled.
    /// - Returns: this pipeline's error.
    public static func invalidImage(_ reason: String) -> Self { .pipeline(.invalidImage(reason)) }

    /// `.pipeline(.inferenceFailed(_:))`.
    /// - Parameter reason: what failed.
    /// - Returns: this pipeline's error.
    public static func inferenceFailed(_ reason: String) -> Self { .pipeline(.inferenceFailed(reason)) }

    /// A model session's error as this pipeline's (see `PipelineError.init(_:modelPath:)`).
    /// - Parameters:
    ///   - error: what `ModelSession` threw.
    ///   - modelPath: the session's model file.
    /// - Returns: this pipeline's error.
    public static func session(_ error: ModelSessionError, modelPath: String) -> Self {
        .pipeline(PipelineError(error, modelPath: modelPath))
    }

    /// The path of the catalog model `name`, found by `ModelLocator`: in `location` (a folder, or the file's own
    /// path) if given and only there, else in the folders `ModelLocator.searchFolders` lists.
    /// - Parameters:
    ///   - name: the catalog model.
    ///   - location: a folder holding the file, or the file's own path; nil searches the default folders.
    /// - Returns: the path of an existing file (not read).
    /// - Throws: `.modelNotFound`, listing the folders tried.
    public static func locateModel(_ name: ModelName, in location: String?) throws(Self) -> String {
        do { return try ModelLocator().locate(name, in: location) } catch {
            throw .pipeline(PipelineError(error))
        }
    }

    /// The error's text (`LocalizedError`): its `description`.
    public var errorDescription: String? { description }
}
