/// A BlazeBlock's shortcut connection in one pass: TFLite's `MAX_POOL_2D` (2x2, stride 2; optional), `PAD`
/// (zeros after the channels) and `ADD` (with its fused activation), fused.
///
/// `output[n, y, x, j] = act(s[n, y, x, j] + main[n, y, x, j])`, where `s` is the shortcut input at
/// (y, x) — or the maximum of its 2x2 window at (2y, 2x) when `pooled` — for `j < shortcutShape.c`, and 0
/// beyond. The result equals the three operators' to the bit (same operations in the same order), without
/// writing the pooled and padded tensors; the runtime fuses them when those tensors have no other reader.
///
/// A PRELU with one slope per channel after the ADD can run in the same pass (`Epilogue.slopes`).
///
/// One implementation (vectorized over channels, AVX2 where the CPU has it); the unfused operators
/// are the reference. Thread safety: immutable; `run` may be called concurrently with non-overlapping
/// outputs.

import BlazeKernelParameters
package struct ResidualAdd: Sendable {
    /// The shortcut input's shape: `[n, h, w, cin]`, or `[n, 2h, 2w, cin]` when pooled.
    package let shortcutShape: Shape4
    /// The main branch's and the output's shape `[n, h, w, c]`, `c >= cin`.
    package let outputShape: Shape4
    package let pooled: Bool
    /// The pool's fused activation (clamp applied to the pooled value), `.none` in the models.
    package let poolActivation: FusedActivation
    /// Whether the shortcut was the ADD's first operand (`s + main`) or its second (`main + s`).
    package let shortcutFirst: Bool
    /// What follows each sum: the ADD's fused activation, and PReLU slopes (`capabilities`).
    package let epilogue: Epilogue
    /// The epilogue's clamp.
    package var activation: FusedActivation { epilogue.activation }
    /// The instruction set the kernel runs on.
    package let instructionSet: KernelInstructionSet
    /// The epilogue's PReLU slopes, or nil.
    let slopes: PackedBuffer<Float>?

    /// The epilogue stages the kernel runs: the clamp and PReLU slopes.
    package static let capabilities: Epilogue.Capabilities = [.slopes]

    /// - Throws: `KernelError.invalidShape` unless the batch sizes match, the shortcut has at most the
    ///   output's channels, and its height and width are the output's (twice the output's when pooled);
    ///   `.invalidParameter` or `.weightCountMismatch` for an epilogue beyond `capabilities`.
    package init(
        shortcutShape: Shape4, outputShape: Shape4, pooled: Bool, poolActivation: FusedActivation = .none,
        shortcutFirst: Bool = true, epilogue: Epilogue = .none, instructionSet: KernelInstructionSet? = nil
    ) throws(KernelError) {
        try shortcutShape.validate("shortcut")
        try outputShape.validate("output")
        let factor = pooled ? 2 : 1
        guard shortcutShape.n == outputShape.n, shortcutShape.h == factor * outputShape.h,
              shortcutShape.w == factor * outputShape.w, shortcutShape.c <= outputShape.c else {
            throw .invalidShape("a shortcut of shape \(shortcutShape) does not fit an output of shape \(outputShape)"
                + (pooled ? " after a 2x2 stride-2 max-pool" : ""))
        }
        self.shortcutShape = shortcutShape
        self.outputShape = outputShape
        self.pooled = pooled
        self.poolActivation = poolActivation
        self.shortcutFirst = shortcutFirst
        try epilogue.validate(Self.capabilities, channels: outputShape.c, kernel: "a BlazeBlock shortcut")
        self.epilogue = epilogue
        self.slopes = try .slopes(epilogue.slopes, channels: outputShape.c)
        self.instructionSet = KernelInstructionSet.resolve(instructionSet)
    }

    /// Independent pieces of the output: its rows (`n·h`).
    package var pieceCount: Int { outputShape.n * outputShape.h }

    /// Computes the whole output.
    /// - Parameters:
    ///   - shortcut: `shortcutShape.count` floats.
    ///   - main: `outputShape.count` floats.
    ///   - output: `outputShape.count` floats. Must not overlap the inputs.
    package func run(shortcut: UnsafePointer<Float>, main: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        run(shortcut: shortcut, main: main, output: output, pieces: 0..<pieceCount)
    }

    /// Computes output rows `pieces` (a subrange of `0..<pieceCount`); see `Pieces`.
    package func run(
        shortcut: UnsafePointer<Float>, main: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
        pieces: Range<Int>
    ) {
        let s = shortcutShape, o = outputShape
        let bounds = activation.outputBounds, poolBounds = poolActivation.outputBounds
        let alpha = slopes.map { UnsafePointer($0.pointer) }
        let residualAdd = instructionSet.microkernels.elementwise.residualAdd
        Pieces.forEachImage(pieces, rowsPerImage: o.h) { b, rows in
            let shortcutImage = shortcut + b * s.h * s.w * s.c
            let offset = b * o.h * o.w * o.c
            residualAdd(ResidualAddArguments(
                shortcut: shortcutImage, shortcutWidth: s.w, shortcutChannels: s.c, pooled: pooled,
                poolBounds: poolBounds, shortcutFirst: shortcutFirst, main: main + offset, output: output + offset,
                width: o.w, channels: o.c, rows: rows, bounds: bounds, alpha: alpha))
        }
    }
}

extension ResidualAdd: StepKernel {
    package var planDescription: String { pooled ? "ResidualAdd.pooled" : "ResidualAdd" }

    /// Rows of a batch of one: the shortcut's rows (its 2x2 windows when pooled) and the main branch's.
    package var rowLocality: RowLocality? {
        guard outputShape.n == 1 else { return nil }
        let shortcut = pooled ? RowWindow(height: 2, stride: 2, pad: 0) : .identity
        return RowLocality(windows: [shortcut, .identity], output: outputShape, computesRowRanges: true)
    }

    /// Inputs: the shortcut, then the main branch.
    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>) {
        run(shortcut: inputs[0], main: inputs[1], output: output)
    }

    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        run(shortcut: inputs[0], main: inputs[1], output: output, pieces: pieces)
    }

    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>, outputRows rows: Range<Int>) {
        run(shortcut: inputs[0], main: inputs[1], output: output, pieces: rows)
    }
}
