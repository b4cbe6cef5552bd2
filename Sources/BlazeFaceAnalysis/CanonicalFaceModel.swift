/// MediaPipe's canonical face model and the landmark weights its head-pose fit uses.
///
/// The vertices are those of mediapipe/modules/face_geometry/data/canonical_face_model.obj, one per face-mesh
/// landmark (0...467), in centimetres, in a right-handed frame: x toward the subject's left (the image's
/// right when the face looks into an unmirrored camera), y up, z out of the face (the nose tip is at
/// z ≈ 7.6). The weights are MediaPipe's `procrustes_landmark_basis` of
/// mediapipe/modules/face_geometry/data/geometry_pipeline_metadata_landmarks.pbtxt: 33 landmarks of the rigid
/// parts of the face (nose, eye corners, cheekbones, forehead), symmetric left and right, summing to 1.055.
public enum CanonicalFaceModel {
    /// The number of vertices: the face mesh's landmarks without the irises.
    public static let vertexCount = 468

    /// Vertex `index` (0...467), in centimetres.
    /// - Parameter index: the face-mesh landmark, 0...467.
    /// - Returns: its position in the canonical face, in centimetres.
    public static func vertex(_ index: Int) -> SIMD3<Double> {
        SIMD3(Double(coordinates[3 * index]), Double(coordinates[3 * index + 1]), Double(coordinates[3 * index + 2]))
    }

    /// A landmark of the pose fit and its weight.
    public struct WeightedLandmark: Hashable, Sendable {
        /// The landmark's index in the face mesh (0..<468).
        public var index: Int
        /// Its weight in the fit, MediaPipe's (the 33 weights sum to 1.055).
        public var weight: Double
    }

    /// The landmarks the pose is fitted on and their weights (MediaPipe's 33), by landmark index.
    public static let weights: [WeightedLandmark] = basis.map { WeightedLandmark(index: $0.0, weight: $0.1) }

    /// MediaPipe's `procrustes_landmark_basis`: (landmark_id, weight), in the file's order.
    private static let basis: [(Int, Double)] = [
        (4, 0.070909939706326), (6, 0.032100144773722), (10, 0.008446550928056), (33, 0.058724168688059),
        (54, 0.007667080033571), (67, 0.009078059345484), (117, 0.009791937656701), (119, 0.014565368182957),
        (121, 0.018591361120343), (127, 0.005197994410992), (129, 0.120625205338001), (132, 0.005560018587857),
        (133, 0.05328618362546), (136, 0.066890455782413), (143, 0.014816547743976), (147, 0.014262833632529),
        (198, 0.025462191551924), (205, 0.047252278774977), (263, 0.058724168688059), (284, 0.007667080033571),
        (297, 0.009078059345484), (346, 0.009791937656701), (348, 0.014565368182957), (350, 0.018591361120343),
        (356, 0.005197994410992), (358, 0.120625205338001), (361, 0.005560018587857), (362, 0.05328618362546),
        (365, 0.066890455782413), (372, 0.014816547743976), (376, 0.014262833632529), (420, 0.025462191551924),
        (425, 0.047252278774977),
    ]
}
