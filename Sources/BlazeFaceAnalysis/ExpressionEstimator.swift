import BlazeFaceMesh
import Foundation

/// Eye-open and smiling probabilities from a face mesh (`FaceExpression`).
///
/// ```swift
/// let faces = try landmarker.detect(image)
/// let expression = try faces[0].expression(imageWidth: image.width, imageHeight: image.height)
/// if expression.smiling > 0.5 && expression.leftEyeOpen > 0.8 && expression.rightEyeOpen > 0.8 { takePhoto() }
/// ```
///
/// Method:
/// 1. The face is turned upright and scaled to MediaPipe's canonical face: the mesh is unprojected and the
///    canonical face fitted to it exactly as `HeadPoseEstimator` does (its 33 weighted landmarks, the rigid
///    parts of the face), and every point is taken back through that fit into the canonical face's frame
///    (centimetres, x toward the subject's left, y up, z out of the face). This undoes yaw, pitch, roll, the
///    face's size and the perspective of a face near the camera or off the centre. None of the eyelid or lip
///    points is among the 33, so closing the eyes or smiling does not move the frame.
/// 2. In that frame: each eye's aspect ratio, and the mouth's widening, the raise of its corners and their
///    retraction toward the back of the head, each relative to the canonical face (`ExpressionMeasurements`).
/// 3. Calibrated logistic mappings (`ExpressionEstimator.Calibration`) turn them into probabilities.
///
/// The camera matters little (a face is shallow): MediaPipe's default (`CameraIntrinsics.mediaPipe`) serves
/// when the real one is unknown. Points 0...467 are used; the irises, when present, are not. Works on the
/// 478-point mesh with attention (refined eyelids and lips, the best), the 478-point mesh + iris pipeline and
/// the plain 468-point mesh (whose eyelids barely follow closing eyes). No heap allocation; a few microseconds.
/// Thread-safe: pure functions of their arguments, callable from any thread at once.
public enum ExpressionEstimator: FaceMeshEstimator {
    /// The probabilities for a face mesh seen by `camera`: at least the 468 mesh points, in the image's pixels
    /// (any further points, such as the irises, are ignored).
    /// - Parameters:
    ///   - points: at least the 468 mesh points, in the image's pixels.
    ///   - camera: the camera that saw the face, in the same pixels.
    /// - Returns: the probabilities that each eye is open and that the face smiles, each 0...1.
    /// - Throws: `ExpressionError`.
    public static func estimate(_ points: [Landmark], camera: CameraIntrinsics) throws(ExpressionError) -> FaceExpression {
        let measurements = try measure(points, camera: camera)
        let c = Calibration.self
        let left = c.logistic((measurements.leftEyeAspectRatio - c.eyeMidpoint) / c.eyeWidth)
        let right = c.logistic((measurements.rightEyeAspectRatio - c.eyeMidpoint) / c.eyeWidth)
        let smile = c.logistic(c.widening * measurements.mouthWidening + c.raise * measurements.cornerRaise
                               + c.retraction * measurements.cornerRetraction + c.smileBias)
        return FaceExpression(leftEyeOpen: Float(left), rightEyeOpen: Float(right), smiling: Float(smile),
                              measurements: measurements)
    }

    /// The measurements of a face mesh seen by `camera`, in the canonical face's frame (steps 1 and 2 above).
    /// - Parameters:
    ///   - points: at least the 468 mesh points, in the image's pixels.
    ///   - camera: the camera that saw the face, in the same pixels.
    /// - Returns: the eyes' aspect ratios and the mouth's measurements, in centimetres of the canonical face.
    /// - Throws: `ExpressionError`.
    public static func measure(_ points: [Landmark], camera: CameraIntrinsics) throws(ExpressionError) -> ExpressionMeasurements {
        let fit: MeshFit
        do { fit = try MeshFit(points, camera: camera) } catch { throw ExpressionError(error) }
        let reference = CanonicalReference.shared
        func upright(_ index: Int) -> SIMD3<Double> { fit.canonical(points[index]) }
        func aspectRatio(_ eye: EyeIndices) -> Double? {
            let width = abs(upright(eye.outer).x - upright(eye.inner).x)
            guard width > 1e-6 * reference.eyeWidth else { return nil }
            let gap = (upright(eye.upper.0).y - upright(eye.lower.0).y) + (upright(eye.upper.1).y - upright(eye.lower.1).y)
                + (upright(eye.upper.2).y - upright(eye.lower.2).y)
            return gap / 3 / width
        }
        guard let left = aspectRatio(.left), let right = aspectRatio(.right) else { throw .degenerate }

        let corner0 = upright(61), corner1 = upright(291), lip = upright(13)
        var m = ExpressionMeasurements()
        m.leftEyeAspectRatio = left
        m.rightEyeAspectRatio = right
        m.mouthWidening = abs(corner1.x - corner0.x) - reference.mouthWidth
        m.cornerRaise = (corner0.y + corner1.y) / 2 - reference.cornerHeight
        m.cornerRetraction = (lip.z - (corner0.z + corner1.z) / 2) - reference.cornerDepth
        guard m.leftEyeAspectRatio.isFinite, m.rightEyeAspectRatio.isFinite, m.mouthWidening.isFinite,
              m.cornerRaise.isFinite, m.cornerRetraction.isFinite else { throw .degenerate }
        return m
    }
}

/// The eyelid landmarks of one eye: corners, and three upper-lid points each above its lower-lid partner.
struct EyeIndices {
    var outer: Int
    var inner: Int
    var upper: (Int, Int, Int)
    var lower: (Int, Int, Int)

    /// The subject's left eye (image right when unmirrored): the mirror twins of `.right`'s points.
    static let left = EyeIndices(outer: 263, inner: 362, upper: (387, 386, 385), lower: (373, 374, 380))
    /// The subject's right eye (image left when unmirrored).
    static let right = EyeIndices(outer: 33, inner: 133, upper: (160, 159, 158), lower: (144, 145, 153))
}

/// The canonical face's values that the measurements are relative to (cm), computed once.
struct CanonicalReference: Sendable {
    /// The distance between the mouth's corners 61 and 291 along x (4.91 cm).
    let mouthWidth: Double
    /// The mean height of the mouth's corners (−4.34 cm).
    let cornerHeight: Double
    /// How far the corners are behind the upper lip's inner midpoint 13 (0.94 cm).
    let cornerDepth: Double
    /// The right eye's width along x, 33 to 133.
    let eyeWidth: Double

    static let shared = CanonicalReference()

    private init() {
        let a = CanonicalFaceModel.vertex(61), b = CanonicalFaceModel.vertex(291)
        mouthWidth = abs(b.x - a.x)
        cornerHeight = (a.y + b.y) / 2
        cornerDepth = CanonicalFaceModel.vertex(13).z - (a.z + b.z) / 2
        eyeWidth = abs(CanonicalFaceModel.vertex(133).x - CanonicalFaceModel.vertex(33).x)
    }
}
