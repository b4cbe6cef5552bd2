import BlazeFace
import BlazeModels
import BlazeRuntime
import Foundation

/// Why a face landmarker could not be created or could not process an image.
public enum FaceLandmarkerError: Error, Equatable, Sendable {
    /// A model file was not found; `searched` lists the folders tried, in order.
    case modelNotFound(file: String, searched: [String])
    /// A model file exists but cannot be loaded.
    case invalidModel(path: String, error: InterpreterError)
    /// A model loads but its inputs or outputs are not those of the face mesh (or of the detector).
    case incompatibleModel(path: String, reason: String)
    /// An option is out of range.
    case invalidOptions(String)
    /// The image cannot be sampled (see `ImagingError`).
    case invalidImage(String)
    /// A region given to `landmarks(_:region:)` has a zero, negative or non-finite size or centre.
    case invalidRegion(RotatedRect)
    /// The model produced a non-finite value (NaN or infinity): a corrupted model file.
    case nonFiniteOutput(path: String)
    /// The detector failed (see `FaceDetectorError`).
    case detectionFailed(FaceDetectorError)
    /// Running a model failed (a defect: inputs and outputs are checked at creation).
    case inferenceFailed(String)
}

extension FaceLandmarkerError: CustomStringConvertible, LocalizedError {
    public var description: String {
        switch self {
        case let .modelNotFound(file, searched):
            return ModelLocatorError.notFound(file: file, searched: searched).description
        case let .invalidModel(path, error):
            return "cannot load model \(path): \(error.description)"
        case let .incompatibleModel(path, reason):
            return "model \(path) does not fit the face landmarker: \(reason)"
        case let .invalidOptions(reason):
            return "invalid face landmarker options: \(reason)"
        case let .invalidImage(reason):
            return "invalid image: \(reason)"
        case let .invalidRegion(region):
            return "invalid face region \(region): the centre must be finite and both sides positive and finite"
        case let .nonFiniteOutput(path):
            return "model \(path) produced NaN or infinite landmarks; the file is probably corrupted"
        case let .detectionFailed(error):
            return "face detection failed: \(error.description)"
        case let .inferenceFailed(reason):
            return "face landmark inference failed: \(reason)"
        }
    }

    public var errorDescription: String? { description }

    /// The landmarker's error for a model session's.
    init(_ error: ModelSessionError) {
        switch error {
        case let .modelNotFound(path): self = .modelNotFound(file: path, searched: [])
        case let .invalidModel(path, error): self = .invalidModel(path: path, error: error)
        case let .incompatibleModel(path, reason): self = .incompatibleModel(path: path, reason: reason)
        case let .invalidOptions(reason): self = .invalidOptions(reason)
        case let .invalidImage(error): self = .invalidImage(error.description)
        case let .unknownOutput(name, available):
            self = .incompatibleModel(path: "", reason: "no output \(name); the model has \(available)")
        case let .inferenceFailed(reason): self = .inferenceFailed(reason)
        }
    }
}
