import BlazeFaceMesh
import Foundation

/// Capture quality and framing hints, as a passport-photo booth or a selfie screen uses them: per face a score
/// in 0...1, its components and hints ("bring your face closer", "look straight at the camera", "image quality
/// too low"), and for the picture whether the shutter may fire.
///
/// ```swift
/// let assessor = try CaptureQualityAssessor(framing: .passport)
/// let faces = try landmarker.detect(view)
/// let assessment = try assessor.assess(view, faces: faces)
/// if assessment.isAcceptable { takePicture() }
/// else if let hint = assessment.hints.first { show(hint.instruction) }   // "Move to the centre"
/// ```
///
/// Per face (`FaceQuality` has the formulas): the face region, a square along the eye line from the eyebrows
/// to below the mouth, is resampled to 64 x 64 luma values, which give its sharpness (contrast-normalized
/// Laplacian energy) and exposure (mean luma); the mesh gives the head's height and the eyes' position; the head
/// pose (given, or estimated from the mesh) gives how frontal the face is relative to the line of sight; the
/// eye-open probabilities, when given, how open the eyes are. Each is compared with the `Framing`.
///
/// Pixels are read through the `ImageView` in any pixel format and orientation; the points are in the upright
/// image's pixels (as `FaceLandmarker` reports them). Points outside the image are allowed (the region repeats
/// the image's edge). No heap allocation in `assess(_:face:index:camera:)` or, once
/// `into`'s array has the capacity, in `assess(_:faces:camera:into:)`. Thread safety: calls are serialized by a
/// lock (they share the resampling scratch).
public final class CaptureQualityAssessor: @unchecked Sendable {
    /// The target every face is judged against (checked at creation).
    public let framing: Framing
    private var patch = FacePatch()
    private let lock = NSLock()

    /// - Parameter framing: the target every face is judged against (passport by default).
    /// - Throws: `CaptureQualityError.invalidFraming(field:)` when `framing` fails `Framing.validate()`.
    public init(framing: Framing = .passport) throws(CaptureQualityError) {
        try framing.validate()
        self.framing = framing
    }

    /// The assessment of the faces of a picture (`FaceLandmarker.detect`'s output), with their poses estimated
    /// with `camera` (MediaPipe's for the upright image when nil) and their eyes not judged.
    /// - Parameters:
    ///   - image: the picture the faces were found in; the face regions' pixels are read.
    ///   - faces: the faces' landmarks, in the upright image's pixels.
    ///   - camera: the camera the poses are estimated with; nil for MediaPipe's on the upright image.
    /// - Returns: one quality per face, in the same order, and the picture's hints.
    /// - Throws: `CaptureQualityError` for the first face that cannot be assessed.
    public func assess(_ image: ImageView, faces: [FaceLandmarks],
                       camera: CameraIntrinsics? = nil) throws(CaptureQualityError) -> CaptureAssessment {
        var assessment = CaptureAssessment()
        assessment.faces.reserveCapacity(faces.count)
        start(&assessment, count: faces.count)
        for index in faces.indices {
            let quality = try assess(image, points: faces[index].points, pose: nil, leftEyeOpen: nil,
                                     rightEyeOpen: nil, index: index, camera: camera)
            add(quality, to: &assessment)
        }
        return assessment
    }

    /// The assessment of the faces of a picture, each with what is known of its pose and eyes.
    /// - Parameters:
    ///   - image: the picture the faces were found in; the face regions' pixels are read.
    ///   - faces: the faces, with their poses and eyes where known.
    ///   - camera: the camera the missing poses are estimated with; nil for MediaPipe's on the upright image.
    /// - Returns: one quality per face, in the same order, and the picture's hints.
    /// - Throws: `CaptureQualityError` for the first face that cannot be assessed.
    public func assess(_ image: ImageView, faces: [CaptureFace],
                       camera: CameraIntrinsics? = nil) throws(CaptureQualityError) -> CaptureAssessment {
        var assessment = CaptureAssessment()
        try assess(image, faces: faces, camera: camera, into: &assessment)
        return assessment
    }

    /// Writes the assessment into `assessment`, reusing its `faces` array's storage (no allocation once it has
    /// the capacity). On error `assessment` holds the faces before the failing one.
    /// - Parameters:
    ///   - image: the picture the faces were found in; the face regions' pixels are read.
    ///   - faces: the faces, with their poses and eyes where known.
    ///   - camera: the camera the missing poses are estimated with; nil for MediaPipe's on the upright image.
    ///   - assessment: receives one quality per face and the picture's hints.
    /// - Throws: `CaptureQualityError` for the first face that cannot be assessed.
    public func assess(_ image: ImageView, faces: [CaptureFace], camera: CameraIntrinsics? = nil,
                       into assessment: inout CaptureAssessment) throws(CaptureQualityError) {
        start(&assessment, count: faces.count)
        for index in faces.indices {
            add(try assess(image, face: faces[index], index: index, camera: camera), to: &assessment)
        }
    }

