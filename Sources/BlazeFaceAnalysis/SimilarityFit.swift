/// The weighted least-squares similarity transform between two point sets (the weighted orthogonal
/// Procrustes problem with scale): the rotation R, scale s and translation t minimizing
/// Σ wᵢ |s·R·aᵢ + t − bᵢ|², R a proper rotation (never a reflection).
///
/// The rotation is found by Horn's closed form (B. K. P. Horn, "Closed-form solution of absolute orientation
/// using unit quaternions", JOSA A 4(4), 1987): it is the unit quaternion that is the eigenvector of the
/// largest eigenvalue of a symmetric 4x4 matrix built from the weighted cross-covariance, found here by
/// cyclic Jacobi rotations. No heap allocation.
struct SimilarityFit {
    /// The cross-covariance Σ wᵢ (aᵢ − ā)(bᵢ − b̄)ᵀ, by rows.
    var covariance = Matrix3(rows: .zero, .zero, .zero)
    /// Σ wᵢ |aᵢ − ā|², the source's weighted spread.
    var sourceSpread = 0.0
    /// Σ wᵢ |bᵢ − b̄|², the target's weighted spread.
    var targetSpread = 0.0

    /// Adds one centred pair (a − ā, b − b̄) with its weight.
    @inline(__always)
    mutating func add(_ a: SIMD3<Double>, _ b: SIMD3<Double>, weight w: Double) {
        covariance.row0 += w * a.x * b
        covariance.row1 += w * a.y * b
        covariance.row2 += w * a.z * b
        sourceSpread += w * (a * a).sum()
        targetSpread += w * (b * b).sum()
    }

    /// The rotation and scale of the best fit; nil when the target has no spread (all points equal) or the
    /// sums are not finite. The translation follows as b̄ − s·R·ā.
    func solve() -> (rotation: Matrix3, scale: Double)? {
        guard sourceSpread > 0, targetSpread > 1e-12 * sourceSpread, sourceSpread.isFinite, targetSpread.isFinite
        else { return nil }
        let s = covariance
        let (sxx, sxy, sxz) = (s[0, 0], s[0, 1], s[0, 2])
        let (syx, syy, syz) = (s[1, 0], s[1, 1], s[1, 2])
        let (szx, szy, szz) = (s[2, 0], s[2, 1], s[2, 2])
        let entries = (sxx + syy + szz, syz - szy, szx - sxz, sxy - syx,
                       sxx - syy - szz, sxy + syx, szx + sxz,
                       -sxx + syy - szz, syz + szy,
                       -sxx - syy + szz)
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 32) { buffer -> (Matrix3, Double)? in
            let n = buffer.baseAddress!, vectors = n + 16
            (n[0], n[1], n[2], n[3]) = (entries.0, entries.1, entries.2, entries.3)
            (n[5], n[6], n[7]) = (entries.4, entries.5, entries.6)
            (n[10], n[11]) = (entries.7, entries.8)
            n[15] = entries.9
            for i in 0..<4 { for j in 0..<i { n[4 * i + j] = n[4 * j + i] } }
            for i in 0..<16 where !n[i].isFinite { return nil }
            SimilarityFit.symmetricEigen4(n, vectors: vectors)
            var best = 0
            for i in 1..<4 where n[5 * i] > n[5 * best] { best = i }
            let (w, x, y, z) = (vectors[best], vectors[4 + best], vectors[8 + best], vectors[12 + best])
            let length = (w * w + x * x + y * y + z * z).squareRoot()
            guard length > 0, n[5 * best] > 0 else { return nil }
            let rotation = SimilarityFit.rotation(w: w / length, x: x / length, y: y / length, z: z / length)
            return (rotation, n[5 * best] / sourceSpread)
        }
    }

    /// The rotation of the unit quaternion (w, x, y, z).
    static func rotation(w: Double, x: Double, y: Double, z: Double) -> Matrix3 {
        Matrix3(rows: SIMD3(1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)),
                SIMD3(2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)),
                SIMD3(2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)))
    }

    /// The eigen-decomposition of the symmetric row-major 4x4 matrix `a`, by cyclic Jacobi rotations: `a`
    /// becomes diagonal, the eigenvalues on its diagonal, and `v` (16 values, row-major) receives the
    /// eigenvectors as its columns, column k for eigenvalue a[5k].
    static func symmetricEigen4(_ a: UnsafeMutablePointer<Double>, vectors v: UnsafeMutablePointer<Double>) {
        for i in 0..<16 { v[i] = i % 5 == 0 ? 1 : 0 }
        var scale = 0.0
        for i in 0..<16 { scale += a[i] * a[i] }
        for _ in 0..<50 {
            var off = 0.0
            for p in 0..<3 { for q in (p + 1)..<4 { off += a[4 * p + q] * a[4 * p + q] } }
            if off <= 1e-30 * scale || off == 0 { break }
            for p in 0..<3 {
                for q in (p + 1)..<4 {
                    let apq = a[4 * p + q]
                    if apq == 0 { continue }
                    let theta = (a[4 * q + q] - a[4 * p + p]) / (2 * apq)
                    let t = (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + (theta * theta + 1).squareRoot())
                    let c = 1 / (t * t + 1).squareRoot(), s = t * c
                    for k in 0..<4 {
                        let akp = a[4 * k + p], akq = a[4 * k + q]
                        a[4 * k + p] = c * akp - s * akq
                        a[4 * k + q] = s * akp + c * akq
                    }
                    for k in 0..<4 {
                        let apk = a[4 * p + k], aqk = a[4 * q + k]
                        a[4 * p + k] = c * apk - s * aqk
                        a[4 * q + k] = s * apk + c * aqk
                    }
                    for k in 0..<4 {
                        let vkp = v[4 * k + p], vkq = v[4 * k + q]
                        v[4 * k + p] = c * vkp - s * vkq
                        v[4 * k + q] = s * vkp + c * vkq
                    }
                }
            }
        }
    }
}
