/// How open a face's eyes are and whether it smiles, as probabilities in 0...1 with ML Kit's meaning
/// (`leftEyeOpenProbability`, `rightEyeOpenProbability`, `smilingProbability` of its face detector's
/// classification): the probability that the eye is open, and that the face is smiling.
///
/// Sides are the subject's own, as in `FaceRegion`: `leftEyeOpen` is about the subject's left eye, which
/// appears on the image's right in an unmirrored photo (the eye with corners 263 and 362). Mirroring a picture
/// swaps the two values.
///
/// The probabilities come from the mesh's eyelid and lip contours (`ExpressionEstimator`), calibrated on
/// labelled pictures (Documentation/Attributes.md): an eye is open with probability 0.5 when its eyelid gap,
/// relative to its width, is half the canonical face's; eyes narrowed by a smile stay above 0.8, a wink or
/// lids shut over an eye looking down fall below 0.2. The 478-point mesh with attention
/// (refined eyelids and lips, the default) follows closing eyelids; the plain 468-point mesh barely does, so
/// its eye probabilities stay high for closed eyes.
public struct FaceExpression: Hashable, Sendable {
    /// The probability that the subject's own left eye (on the image's right when unmirrored) is open, 0...1.
    public var leftEyeOpen: Float
    /// The probability that the subject's own right eye (on the image's left when unmirrored) is open, 0...1.
    public var rightEyeOpen: Float
    /// The probability that the face is smiling, 0...1.
    public var smiling: Float
    /// The geometry the probabilities were computed from.
    public var measurements: ExpressionMeasurements

    /// Creates an expression.
    /// - Parameters:
    ///   - leftEyeOpen: the probability that the subject's own left eye is open, 0...1.
    ///   - rightEyeOpen: the probability that the subject's own right eye is open, 0...1.
    ///   - smiling: the probability that the face is smiling, 0...1.
    ///   - measurements: the geometry the probabilities were computed from.
    public init(leftEyeOpen: Float, rightEyeOpen: Float, smiling: Float,
                measurements: ExpressionMeasurements = ExpressionMeasurements()) {
        self.leftEyeOpen = leftEyeOpen
        self.rightEyeOpen = rightEyeOpen
        self.smiling = smiling
        self.measurements = measurements
    }
}

/// The measurements behind a `FaceExpression`, taken in the face's own frame: the mesh turned upright and
/// scaled to MediaPipe's canonical face (`CanonicalFaceModel`, centimetres), so that they do not depend on
/// the head's pose or the face's size in the picture.
public struct ExpressionMeasurements: Hashable, Sendable {
    /// The subject's left eye's aspect ratio: the mean gap between the upper and the lower eyelid at three
    /// points across the middle of the eye (386/374 and its neighbours), over the distance between the eye's
    /// corners (263, 362). The canonical face's is 0.242; 0 or below when the eyelids meet.
    public var leftEyeAspectRatio: Double = 0
    /// The subject's right eye's aspect ratio (159/145 and neighbours, corners 33 and 133).
    public var rightEyeAspectRatio: Double = 0
    /// How much wider the mouth is than the canonical face's, in cm: the distance between the mouth's corners
    /// (61, 291) minus 4.91.
    public var mouthWidening: Double = 0
    /// How much higher the mouth's corners are than the canonical face's, in cm, relative to the rigid parts
    /// of the face (eye corners, nose, cheekbones, forehead).
    public var cornerRaise: Double = 0
    /// How much further back the mouth's corners are than the canonical face's, in cm, measured from the
    /// middle of the upper lip's inner line (13) toward the back of the head.
    public var cornerRetraction: Double = 0

    /// All measurements 0.
    public init() {}
}
