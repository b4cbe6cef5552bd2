import Foundation

/// The pose of a head in camera coordinates (see `CameraIntrinsics`: x right, y up, z toward the viewer),
/// and its Euler angles in degrees with ML Kit's conventions.
///
/// `rotation` and `translation` take MediaPipe's canonical face (`CanonicalFaceModel`) to where the face is:
/// a canonical vertex v lies at `rotation * v + translation` (cm). The identity rotation is an upright face
/// looking straight along the camera's axis into the lens. The columns of `rotation` are the face's own axes
/// in camera coordinates: column 0 points to the subject's left, column 1 up the face, column 2 out of the
/// face (where the nose points).
///
/// The Euler angles are relative to the camera's axes, not to the line of sight: a face at the edge of a
/// wide picture that looks into the lens is turned toward the camera, and its yaw or pitch says so.
/// - `pitch` (ML Kit's X): positive when the face looks up.
/// - `yaw` (ML Kit's Y): positive when the subject turns to their own left, toward the image's right in an
///   unmirrored photo.
/// - `roll` (ML Kit's Z): positive when the face rolls counter-clockwise as the camera sees it (as the
///   picture is displayed).
///
/// They compose as `rotation = Rz(roll) · Ry(yaw) · Rx(−pitch)`, each R a right-handed rotation about a camera
/// axis: pitch about the face's ear-to-ear axis first, then yaw about the vertical, then roll about the
/// optical axis. So roll is the outermost rotation: turning the camera (or the picture, about its principal
/// point) by an angle adds that angle to the roll and leaves yaw and pitch alone; yaw is the azimuth and
/// pitch the elevation of the direction the face points in. Ranges: pitch and roll −180...180, yaw −90...90.
public struct HeadPose: Hashable, Sendable {
    /// From the canonical face to camera coordinates.
    public var rotation: Matrix3
    /// Where the canonical face's origin (inside the head, behind the nose) is, in camera coordinates, in
    /// centimetres; z < 0 in front of the camera. The size of a face cannot be told from one picture: this
    /// assumes the canonical face's, so it scales with the actual face's size.
    public var translation: SIMD3<Double>
    /// Degrees, positive when the face looks up.
    public var pitch: Double
    /// Degrees, positive when the subject turns to their own left.
    public var yaw: Double
    /// Degrees, positive counter-clockwise as the camera sees it.
    public var roll: Double
    /// The weighted root-mean-square distance, in centimetres, between the posed canonical face and the
    /// face's points unprojected along their rays (over the fit's 33 weighted landmarks): how well the
    /// canonical face explains the mesh. Typically a few millimetres.
    public var fitError: Double

    /// A pose from its rotation and translation; the Euler angles follow from the rotation.
    /// - Parameters:
    ///   - rotation: the head's rotation, from the canonical face's frame to the camera's.
    ///   - translation: the head's origin in camera coordinates, in centimetres.
    ///   - fitError: the fit's weighted root-mean-square distance, in centimetres.
    public init(rotation: Matrix3, translation: SIMD3<Double>, fitError: Double = 0) {
        self.rotation = rotation
        self.translation = translation
        self.fitError = fitError
        (pitch, yaw, roll) = HeadPose.eulerAngles(of: rotation)
    }

    /// The distance from the camera's centre to the head's origin, in centimetres.
    public var distance: Double { (translation * translation).sum().squareRoot() }

    /// The pose as seen by the camera turned to look straight at the head: panned about its y axis, then tilted
    /// about its new x axis, until its optical axis passes through the head's origin (`translation`). Its
    /// angles are relative to the line of sight: a face anywhere in the frame that looks into the lens, upright
    /// to the horizon, has pitch, yaw and roll 0 here. Its translation is (0, 0, −distance).
    public var relativeToLineOfSight: HeadPose {
        let length = distance
        guard length > 0, length.isFinite else { return self }
        let back = -translation / length                      // the turned camera's z axis
        let horizontal = (back.x * back.x + back.z * back.z).squareRoot()
        let x = horizontal > 0 ? SIMD3(back.z, 0, -back.x) / horizontal : SIMD3(1, 0, 0)
        let y = cross(back, x)
        let turned = Matrix3(columns: x, y, back).transposed   // camera -> turned camera
        return HeadPose(rotation: turned * rotation, translation: turned * translation, fitError: fitError)
    }

    /// Where canonical vertex `v` (cm) lies in camera coordinates.
    /// - Parameter v: a point in the canonical face's frame, in centimetres.
    /// - Returns: the same point in camera coordinates, in centimetres.
    public func cameraPoint(_ v: SIMD3<Double>) -> SIMD3<Double> { rotation * v + translation }

    /// The rotation with these Euler angles (degrees): `Rz(roll) · Ry(yaw) · Rx(−pitch)`.
    /// - Parameters:
    ///   - pitch: degrees, positive when the face looks up.
    ///   - yaw: degrees, positive when the subject turns to their own left.
    ///   - roll: degrees, positive counter-clockwise as the camera sees it.
    /// - Returns: the rotation matrix.
    public static func rotation(pitch: Double, yaw: Double, roll: Double) -> Matrix3 {
        let a = -pitch * .pi / 180, b = yaw * .pi / 180, c = roll * .pi / 180
        let rx = Matrix3(rows: SIMD3(1, 0, 0), SIMD3(0, cos(a), -sin(a)), SIMD3(0, sin(a), cos(a)))
        let ry = Matrix3(rows: SIMD3(cos(b), 0, sin(b)), SIMD3(0, 1, 0), SIMD3(-sin(b), 0, cos(b)))
        let rz = Matrix3(rows: SIMD3(cos(c), -sin(c), 0), SIMD3(sin(c), cos(c), 0), SIMD3(0, 0, 1))
        return rz * ry * rx
    }

    /// The Euler angles (degrees) of a rotation, the inverse of `rotation(pitch:yaw:roll:)`. At yaw ±90°
    /// (the face seen exactly side-on) pitch and roll are not separable; pitch is then 0.
    /// - Parameter r: a rotation matrix.
    /// - Returns: pitch, yaw and roll in degrees, with `HeadPose`'s signs.
    public static func eulerAngles(of r: Matrix3) -> (pitch: Double, yaw: Double, roll: Double) {
        let degrees = 180 / Double.pi
        let cosYaw = (r[0, 0] * r[0, 0] + r[1, 0] * r[1, 0]).squareRoot()
        let yaw = atan2(-r[2, 0], cosYaw)
        if cosYaw < 1e-9 {
            return (0, yaw * degrees, atan2(-r[0, 1], r[1, 1]) * degrees)
        }
        let pitch = -atan2(r[2, 1], r[2, 2])
        let roll = atan2(r[1, 0], r[0, 0])
        return (pitch * degrees, yaw * degrees, roll * degrees)
    }
}
