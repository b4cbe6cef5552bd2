@testable import BlazeKernels
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
}
