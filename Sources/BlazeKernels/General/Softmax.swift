import BlazeKernelParameters

/// TFLite's float `SOFTMAX` over the last axis: per row, `exp((x − max) · beta)` divided by the row's sum: the
/// maximum, then the exponentials 8 lanes at a time (the vector exponential of the LOGISTIC kernel, within 2 ulp
/// of `expf`; arguments below −87.3, whose `expf` is 0 or subnormal, count as e^−87.3) and their sum, then one
/// division each.
///
/// Pieces: rows, so every piece and thread gives the same bits. Aliasing: may run in place. Thread safety:
/// immutable.
package struct Softmax: Sendable, StepKernel {
    /// Rows (every axis but the last) and the classes of each row (the last axis).
    package let rows: Int
    package let classes: Int
    package let beta: Float

    /// The instruction set the rows run on.
    package let instructionSet: KernelInstructionSet

    /// - Throws: `KernelError.invalidShape` for a shape that is not positive, `.invalidParameter` for a beta
    ///   that is not finite.
    package init(_ dimensions: TensorDimensions, beta: Float, instructionSet: KernelInstructionSet? = nil) throws(KernelError) {
        guard let last = dimensions.sizes.last else { throw .invalidShape("SOFTMAX of a scalar") }
        guard beta.isFinite else { throw .invalidParameter("beta \(beta) is not finite") }
        classes = last
        rows = dimensions.count / last
        self.beta = beta
        self.instructionSet = KernelInstructionSet.resolve(instructionSet)
    }

    package var planDescription: String { "Softmax" }

    package var pieceCount: Int { rows }

    /// Rows `range` on `instructionSet`'s softmax microkernel.
    func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, rows range: Range<Int>) {
        let first = max(range.lowerBound, 0), end = min(range.upperBound, rows)
        guard first < end else { return }
        instructionSet.microkernels.general.softmax(SoftmaxArguments(
            rows: end - first, classes: classes, beta: beta, input: input + first * classes,
            output: output + first * classes))
    }

    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>) {
        run(input: inputs[0], output: output, rows: 0..<rows)
    }

    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        run(input: inputs[0], output: output, rows: pieces)
    }
}
