import BlazeFaceMesh
import Foundation

/// Why a capture could not be assessed. Nothing is assessed then.
public enum CaptureQualityError: Error, Hashable, Sendable {
    /// A `Framing` value out of its domain (see `Framing.validate()`); `field` names it.
    case invalidFraming(field: String)
    /// Face `face` has fewer than the 468 points of MediaPipe's face mesh.
    case tooFewPoints(face: Int, count: Int)
    /// Point `index` (0...467) of face `face` has a non-finite coordinate.
    case nonFinitePoint(face: Int, index: Int)
    /// An eye-open probability of face `face` is NaN or outside 0...1.
    case invalidEyeOpenProbability(face: Int, value: Float)
    /// The head pose of face `face` could not be estimated (a degenerate mesh, a bad camera).
    case headPose(face: Int, HeadPoseError)
}

extension CaptureQualityError: CustomStringConvertible, LocalizedError {
    /// A one-line message for people, with the face, point or value concerned.
    public var description: String {
        switch self {
        case let .invalidFraming(field): return "invalid framing: \(field) is out of range"
        case let .tooFewPoints(face, count): return "face \(face) has \(count) points; the face mesh has 468"
        case let .nonFinitePoint(face, index): return "point \(index) of face \(face) is not finite"
        case let .invalidEyeOpenProbability(face, value):
            return "face \(face): eye-open probability \(value) is not in 0...1"
        case let .headPose(face, error): return "face \(face): \(error)"
        }
    }

    /// The same message as `description`.
    public var errorDescription: String? { description }
}
