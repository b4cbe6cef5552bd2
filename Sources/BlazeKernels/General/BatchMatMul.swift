import BlazeKernelParameters

/// TFLite's float `BATCH_MATMUL`: `output[..., m, n] = Σ_k x[..., m, k] · y[..., k, n]`, with each operand's last
/// two axes transposed first when its adjoint flag is set, and NumPy-style broadcasting of the batch axes
/// (every axis but the last two).
///
/// The products run on `instructionSet`'s `matmul` microkernel (`Microkernels/General.swift`): without `adjointY`,
/// tiles of 4 rows by 16 columns accumulated over `k` (one multiply-add per step, FMA where the CPU has it); with
/// it, each output is a dot product over `k` (the second operand's rows are contiguous then). Each output value is
/// computed by the same operations in the same order in every piece, so every split gives the same bits. Pieces:
/// output rows (batch and `m`).
///
/// Aliasing: none allowed. Thread safety: immutable.
package struct BatchMatMul: Sendable, StepKernel {
    package let adjointX: Bool
    package let adjointY: Bool
    /// Rows, inner dimension and columns of each product.
    package let m: Int, k: Int, n: Int
    /// The output's dimensions: the broadcast batch axes, then `m` and `n`.
    package let output: TensorDimensions
    /// Per broadcast batch axis: its size and each operand's stride in matrices (0 where broadcast).
    let batchSizes: [Int]
    let xBatchStrides: [Int]
    let yBatchStrides: [Int]

    /// The instruction set the matrix products run on.
    package let instructionSet: KernelInstructionSet

    /// - Throws: `KernelError.invalidShape` for an operand of rank below 2, inner dimensions that differ, or batch
    ///   axes that do not broadcast.
    package init(
        x: [Int], y: [Int], adjointX: Bool, adjointY: Bool, instructionSet: KernelInstructionSet? = nil
    ) throws(KernelError) {
        guard x.count >= 2, y.count >= 2 else {
            throw .invalidShape("BATCH_MATMUL of \(x) and \(y): both operands need rank 2 or more")
        }
        _ = try TensorDimensions(x, role: "first operand")
        _ = try TensorDimensions(y, role: "second operand")
        let (xr, xc) = (x[x.count - 2], x[x.count - 1]), (yr, yc) = (y[y.count - 2], y[y.count - 1])
        let (m, kx) = adjointX ? (xc, xr) : (xr, xc)
        let (ky, n) = adjointY ? (yc, yr) : (yr, yc)
        guard kx == ky else {
            throw .invalidShape("BATCH_MATMUL of \(x) and \(y): inner dimensions \(kx) and \(ky) differ")
        }
        let a: [Int], b: [Int], sizes: [Int]
        do { (a, b, sizes) = try TensorDimensions.broadcast(Array(x.dropLast(2)), Array(y.dropLast(2))) } catch {
            throw .invalidShape("BATCH_MATMUL of \(x) and \(y): batch axes do not broadcast")
        }
        let rank = sizes.count
        func strides(_ shape: [Int]) -> [Int] {
            var result = [Int](repeating: 0, count: rank), stride = 1
            for axis in (0..<rank).reversed() {
                result[axis] = shape[axis] == sizes[axis] && shape[axis] > 1 ? stride : 0
                stride *= shape[axis]
            }
            return result
        }
        output = try TensorDimensions(sizes + [m, n], role: "BATCH_MATMUL output")
        (self.adjointX, self.adjointY, self.m, self.k, self.n) = (adjointX, adjointY, m, kx, n)
        (batchSizes, xBatchStrides, yBatchStrides) = (sizes, strides(a), strides(b))
        self.instructionSet = KernelInstructionSet.resolve(instructionSet)
    }

    package var planDescription: String { "BatchMatMul" }
    /// `output.count · k`, saturated at `Int.max` (the runtime's work limit then refuses it).
    package var multiplyAccumulates: Int {
        let (product, overflow) = output.count.multipliedReportingOverflow(by: k)
        return overflow ? .max : product
    }
    package var pieceCount: Int { output.count / n }

    /// Output rows `rows` (of `output.count / n`), in blocks of one batch's rows on `instructionSet`'s
    /// matrix-product microkernel.
    func run(x: UnsafePointer<Float>, y: UnsafePointer<Float>, output out: UnsafeMutablePointer<Float>, rows: Range<Int>) {
        let (m, k, n) = (self.m, self.k, self.n)
        let matmul = instructionSet.microkernels.general.matmul
        // x[i, p]: row-major [m, k], or [k, m] with the adjoint.
        let (aRowStride, aDepthStride) = adjointX ? (1, m) : (k, 1)
        var row = max(rows.lowerBound, 0)
        let end = min(rows.upperBound, pieceCount)
        while row < end {
            let batch = row / m, i = row % m, count = min(m - i, end - row)
            var (xm, ym, rest) = (0, 0, batch)
            for axis in batchSizes.indices.reversed() {
                let index = rest % batchSizes[axis]
                rest /= batchSizes[axis]
                xm += index * xBatchStrides[axis]
                ym += index * yBatchStrides[axis]
            }
            matmul(MatMulArguments(
                rows: count, depth: k, columns: n, a: x + xm * m * k + i * aRowStride, aRowStride: aRowStride,
                aDepthStride: aDepthStride, b: y + ym * k * n, transposedB: adjointY, c: out + row * n))
            row += count
        }
    }

    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>) {
        run(x: inputs[0], y: inputs[1], output: output, rows: 0..<pieceCount)
    }

    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        run(x: inputs[0], y: inputs[1], output: output, rows: pieces)
    }
}
