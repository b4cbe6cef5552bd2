import BlazeFaceMesh

/// One face as `FaceAnalyzer` reports it: its mesh and what the mesh tells.
public struct AnalyzedFace: Sendable {
    /// The face's points, presence and detection (upright pixels).
    public var landmarks: FaceLandmarks
    /// The head pose, with the image's camera (`AnalyzedImage.camera`).
    public var pose: HeadPose
    /// Open eyes and smile.
    public var expression: FaceExpression
    /// The capture quality and the face's hints, against the analyzer's framing.
    public var quality: FaceQuality

    /// A face from its parts.
    /// - Parameters:
    ///   - landmarks: the face's points, presence and detection.
    ///   - pose: the head pose.
    ///   - expression: open eyes and smile.
    ///   - quality: the capture quality and the face's hints.
    public init(landmarks: FaceLandmarks, pose: HeadPose, expression: FaceExpression, quality: FaceQuality) {
        self.landmarks = landmarks
        self.pose = pose
        self.expression = expression
        self.quality = quality
    }
}

/// One picture's analysis: its faces, the picture's hints (its faces' and `noFace` / `multipleFaces`) and the
/// camera the poses were estimated with.
public struct AnalyzedImage: Sendable {
    /// The faces, in the landmarker's order (highest detection scores first).
    public var faces: [AnalyzedFace]
    /// The picture's hints, first things first.
    public var hints: CaptureHints
    /// The camera of the poses: MediaPipe's for the upright image.
    public var camera: CameraIntrinsics

    /// An analysis from its parts.
    /// - Parameters:
    ///   - faces: the faces.
    ///   - hints: the picture's hints.
    ///   - camera: the camera of the poses.
    public init(faces: [AnalyzedFace], hints: CaptureHints, camera: CameraIntrinsics) {
        self.faces = faces
        self.hints = hints
        self.camera = camera
    }
}
