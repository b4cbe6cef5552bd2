/// Why a head pose could not be estimated.
public enum HeadPoseError: FaceMeshEstimationError, Hashable, Sendable, CustomStringConvertible {
    /// The mesh has fewer than the 468 points of MediaPipe's face mesh.
    case tooFewPoints(Int)
    /// A point of the mesh (0...467) has a non-finite coordinate.
    case nonFinitePoint(index: Int)
    /// The image size is not positive.
    case invalidImageSize(width: Int, height: Int)
    /// The camera's focal lengths are not finite and positive, or its principal point is not finite.
    case invalidCamera(CameraIntrinsics)
    /// The points cannot be a face: they coincide, or their depths put some at or behind the camera.
    case degenerate

    /// A one-line message for people, with the point, size or value concerned.
    public var description: String {
        switch self {
        case let .tooFewPoints(count): return "a head pose needs the 468 face-mesh points; got \(count)"
        case let .nonFinitePoint(index): return "face-mesh point \(index) is not finite"
        case let .invalidImageSize(width, height): return "invalid image size \(width) x \(height)"
        case let .invalidCamera(camera): return "invalid camera \(camera)"
        case .degenerate: return "the points do not form a face (they coincide or lie behind the camera)"
        }
    }
}