    /// The quality of one face (`index` is its number in error values).
    /// - Parameters:
    ///   - image: the picture the face was found in; the face region's pixels are read.
    ///   - face: the face, with its pose and eyes where known.
    ///   - index: the face's number, reported in errors.
    ///   - camera: the camera its pose is estimated with when missing; nil for MediaPipe's on the upright image.
    /// - Returns: the face's score, components, measurements and hints.
    /// - Throws: `CaptureQualityError`: too few or non-finite points, an eye-open probability outside 0...1, a
    ///   pose that cannot be estimated.
    public func assess(_ image: ImageView, face: CaptureFace, index: Int = 0,
                       camera: CameraIntrinsics? = nil) throws(CaptureQualityError) -> FaceQuality {
        try assess(image, points: face.points, pose: face.pose, leftEyeOpen: face.leftEyeOpen,
                   rightEyeOpen: face.rightEyeOpen, index: index, camera: camera)
    }

    /// Empties the faces (keeping their storage) and sets the picture's own hints for `count` faces.
    private func start(_ assessment: inout CaptureAssessment, count: Int) {
        assessment.faces.removeAll(keepingCapacity: true)
        assessment.hints = CaptureHints()
        if count == 0 { assessment.hints.insert(.noFace) }
        if count > framing.maximumFaces { assessment.hints.insert(.multipleFaces) }
    }

    private func add(_ quality: FaceQuality, to assessment: inout CaptureAssessment) {
        assessment.faces.append(quality)
        assessment.hints.formUnion(quality.hints)
    }

    private func assess(_ image: ImageView, points: [Landmark], pose given: HeadPose?, leftEyeOpen: Float?,
                        rightEyeOpen: Float?, index: Int,
                        camera: CameraIntrinsics?) throws(CaptureQualityError) -> FaceQuality {
        let meshCount = CanonicalFaceModel.vertexCount
        guard points.count >= meshCount else { throw .tooFewPoints(face: index, count: points.count) }
        for i in 0..<meshCount where !points[i].isFinite { throw .nonFinitePoint(face: index, index: i) }
        if let value = leftEyeOpen, !(0...1).contains(value) {
            throw .invalidEyeOpenProbability(face: index, value: value)
        }
        if let value = rightEyeOpen, !(0...1).contains(value) {
            throw .invalidEyeOpenProbability(face: index, value: value)
        }
        let width = image.uprightWidth, height = image.uprightHeight
        let pose: HeadPose
        if let given {
            pose = given
        } else {
            do throws(HeadPoseError) {
                pose = try HeadPoseEstimator.estimate(
                    points, camera: camera ?? .mediaPipe(imageWidth: width, imageHeight: height))
            } catch {
                throw .headPose(face: index, error)
            }
        }
        let seen = pose.relativeToLineOfSight
        guard seen.pitch.isFinite, seen.yaw.isFinite, seen.roll.isFinite else {
            throw .headPose(face: index, .degenerate)
        }
        let geometry = FaceGeometry(points)
        let statistics: (luminance: Double, sharpness: Double) = lock.withLock {
            patch.sample(image, centre: geometry.regionCentre, xAxis: geometry.xAxis, size: geometry.regionSize)
            return patch.statistics()
        }
        let eyeOpen: Float? = switch (leftEyeOpen, rightEyeOpen) {
        case let (l?, r?): min(l, r)
        case let (l?, nil): l
        case let (nil, r?): r
        case (nil, nil): nil
        }
        let measurements = FaceQuality.Measurements(
            sharpness: statistics.sharpness, luminance: statistics.luminance, pitch: seen.pitch, yaw: seen.yaw,
            roll: seen.roll, eyeOpen: eyeOpen, headHeight: geometry.headHeight / Double(height),
            eyeX: geometry.eyes.x / Double(width), eyeLine: geometry.eyes.y / Double(height))
        return framing.judge(measurements)
    }
}

/// Where the face is in the picture, from its mesh (upright pixels).
struct FaceGeometry {
    /// The midpoint of the eye corners 33, 133, 263, 362.
    let eyes: SIMD2<Double>
    /// 2 · |chin (152) − eyes|: chin to the estimated crown.
    let headHeight: Double
    /// The face region: centred between the outer eye corners' midpoint and the mouth corners' (61, 291)
    /// midpoint, 0.6 of the forehead-to-chin length (10 to 152) wide, its rows along the outer eye corners
    /// (33 to 263).
    let regionCentre: SIMD2<Double>
    let regionSize: Double
    let xAxis: SIMD2<Double>

    init(_ points: [Landmark]) {
        func p(_ i: Int) -> SIMD2<Double> { SIMD2(Double(points[i].x), Double(points[i].y)) }
        func length(_ v: SIMD2<Double>) -> Double { (v * v).sum().squareRoot() }
        eyes = (p(33) + p(133) + p(263) + p(362)) / 4
        headHeight = 2 * length(p(152) - eyes)
        let outer = (p(33) + p(263)) / 2, mouth = (p(61) + p(291)) / 2
        regionCentre = (outer + mouth) / 2
        regionSize = 0.6 * length(p(10) - p(152))
        let across = p(263) - p(33), span = length(across)
        xAxis = span > 0 && span.isFinite ? across / span : SIMD2(1, 0)
    }
}
