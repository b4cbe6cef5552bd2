import BlazeFaceMesh
import Foundation

/// Why a face tracker could not be created or could not process a frame.
public enum FaceTrackerError: Error, Equatable, Sendable {
    /// An option is out of range.
    case invalidOptions(String)
    /// A frame's timestamp is NaN or infinite.
    case nonFiniteTimestamp(Double)
    /// A frame's timestamp is not after the previous frame's (seconds). The frame is ignored; the tracks are kept.
    case nonIncreasingTimestamp(previous: Double, given: Double)
    /// The landmarker or its detector failed (a model problem, see `FaceLandmarkerError`).
    case landmarker(FaceLandmarkerError)
}

extension FaceTrackerError: CustomStringConvertible, LocalizedError {
    /// A one-line message for people, with the option, timestamps or model error concerned.
    public var description: String {
        switch self {
        case let .invalidOptions(reason): return "invalid face tracker options: \(reason)"
        case let .nonFiniteTimestamp(time): return "frame timestamp \(time) is not finite"
        case let .nonIncreasingTimestamp(previous, given):
            return "frame timestamp \(given) s is not after the previous frame's \(previous) s"
        case let .landmarker(error): return "face tracking failed: \(error.description)"
        }
    }

    /// The same message as `description`.
    public var errorDescription: String? { description }
}
