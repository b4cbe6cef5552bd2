import BlazeFaceAnalysis
import BlazeFaceMesh
import Foundation

/// The per-face attributes of the `attributes` and `landmarks-attributes` pipelines: head pose, expression and
/// capture quality (passport framing, the pose and the eyes given) of every face of a frame, into storage that
/// is reused from frame to frame (no heap allocation once it has grown).
final class FrameAttributes {
    let assessor: CaptureQualityAssessor
    private(set) var poses: [HeadPose] = []
    private(set) var expressions: [FaceExpression] = []
    private var captureFaces: [CaptureFace] = []
    private(set) var assessment = CaptureAssessment()

    init(capacity: Int = 16) throws {
        assessor = try CaptureQualityAssessor(framing: .passport)
        poses.reserveCapacity(capacity)
        expressions.reserveCapacity(capacity)
        captureFaces.reserveCapacity(capacity)
        assessment.faces.reserveCapacity(capacity)
    }

    /// Computes the three attributes of every face in `faces` (upright pixels of `view`).
    func compute(_ view: ImageView, faces: [FaceLandmarks]) throws {
        let width = view.uprightWidth, height = view.uprightHeight
        poses.removeAll(keepingCapacity: true)
        expressions.removeAll(keepingCapacity: true)
        captureFaces.removeAll(keepingCapacity: true)
        for face in faces {
            let pose = try face.headPose(imageWidth: width, imageHeight: height)
            let expression = try face.expression(imageWidth: width, imageHeight: height)
            poses.append(pose)
            expressions.append(expression)
            captureFaces.append(CaptureFace(face, pose: pose, expression: expression))
        }
        try assessor.assess(view, faces: captureFaces, into: &assessment)
        // Let go of the points: held here, the landmarker's next frame would copy them (copy on write).
        captureFaces.removeAll(keepingCapacity: true)
    }

    /// Times each attribute alone on `face`, alternating blocks of 10 calls: where the `attributes` pipeline's
    /// extra time goes.
    static func breakdown(_ view: ImageView, face: FaceLandmarks, iterations: Int,
                          timeLimit: Double?) throws -> AttributeBreakdown {
        let width = view.uprightWidth, height = view.uprightHeight
        let assessor = try CaptureQualityAssessor(framing: .passport)
        let pose = try face.headPose(imageWidth: width, imageHeight: height)
        let expression = try face.expression(imageWidth: width, imageHeight: height)
        let captureFace = CaptureFace(face, pose: pose, expression: expression)
        let timed = try AlternatingBlocks.run([
            { _ = try face.headPose(imageWidth: width, imageHeight: height) },
            { _ = try face.expression(imageWidth: width, imageHeight: height) },
            { _ = try assessor.assess(view, face: captureFace) },
        ], iterations: iterations, warmup: 10, timeLimit: timeLimit)
        return AttributeBreakdown(pose: timed.summaries[0], expression: timed.summaries[1],
                                  quality: timed.summaries[2])
    }
}

/// Per-face times of the attributes alone (`FrameAttributes.breakdown`).
struct AttributeBreakdown {
    var pose: Summary
    var expression: Summary
    /// `CaptureQualityAssessor.assess(_:face:)` with the pose and the eyes given.
    var quality: Summary
}
