import BlazeFaceMesh

/// A cheap identity cue from a face's mesh alone: 3-D distances between 11 pairs of stable points (eye corners,
/// nose, mouth corners, cheeks, chin, forehead), each divided by the distance between the outer eye corners.
///
/// What it can tell: the proportions of a face (how long the nose is against the eye span, how wide the face, how
/// low the chin), which differ between most people by a few percent to 15 percent, while a face moving, turning
/// a little or changing size changes them by about one percent. So a track whose face suddenly has other
/// proportions most likely holds another person (a hard cut to another picture with a face in the same place).
/// What it cannot tell: two people with similar proportions (many pairs differ by less than the threshold), a
/// face seen at a very different angle (profile views shift the ratios), or a smile (the mouth-width pair moves
/// with expressions, so it weighs little alone). It is a change detector for one track, not a face recognizer.
///
/// The indices are MediaPipe's canonical face-mesh numbering (face_mesh_connections / canonical_face_model):
/// 33 and 263 the outer eye corners, 133 and 362 the inner ones, 168 the nose bridge, 2 below the nose tip,
/// 98 and 327 the nostrils' sides, 61 and 291 the mouth corners, 0 the upper lip, 234 and 454 the cheeks,
/// 152 the chin, 10 the forehead.
public struct FaceDescriptor: Hashable, Sendable {
    /// The point pairs whose distances make the descriptor.
    static let pairs: [(Int, Int)] = [
        (133, 362), (33, 133), (263, 362), (168, 2), (98, 327), (61, 291),
        (2, 0), (234, 454), (2, 152), (10, 168), (168, 152),
    ]

    /// The ratios, in `pairs` order, unused lanes 0.
    public var ratios: SIMD16<Float>

    /// The descriptor of a mesh of at least 468 points; nil when it has fewer or the eye span is not positive.
    /// - Parameter points: a face mesh, in any one coordinate space (the ratios do not depend on its scale).
    public init?(_ points: [Landmark]) {
        guard points.count >= 468 else { return nil }
        func distance(_ a: Int, _ b: Int) -> Float {
            let p = points[a], q = points[b]
            let dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z
            return (dx * dx + dy * dy + dz * dz).squareRoot()
        }
        let span = distance(33, 263)
        guard span > 1e-3, span.isFinite else { return nil }
        var ratios = SIMD16<Float>(repeating: 0)
        for index in Self.pairs.indices {
            ratios[index] = distance(Self.pairs[index].0, Self.pairs[index].1) / span
        }
        guard ratios.min().isFinite, ratios.max().isFinite else { return nil }
        self.ratios = ratios
    }

    init(ratios: SIMD16<Float>) {
        self.ratios = ratios
    }

    /// The mean relative difference of the ratios, `mean |a − b| / ((a + b) / 2)`: 0 for equal proportions,
    /// about 0.01 for one face from frame to frame, more for different people (Documentation/Tracking.md).
    /// - Parameter other: another face's descriptor.
    /// - Returns: the distance, 0 or more (a fraction; symmetric).
    public func distance(to other: FaceDescriptor) -> Float {
        let count = Self.pairs.count
        var sum: Float = 0
        for index in 0..<count {
            let a = ratios[index], b = other.ratios[index]
            let mean = (a + b) / 2
            if mean > 0 { sum += abs(a - b) / mean }
        }
        return sum / Float(count)
    }

    /// This descriptor moved towards `other` by `weight` (0...1): a track's running average.
    func blended(with other: FaceDescriptor, weight: Float) -> FaceDescriptor {
        FaceDescriptor(ratios: ratios + (other.ratios - ratios) * weight)
    }
}
