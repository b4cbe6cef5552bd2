/// Constant padding of a tensor of rank 1...4 (TFLite's `PAD` / `PADV2` for float32): the input is placed at
/// offset `before` in every dimension and the rest of the output is `constantValue`.
///
/// Shapes of rank below 4 are treated as padded with leading 1s (and zero paddings there).
///
/// Implementations: `.reference` (one output element at a time) and `.simd` (row copies and fills; also
/// `.automatic` and `.blas`). `run` and the pieces (output rows of the 4-D output): see `OutputRowKernel`.
///
/// Thread safety: immutable after creation; `run` may be called concurrently with non-overlapping outputs.
package struct Pad: OutputRowKernel {
    /// The input's dimensions as given.
    package let inputDimensions: [Int]
    /// The output's dimensions, same rank as the input: `input + before + after` per dimension.
    package let outputDimensions: [Int]
    /// The input as a 4-D shape.
    package let inputShape: Shape4
    /// The output as a 4-D shape; `run` writes `outputShape.count` floats.
    package let outputShape: Shape4
    package let constantValue: Float
    /// The implementation chosen at creation (never `.automatic`).
    package let variant: KernelVariant
    /// The instruction set the `.simd` implementation runs on.
    package let instructionSet: KernelInstructionSet

    /// Padding before the input, per 4-D dimension (n, h, w, c).
    let before: Shape4

    /// Padding before the input, per dimension of the 4-D shapes (n, h, w, c); the padding after is
    /// `outputShape - inputShape - paddingBefore`.
    package var paddingBefore: Shape4 { before }

    /// - Parameters:
    ///   - inputShape: The input's dimensions (rank 1...4), each positive.
    ///   - paddings: One `(before, after)` pair per dimension, outermost first; none negative.
    ///   - constantValue: The value written outside the input (TFLite's `PADV2` constant; 0 for `PAD`).
    ///   - variant: The implementation.
    ///   - instructionSet: The instruction set of the `.simd` kernel; nil (the default) for
    ///     `KernelInstructionSet.active`. An unsupported one falls back to `.baseline`.
    /// - Throws: `KernelError.invalidShape` for a bad shape or a paddings count that differs from the rank,
    ///   `.invalidParameter` for a negative padding.
    package init(
        inputShape: [Int], paddings: [(before: Int, after: Int)], constantValue: Float = 0,
        variant: KernelVariant = .automatic,
        instructionSet: KernelInstructionSet? = nil
    ) throws(KernelError) {
        guard !inputShape.isEmpty else { throw .invalidShape("pad needs an input of rank 1 to 4") }
        let shape = try Shape4(dimensions: inputShape)
        guard paddings.count == inputShape.count else {
            throw .invalidShape("\(paddings.count) padding pairs for a rank \(inputShape.count) input")
        }
        for (axis, pair) in paddings.enumerated() where pair.before < 0 || pair.after < 0 {
            throw .invalidParameter("negative padding (\(pair.before), \(pair.after)) on axis \(axis)")
        }
        let lead = Array(repeating: 0, count: 4 - paddings.count)
        let befores = lead + paddings.map(\.before)
        let afters = lead + paddings.map(\.after)
        let outputDimensions = inputShape.indices.map { inputShape[$0] + paddings[$0].before + paddings[$0].after }
        self.inputDimensions = inputShape
        self.outputDimensions = outputDimensions
        self.inputShape = shape
        self.outputShape = Shape4(
            n: shape.n + befores[0] + afters[0], h: shape.h + befores[1] + afters[1],
            w: shape.w + befores[2] + afters[2], c: shape.c + befores[3] + afters[3])
        self.before = Shape4(n: befores[0], h: befores[1], w: befores[2], c: befores[3])
        self.constantValue = constantValue
        self.variant = variant == .reference ? .reference : .simd
        self.instructionSet = KernelInstructionSet.resolve(instructionSet)
    }
}

extension Pad: RowStepKernel, VariantKernel {
    /// Rows of a batch of one through the SIMD kernel (its pieces are output rows), unpadded in the batch.
    package var rowLocality: RowLocality? {
        guard outputShape.n == 1, variant == .simd, paddingBefore.n == 0 else { return nil }
        return RowLocality(windows: [RowWindow(height: 1, stride: 1, pad: paddingBefore.h)], output: outputShape,
                           computesRowRanges: true)
    }
}
