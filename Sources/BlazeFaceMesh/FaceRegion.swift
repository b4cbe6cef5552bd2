/// A named part of the face mesh, with its connections (from `FaceMeshConnections`) and its landmarks.
///
/// Sides are the subject's own: `leftEye` is the subject's left eye, on the image's right in an unmirrored
/// photo (landmarks 263 and 362 are its corners; `leftIris` is 473...477).
public enum FaceRegion: String, CaseIterable, Sendable {
    /// The outer and the inner lip line.
    case lips
    /// The subject's left eye (on the image's right in an unmirrored photo).
    case leftEye
    /// The subject's right eye (on the image's left in an unmirrored photo).
    case rightEye
    /// The subject's left eyebrow (on the image's right in an unmirrored photo).
    case leftEyebrow
    /// The subject's right eyebrow (on the image's left in an unmirrored photo).
    case rightEyebrow
    /// The subject's left iris, 473...477 (on the image's right in an unmirrored photo). Refined mesh only.
    case leftIris
    /// The subject's right iris, 468...472 (on the image's left in an unmirrored photo). Refined mesh only.
    case rightIris
    /// The outline of the face.
    case faceOval
    /// The nose bridge, tip and nostrils.
    case nose

    /// The region's connections, sorted by `start` then `end` (the same list as `FaceMeshConnections`').
    public var connections: [LandmarkConnection] {
        switch self {
        case .lips: FaceMeshConnections.lips
        case .leftEye: FaceMeshConnections.leftEye
        case .rightEye: FaceMeshConnections.rightEye
        case .leftEyebrow: FaceMeshConnections.leftEyebrow
        case .rightEyebrow: FaceMeshConnections.rightEyebrow
        case .leftIris: FaceMeshConnections.leftIris
        case .rightIris: FaceMeshConnections.rightIris
        case .faceOval: FaceMeshConnections.faceOval
        case .nose: FaceMeshConnections.nose
        }
    }

    /// The region's landmarks, ascending, each once: the points its connections join, and for the irises
    /// also their centre (468 or 473), which no connection reaches (five points each).
    public var indices: [Int] {
        Self.indexTable[self] ?? []
    }

    /// Whether the region uses landmarks that only the refined (478-point) mesh has: true for the irises,
    /// whose landmarks are 468 and above; false for the regions of the 468-point mesh.
    public var requiresRefinedLandmarks: Bool {
        switch self {
        case .leftIris, .rightIris: true
        case .lips, .leftEye, .rightEye, .leftEyebrow, .rightEyebrow, .faceOval, .nose: false
        }
    }

    private static let indexTable: [FaceRegion: [Int]] = Dictionary(
        uniqueKeysWithValues: allCases.map { region in
            var points = Set(region.connections.flatMap { [$0.start, $0.end] })
            if region == .leftIris { points.insert(473) }
            if region == .rightIris { points.insert(468) }
            return (region, points.sorted())
        }
    )
}
