@testable import BlazeFaceAnalysis

/// MediaPipe's canonical face with irises: the 478 vertices (x, y, z) of
/// mediapipe/modules/face_geometry/data/face_model_with_iris.obj (Apache License 2.0, see NOTICE), whose
/// first 468 are those of canonical_face_model.obj. Units are centimetres; the face looks along +z, y is up
/// and x grows towards the subject's left (the image's right in an unmirrored photo). The mesh is exactly
/// symmetric about x = 0; the iris points within 1e-5.
enum CanonicalFace {
    /// The vertex of a landmark index.
    static func vertex(_ index: Int) -> (x: Float, y: Float, z: Float) {
        (coordinates[3 * index], coordinates[3 * index + 1], coordinates[3 * index + 2])
    }

    /// The landmark whose vertex is nearest to the mirror image (-x, y, z) of `index`'s.
    static func mirror(_ index: Int) -> Int {
        let (x, y, z) = vertex(index)
        var best = 0, bestDistance = Float.infinity
        for other in 0..<count {
            let (ox, oy, oz) = vertex(other)
            let distance = (ox + x) * (ox + x) + (oy - y) * (oy - y) + (oz - z) * (oz - z)
            if distance < bestDistance { (best, bestDistance) = (other, distance) }
        }
        return best
    }

    /// `mirror` of every landmark, computed once.
    static let mirrors: [Int] = (0..<count).map(mirror)

    static var count: Int { coordinates.count / 3 }

    /// The 468 vertices of the canonical face (BlazeFaceAnalysis' copy of canonical_face_model.obj), then the
    /// ten iris vertices of face_model_with_iris.obj.
    static let coordinates: [Float] = CanonicalFaceModel.coordinates + irisCoordinates

    /// Vertices 468...477 of face_model_with_iris.obj.
    static let irisCoordinates: [Float] = [
        -3.18175, 2.635786, 3.826339,  -2.58175, 2.635786, 3.824459,  -3.18175, 3.235786, 3.876973,
        -3.78175, 2.635786, 3.679778,  -3.18175, 2.035786, 3.775704,  3.181751, 2.635786, 3.826339,
        3.781751, 2.635786, 3.679777,  3.181751, 3.235786, 3.876973,  2.581751, 2.635786, 3.824459,
        3.181751, 2.035786, 3.775704,
    ]
}
