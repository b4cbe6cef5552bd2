@testable import BlazeFaceAnalysis
import BlazeTestSupport
import Testing

@Suite("Similarity fit (weighted Procrustes)")
struct SimilarityFitTests {
    @Test("the 4x4 Jacobi eigen-decomposition: A·v = λ·v for each pair, orthonormal vectors")
    func eigen() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<50 {
            var a = SIMD16<Double>()
            for i in 0..<4 { for j in i..<4 {
                let x = Double(random.nextFloat())
                a[4 * i + j] = x; a[4 * j + i] = x
            } }
            var values = [Double](repeating: 0, count: 16), vectors = values
            for i in 0..<16 { values[i] = a[i] }
            values.withUnsafeMutableBufferPointer { n in
                vectors.withUnsafeMutableBufferPointer { v in
                    SimilarityFit.symmetricEigen4(n.baseAddress!, vectors: v.baseAddress!)
                }
            }
            for i in 0..<4 { for j in 0..<4 where i != j { #expect(abs(values[4 * i + j]) < 1e-12) } }
            for k in 0..<4 {
                let v = SIMD4(vectors[k], vectors[4 + k], vectors[8 + k], vectors[12 + k])
                for i in 0..<4 {
                    let av = (SIMD4(a[4 * i], a[4 * i + 1], a[4 * i + 2], a[4 * i + 3]) * v).sum()
                    #expect(abs(av - values[5 * k] * v[i]) < 1e-10)
                }
                for l in 0..<4 {
                    let w = SIMD4(vectors[l], vectors[4 + l], vectors[8 + l], vectors[12 + l])
                    #expect(abs((v * w).sum() - (k == l ? 1 : 0)) < 1e-12)
                }
            }
        }
    }

    @Test("a weighted cloud moved by a known rotation, scale and translation gives them back")
    func recoversSimilarity() throws {
        var random = SplitMix64(seed: 11)
        func uniform() -> Double { Double(random.nextFloat()) }
        for _ in 0..<100 {
            let rotation = HeadPose.rotation(pitch: 180 * uniform(), yaw: 89 * uniform(), roll: 180 * uniform())
            let scale = 0.01 + 10 * abs(uniform())
            let t = SIMD3(uniform(), uniform(), uniform()) * 100
            let source = (0..<12).map { _ in SIMD3(uniform(), uniform(), uniform()) * 5 }
            let weights = (0..<12).map { _ in 0.1 + abs(uniform()) }
            let target = source.map { scale * (rotation * $0) + t }
            let total = weights.reduce(0, +)
            let a0 = zip(source, weights).reduce(SIMD3<Double>.zero) { $0 + $1.1 * $1.0 } / total
            let b0 = zip(target, weights).reduce(SIMD3<Double>.zero) { $0 + $1.1 * $1.0 } / total
            var fit = SimilarityFit()
            for i in 0..<12 { fit.add(source[i] - a0, target[i] - b0, weight: weights[i]) }
            let (r, s) = try #require(fit.solve())
            #expect(maxDifference(r, rotation) < 1e-9)
            #expect(abs(s / scale - 1) < 1e-9)
            #expect(abs(r.determinant - 1) < 1e-12)
            let translation = b0 - s * (r * a0)
            #expect(((translation - t) * (translation - t)).sum().squareRoot() < 1e-6)
        }
    }

    @Test("a mirrored target still gives a proper rotation (determinant +1), never a reflection")
    func noReflection() throws {
        let source: [SIMD3<Double>] = [SIMD3(1, 0, 0), SIMD3(0, 2, 0), SIMD3(0, 0, 3), SIMD3(-1, -2, -3)]
        var fit = SimilarityFit()
        for a in source { fit.add(a, SIMD3(-a.x, a.y, a.z), weight: 1) }
        let (r, s) = try #require(fit.solve())
        #expect(abs(r.determinant - 1) < 1e-12)
        #expect(s > 0)
    }

    @Test("a target without spread has no solution")
    func degenerate() {
        var fit = SimilarityFit()
        for a in [SIMD3<Double>(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)] { fit.add(a, .zero, weight: 1) }
        #expect(fit.solve() == nil)
        var nan = SimilarityFit()
        nan.add(SIMD3(1, 0, 0), SIMD3(.nan, 0, 0), weight: 1)
        #expect(nan.solve() == nil)
    }
}
