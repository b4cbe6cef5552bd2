/// A side named from the subject's own point of view: `.left` is the subject's left, which is the image's right
/// in an unmirrored photo (a selfie preview is usually mirrored: there it is the screen's left).
public enum FaceSide: String, Hashable, Sendable, CaseIterable {
    /// The subject's own left.
    case left
    /// The subject's own right.
    case right
}

/// A gesture of one face, recognized from a stream of its attributes by `GestureRecognizer`.
public enum FaceGesture: Hashable, Sendable, CustomStringConvertible {
    /// Both eyes closed briefly and opened again.
    case blink
    /// One eye closed (`side`, the subject's own) while the other stayed open.
    case wink(FaceSide)
    /// The head turned to the subject's `side` (yaw past the threshold) from the rest pose.
    case headTurn(FaceSide)
    /// The head tilted toward the subject's `side` shoulder (roll past the threshold) from the rest pose.
    case headTilt(FaceSide)
    /// The head dipped (pitch down) and came back up.
    case nod

    /// The gesture in words, such as `wink left` (the subject's own side).
    public var description: String {
        switch self {
        case .blink: return "blink"
        case let .wink(side): return "wink \(side.rawValue)"
        case let .headTurn(side): return "head turn \(side.rawValue)"
        case let .headTilt(side): return "head tilt \(side.rawValue)"
        case .nod: return "nod"
        }
    }
}

/// One moment of a face, as the gesture recognizer reads it. Any value may be missing (nil): that signal is
/// then treated as a gap, and a gesture that needs it is not recognized across the gap.
public struct GestureSample: Hashable, Sendable {
    /// Seconds, increasing from sample to sample (any origin: a frame's presentation time).
    public var time: Double
    /// Probability that the subject's own left eye is open, 0...1.
    public var leftEyeOpen: Float?
    /// Probability that the subject's own right eye is open, 0...1.
    public var rightEyeOpen: Float?
    /// Degrees, ML Kit's conventions: pitch positive when the face looks up, yaw positive when the subject turns
    /// to their own left, roll positive when the face rolls counter-clockwise as the camera sees it.
    public var pitch: Double?
    /// Degrees, positive when the subject turns to their own left (ML Kit's yaw).
    public var yaw: Double?
    /// Degrees, positive when the face rolls counter-clockwise as the camera sees it (ML Kit's roll).
    public var roll: Double?

    /// A sample; every signal but the time may be missing.
    /// - Parameters:
    ///   - time: seconds, increasing from sample to sample.
    ///   - leftEyeOpen: the probability that the subject's own left eye is open, 0...1.
    ///   - rightEyeOpen: the probability that the subject's own right eye is open, 0...1.
    ///   - pitch: degrees, positive when the face looks up.
    ///   - yaw: degrees, positive when the subject turns to their own left.
    ///   - roll: degrees, positive when the face rolls counter-clockwise as the camera sees it.
    public init(time: Double, leftEyeOpen: Float? = nil, rightEyeOpen: Float? = nil, pitch: Double? = nil,
                yaw: Double? = nil, roll: Double? = nil) {
        self.time = time
        self.leftEyeOpen = leftEyeOpen
        self.rightEyeOpen = rightEyeOpen
        self.pitch = pitch
        self.yaw = yaw
        self.roll = roll
    }
}
