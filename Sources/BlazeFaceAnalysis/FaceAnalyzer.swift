import BlazeFaceMesh

/// Everything `blazeface analyze` tells of the faces in a picture, as one pipeline: the landmarker, then per
/// face the head pose, the expression (open eyes, smile) and the capture quality with its hints, all with
/// MediaPipe's camera for the upright image.
///
/// ```swift
/// let analyzer = try FaceAnalyzer(framing: .passport)     // attention mesh, full-range detector
/// let analysis = try analyzer.analyze(image)               // image: an ImageView
/// for face in analysis.faces { print(face.pose.yaw, face.expression.smiling, face.quality.score) }
/// if analysis.hints.isEmpty { takePicture() }
/// ```
///
/// Thread safety: an analyzer may be shared between threads; its landmarker and assessor serialize their calls
/// (for parallel work, make one analyzer per thread: each loads its own models).
public struct FaceAnalyzer: Sendable {
    /// The landmarker that finds the faces and their meshes.
    public let landmarker: FaceLandmarker
    /// The assessor that judges each face against its framing.
    public let assessor: CaptureQualityAssessor

    /// An analyzer from a landmarker and an assessor made by the caller.
    /// - Parameters:
    ///   - landmarker: finds the faces and their meshes.
    ///   - assessor: judges each face's capture quality.
    public init(landmarker: FaceLandmarker, assessor: CaptureQualityAssessor) {
        self.landmarker = landmarker
        self.assessor = assessor
    }

    /// An analyzer that loads its landmarker from the model catalog.
    /// - Parameters:
    ///   - model: the mesh (the 478-point attention mesh by default).
    ///   - modelsDirectory: the folder of the models; nil to search the catalog's usual places
    ///     (see `FaceLandmarker.init(model:modelsDirectory:options:)`).
    ///   - options: the landmarker's options (full-range detector, every face, by default).
    ///   - framing: the target the quality hints judge against (`.selfie` by default).
    /// - Throws: `FaceLandmarkerError` when a model cannot be found or loaded, or the options are invalid;
    ///   `CaptureQualityError.invalidFraming(field:)` for a framing that fails `Framing.validate()`.
    public init(model: FaceLandmarker.Model = .attention, modelsDirectory: String? = nil,
                options: FaceLandmarker.Options = .init(), framing: Framing = .selfie) throws {
        let landmarker = try FaceLandmarker(model: model, modelsDirectory: modelsDirectory, options: options)
        self.init(landmarker: landmarker, assessor: try CaptureQualityAssessor(framing: framing))
    }

    /// The faces of a picture with their poses, expressions and qualities, and the picture's hints.
    /// - Parameter image: the picture, in any pixel format and orientation; results are in upright pixels.
    /// - Returns: one `AnalyzedFace` per face the landmarker keeps, in its order.
    /// - Throws: `FaceLandmarkerError` when the landmarker fails; `HeadPoseError`, `ExpressionError` or
    ///   `CaptureQualityError` for a face whose mesh cannot be analyzed (non-finite points).
    public func analyze(_ image: ImageView) throws -> AnalyzedImage {
        let meshes = try landmarker.detect(image)
        let camera = CameraIntrinsics.mediaPipe(imageWidth: image.uprightWidth, imageHeight: image.uprightHeight)
        var poses: [HeadPose] = [], expressions: [FaceExpression] = []
        for mesh in meshes {
            poses.append(try mesh.headPose(camera: camera))
            expressions.append(try mesh.expression(camera: camera))
        }
        let inputs = meshes.indices.map { CaptureFace(meshes[$0], pose: poses[$0], expression: expressions[$0]) }
        let assessment = try assessor.assess(image, faces: inputs, camera: camera)
        let faces = meshes.indices.map {
            AnalyzedFace(landmarks: meshes[$0], pose: poses[$0], expression: expressions[$0],
                         quality: assessment.faces[$0])
        }
        return AnalyzedImage(faces: faces, hints: assessment.hints, camera: camera)
    }
}
