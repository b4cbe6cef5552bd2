@testable import BlazeKernels
import Foundation
import Testing

/// The general-purpose kernels' own contracts: checks at creation, and every split of the work giving the same
/// bits as the whole run.
@Suite("General kernels")
struct GeneralKernelTests {
    @Test("dimensions beyond rank 6, not positive, or past Int are refused")
    func dimensions() {
        #expect(throws: KernelError.self) { try TensorDimensions([1, 1, 1, 1, 1, 1, 1]) }
        #expect(throws: KernelError.self) { try TensorDimensions([2, 0, 3]) }
        #expect(throws: KernelError.self) { try TensorDimensions([1 << 32, 1 << 32]) }
        #expect((try? TensorDimensions([]))?.count == 1)
    }

    @Test("a batch product's multiply-accumulates saturate instead of overflowing")
    func batchMatMulWork() throws {
        let kernel = try BatchMatMul(x: [1 << 30, 1 << 20], y: [1 << 20, 1 << 30], adjointX: false, adjointY: false)
        #expect(kernel.multiplyAccumulates == .max)
    }

    @Test("softmax refuses a beta that is not finite")
    func softmaxBeta() throws {
        let x = try TensorDimensions([2, 3])
        #expect(throws: KernelError.self) { try Softmax(x, beta: .infinity) }
        #expect(throws: KernelError.self) { try Softmax(x, beta: .nan) }
    }

    @Test("every kernel gives the same bits by pieces as whole")
    func piecesMatchWhole() throws {
        var generator = SystemRandomNumberGenerator()
        let x = (0..<(3 * 5 * 17)).map { _ in Float.random(in: -2...2, using: &generator) }
        let y = (0..<(3 * 17 * 9)).map { _ in Float.random(in: -2...2, using: &generator) }
        let dims = try TensorDimensions([3, 5, 17])
        let kernels: [(any StepKernel, Int)] = [
            (try IndexedCopy.transpose(dims, permutation: [2, 0, 1]), 1),
            (try ElementwiseBinary(.squaredDifference, lhs: [3, 5, 17], rhs: [17]), 2),
            (try Softmax(dims, beta: 0.7), 1),
            (try Reduce(.sum, input: dims, axes: [1]), 1),
            (try Reduce(.maximum, input: dims, axes: [0, 2]), 1),
            (try BatchMatMul(x: [3, 5, 17], y: [3, 17, 9], adjointX: false, adjointY: false), 2),
        ]
        for (kernel, inputCount) in kernels {
            let inputs = [x, inputCount == 2 ? (y.count >= x.count ? y : x) : x]
            var whole = [Float](repeating: 0, count: 3 * 17 * 17), split = whole
            inputs[0].withUnsafeBufferPointer { a in
                inputs[1].withUnsafeBufferPointer { b in
                    let pointers = [a.baseAddress!, b.baseAddress!]
                    whole.withUnsafeMutableBufferPointer { kernel.run(inputs: pointers, output: $0.baseAddress!) }
                    split.withUnsafeMutableBufferPointer { out in
                        for piece in (0..<kernel.pieceCount).reversed() {
                            kernel.run(inputs: pointers, output: out.baseAddress!, pieces: piece..<piece + 1)
                        }
                    }
                }
            }
            #expect(whole.map(\.bitPattern) == split.map(\.bitPattern), "\(kernel.planDescription)")
        }
    }

    /// A batch product in double precision: `x` `[b, m, k]` (or `[b, k, m]` with `adjointX`) times `y`
    /// `[b, k, n]` (or `[b, n, k]`).
    static func product(_ x: [Float], _ y: [Float], b: Int, m: Int, k: Int, n: Int, adjointX: Bool, adjointY: Bool)
        -> [Double] {
        var out = [Double](repeating: 0, count: b * m * n)
        for q in 0..<b { for i in 0..<m { for j in 0..<n {
            var sum = 0.0
            for p in 0..<k {
                let a = x[q * m * k + (adjointX ? p * m + i : i * k + p)]
                let c = y[q * k * n + (adjointY ? j * k + p : p * n + j)]
                sum += Double(a) * Double(c)
            }
            out[(q * m + i) * n + j] = sum
        } } }
        return out
    }

    @Test("BATCH_MATMUL on every instruction set: around the 4x16 tile, with and without adjoints",
          arguments: instructionSets, [false, true])
    func batchMatMulTiles(instructionSet: KernelInstructionSet, adjointY: Bool) throws {
        var generator = SystemRandomNumberGenerator()
        for (m, k, n) in [(1, 1, 1), (3, 7, 15), (4, 16, 16), (5, 9, 17), (9, 33, 40), (2, 64, 8), (7, 3, 31)] {
            for adjointX in [false, true] {
                let b = 2
                let x = (0..<(b * m * k)).map { _ in Float.random(in: -1...1, using: &generator) }
                let y = (0..<(b * k * n)).map { _ in Float.random(in: -1...1, using: &generator) }
                let kernel = try BatchMatMul(
                    x: adjointX ? [b, k, m] : [b, m, k], y: adjointY ? [b, n, k] : [b, k, n], adjointX: adjointX,
                    adjointY: adjointY, instructionSet: instructionSet)
                var out = [Float](repeating: .nan, count: b * m * n)
                x.withUnsafeBufferPointer { xs in
                    y.withUnsafeBufferPointer { ys in
                        out.withUnsafeMutableBufferPointer {
                            kernel.run(inputs: [xs.baseAddress!, ys.baseAddress!], output: $0.baseAddress!)
                        }
                    }
                }
                let expected = Self.product(x, y, b: b, m: m, k: k, n: n, adjointX: adjointX, adjointY: adjointY)
                let worst = zip(out, expected).map { abs(Double($0.0) - $0.1) }.max() ?? 0
                #expect(worst <= 1e-5 * Double(k), "\(m)x\(k)x\(n) adjoints \(adjointX) \(adjointY): \(worst)")
            }
        }
    }

    @Test("SOFTMAX on every instruction set: rows of 1 to 19 classes sum to 1 and follow exp", arguments: instructionSets)
    func softmaxRows(instructionSet: KernelInstructionSet) throws {
        for classes in 1...19 {
            let x = (0..<(3 * classes)).map { Float($0 % 7) * 0.5 - 1.2 }
            let kernel = try Softmax(try TensorDimensions([3, classes]), beta: 0.8, instructionSet: instructionSet)
            var out = [Float](repeating: .nan, count: x.count)
            x.withUnsafeBufferPointer { xs in
                out.withUnsafeMutableBufferPointer { kernel.run(inputs: [xs.baseAddress!], output: $0.baseAddress!) }
            }
            for row in 0..<3 {
                let logits = x[(row * classes)..<((row + 1) * classes)].map { Double($0) * 0.8 }
                let top = logits.max()!, total = logits.map { Foundation.exp($0 - top) }.reduce(0, +)
                for c in 0..<classes {
                    let expected = Foundation.exp(logits[c] - top) / total
                    #expect(abs(Double(out[row * classes + c]) - expected) <= 1e-6, "\(classes) classes, row \(row)")
                }
            }
        }
    }
}
