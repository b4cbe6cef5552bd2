import BlazeFaceMesh

/// MediaPipe's canonical face fitted to a face mesh seen by a camera: steps 1 and 2 of `HeadPoseEstimator`
/// (each point unprojected along its own ray, then the weighted similarity fit of the canonical face's 33
/// landmarks). Shared by `HeadPoseEstimator` and `ExpressionEstimator`. No heap allocation.
struct MeshFit {
    let camera: CameraIntrinsics
    /// The mean z of the 468 mesh points: the depth the unprojection takes as 1.
    let meanZ: Double
    /// From the canonical face's axes to camera axes.
    let rotation: Matrix3
    /// Unprojected units per canonical centimetre.
    let scale: Double
    /// The weighted centroid of the fit's unprojected points; it corresponds to `FitBasis.shared.centroid`.
    let centroid: SIMD3<Double>

    /// Fits the canonical face to points 0...467 of `points`.
    /// - Throws: `HeadPoseError` (fewer than 468 points, a non-finite point, an invalid camera, a degenerate
    ///   fit or points at or behind the camera).
    init(_ points: [Landmark], camera: CameraIntrinsics) throws(HeadPoseError) {
        let count = CanonicalFaceModel.vertexCount
        guard points.count >= count else { throw .tooFewPoints(points.count) }
        guard camera.isValid else { throw .invalidCamera(camera) }
        var sumZ = 0.0
        for index in 0..<count {
            let p = points[index]
            guard p.isFinite else { throw .nonFinitePoint(index: index) }
            sumZ += Double(p.z)
        }
        self.camera = camera
        meanZ = sumZ / Double(count)

        let basis = FitBasis.shared
        let weights = CanonicalFaceModel.weights
        var centroid = SIMD3<Double>.zero
        for k in 0..<weights.count {
            let p = MeshFit.unproject(points[weights[k].index], camera: camera, meanZ: meanZ)
            guard p.z < 0 else { throw .degenerate }
            centroid += weights[k].weight * p
        }
        centroid /= basis.totalWeight
        var fit = SimilarityFit()
        for k in 0..<weights.count {
            let p = MeshFit.unproject(points[weights[k].index], camera: camera, meanZ: meanZ)
            fit.add(basis.centred[k], p - centroid, weight: weights[k].weight)
        }
        guard let (rotation, scale) = fit.solve(), scale.isFinite, scale > 0 else { throw .degenerate }
        self.rotation = rotation
        self.scale = scale
        self.centroid = centroid
    }

    /// Landmark `p` unprojected along its ray, at depth 1 for the mean z: d·(1 + (z − z̄)/fx) times the ray.
    @inline(__always)
    func unprojected(_ p: Landmark) -> SIMD3<Double> {
        MeshFit.unproject(p, camera: camera, meanZ: meanZ)
    }

    /// Landmark `p` in the canonical face's frame, in centimetres: unprojected, then taken back through the
    /// fitted similarity. For a mesh of the canonical face itself, vertex i comes back as itself.
    @inline(__always)
    func canonical(_ p: Landmark) -> SIMD3<Double> {
        rotation.transposed * (unprojected(p) - centroid) / scale + FitBasis.shared.centroid
    }

    @inline(__always)
    private static func unproject(_ p: Landmark, camera: CameraIntrinsics, meanZ: Double) -> SIMD3<Double> {
        let depth = 1 + (Double(p.z) - meanZ) / camera.fx
        return depth * camera.ray(x: Double(p.x), y: Double(p.y))
    }
}

/// The canonical face's side of the fit, computed once: the weighted landmarks' centroid and their vertices
/// relative to it.
struct FitBasis: Sendable {
    let totalWeight: Double
    let centroid: SIMD3<Double>
    let centred: [SIMD3<Double>]

    static let shared = FitBasis()

    private init() {
        let weights = CanonicalFaceModel.weights
        totalWeight = weights.reduce(0) { $0 + $1.weight }
        let sum = weights.reduce(SIMD3<Double>.zero) { $0 + $1.weight * CanonicalFaceModel.vertex($1.index) }
        let centroid = sum / totalWeight
        self.centroid = centroid
        centred = weights.map { CanonicalFaceModel.vertex($0.index) - centroid }
    }
}
