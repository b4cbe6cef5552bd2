import BlazeFaceAnalysis
import BlazeFaceMesh

/// One face as `analyze` reports it: the mesh and what it tells.
struct AnalyzedFace {
    var landmarks: FaceLandmarks
    var pose: HeadPose
    var expression: FaceExpression
    var quality: FaceQuality
}

/// One image's analysis: its faces, the picture's hints (its faces' and noFace / multipleFaces) and the camera
/// the poses were estimated with.
struct AnalyzedImage {
    var faces: [AnalyzedFace]
    var hints: CaptureHints
    var camera: CameraIntrinsics
    /// Whether the report gives each face's `uprightRotation` (`--try-rotations`).
    var reportsRotation = false
}

/// What one `analyze` thread runs: the landmarker, then per face the head pose, the expression and the capture
/// quality, all with MediaPipe's camera for the upright image.
struct FaceAnalyzer: Sendable {
    var landmarker: FaceLandmarker
    var assessor: CaptureQualityAssessor
    var reportsRotation = false

    func analyze(_ image: ImageView) throws -> AnalyzedImage {
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
        return AnalyzedImage(faces: faces, hints: assessment.hints, camera: camera, reportsRotation: reportsRotation)
    }
}
