import BlazeFaceMesh

/// One face to assess: its mesh and, when known, its pose and eye-open probabilities.
public struct CaptureFace: Sendable {
    /// The face mesh in the upright image's pixels (at least the 468 mesh points).
    public var points: [Landmark]
    /// Its head pose; nil to have the assessor estimate it (`HeadPoseEstimator`, with the camera given to
    /// `assess`, MediaPipe's by default).
    public var pose: HeadPose?
    /// The subject's own left and right eye-open probabilities (0...1, ML Kit's sense); nil when unknown: the
    /// eyes are then not judged (component 1, no `eyesClosed`).
    public var leftEyeOpen: Float?
    /// The subject's own right eye-open probability (0...1); nil when unknown, like `leftEyeOpen`.
    public var rightEyeOpen: Float?

    /// A face from its mesh points.
    /// - Parameters:
    ///   - points: the face mesh in the upright image's pixels (at least the 468 mesh points).
    ///   - pose: its head pose; nil to have the assessor estimate it.
    ///   - leftEyeOpen: the subject's own left eye-open probability, 0...1; nil when unknown.
    ///   - rightEyeOpen: the subject's own right eye-open probability, 0...1; nil when unknown.
    public init(points: [Landmark], pose: HeadPose? = nil, leftEyeOpen: Float? = nil, rightEyeOpen: Float? = nil) {
        self.points = points
        self.pose = pose
        self.leftEyeOpen = leftEyeOpen
        self.rightEyeOpen = rightEyeOpen
    }

    /// A face from a landmarker's result.
    /// - Parameters:
    ///   - landmarks: the face's landmarks, in the upright image's pixels.
    ///   - pose: its head pose; nil to have the assessor estimate it.
    ///   - leftEyeOpen: the subject's own left eye-open probability, 0...1; nil when unknown.
    ///   - rightEyeOpen: the subject's own right eye-open probability, 0...1; nil when unknown.
    public init(_ landmarks: FaceLandmarks, pose: HeadPose? = nil, leftEyeOpen: Float? = nil,
                rightEyeOpen: Float? = nil) {
        self.init(points: landmarks.points, pose: pose, leftEyeOpen: leftEyeOpen, rightEyeOpen: rightEyeOpen)
    }

    /// The face with the eye-open probabilities of `expression` (`FaceExpression.leftEyeOpen`, `rightEyeOpen`;
    /// the eyes not judged when it is nil), so that the attributes of one frame go in as they come:
    /// `CaptureFace(face, pose: try face.headPose(...), expression: try face.expression(...))`.
    /// - Parameters:
    ///   - landmarks: the face's landmarks, in the upright image's pixels.
    ///   - pose: its head pose; nil to have the assessor estimate it.
    ///   - expression: its expression, whose eye-open probabilities are used; nil when unknown.
    public init(_ landmarks: FaceLandmarks, pose: HeadPose? = nil, expression: FaceExpression?) {
        self.init(points: landmarks.points, pose: pose, leftEyeOpen: expression?.leftEyeOpen,
                  rightEyeOpen: expression?.rightEyeOpen)
    }
}
