/// Element-wise addition with NumPy-style broadcasting and a fused activation (TFLite's `ADD`):
/// `output = act(lhs + rhs)`.
///
/// Shapes of rank below 4 are given as `Shape4` padded with leading 1s (`Shape4(dimensions:)`).
///
/// Implementations (see `KernelVariant`):
/// - `.reference`: a 4-deep loop with broadcast strides.
/// - `.simd` (and `.automatic`; `.blas` falls back to it): one flat `SIMD8<Float>` loop when both shapes
///   are equal; otherwise rows of the channel dimension, vectorized, with a broadcast operand splatted.
///
/// Aliasing: `output` may be the same pointer as an operand whose shape equals `outputShape` (in-place
/// residual add). No other overlap is allowed.
///
/// Thread safety: immutable after creation; `run` may be called concurrently with non-overlapping outputs.

import BlazeKernelParameters
package struct Add: Sendable {
    package let lhsShape: Shape4
    package let rhsShape: Shape4
    /// The broadcast shape: per dimension, the larger of the two.
    package var outputShape: Shape4 { plan.outputShape }
    /// What follows each sum: the fused activation, and PReLU slopes in the SIMD same-shape kernel
    /// (`capabilities(lhsShape:rhsShape:variant:)`).
    package let epilogue: Epilogue
    /// The epilogue's clamp.
    package var activation: FusedActivation { epilogue.activation }
    /// The implementation chosen at creation (never `.automatic`).
    package let variant: KernelVariant
    /// The instruction set the `.simd` implementation runs on.
    package let instructionSet: KernelInstructionSet

    let plan: BroadcastPlan
    /// The epilogue's PReLU slopes, or nil.
    let slopes: PackedBuffer<Float>?

    /// - Parameters:
    ///   - lhsShape: The first operand's shape.
    ///   - rhsShape: The second operand's shape; each dimension equal to `lhsShape`'s or one of them 1.
    ///   - epilogue: What follows each sum: the fused activation, and the stages
    ///     `capabilities(lhsShape:rhsShape:variant:)` allows.
    ///   - variant: The implementation; see the type's documentation.
    ///   - instructionSet: The instruction set of the `.simd` kernel; nil (the default) for
    ///     `KernelInstructionSet.active`. An unsupported one falls back to `.baseline`.
    /// - Throws: `KernelError.invalidShape` or `.notBroadcastable`; `.invalidParameter` or
    ///   `.weightCountMismatch` for an epilogue the implementation cannot run.
    package init(
        lhsShape: Shape4, rhsShape: Shape4, epilogue: Epilogue = .none, variant: KernelVariant = .automatic,
        instructionSet: KernelInstructionSet? = nil
    ) throws(KernelError) {
        self.plan = try BroadcastPlan(lhsShape, rhsShape)
        self.lhsShape = lhsShape
        self.rhsShape = rhsShape
        self.variant = variant == .reference ? .reference : .simd
        try epilogue.validate(Self.capabilities(lhsShape: lhsShape, rhsShape: rhsShape, variant: self.variant),
                              channels: plan.outputShape.c, kernel: "this ADD")
        self.epilogue = epilogue
        self.slopes = try .slopes(epilogue.slopes, channels: plan.outputShape.c)
        self.instructionSet = KernelInstructionSet.resolve(instructionSet)
    }

    /// The epilogue stages of the implementation `variant` chooses: PReLU slopes in the SIMD kernel of two
    /// operands of the same shape (its pieces are then rows of pixels); the clamp only otherwise.
    package static func capabilities(lhsShape: Shape4, rhsShape: Shape4, variant: KernelVariant) -> Epilogue.Capabilities {
        variant != .reference && lhsShape == rhsShape ? [.slopes] : []
    }

    /// Computes `act(lhs + rhs)`.
    ///
    /// - Parameters:
    ///   - lhs: `lhsShape.count` floats.
    ///   - rhs: `rhsShape.count` floats.
    ///   - output: `outputShape.count` floats; may alias an operand of the output's shape.
    package func run(lhs: UnsafePointer<Float>, rhs: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        if slopes != nil {
            run(lhs: lhs, rhs: rhs, output: output, pieces: 0..<pieceCount)
            return
        }
        switch variant {
        case .simd: runSIMD(lhs: lhs, rhs: rhs, output: output)
        default: runReference(lhs: lhs, rhs: rhs, output: output)
        }
    }

    /// Independent pieces: blocks of `Pieces.blockSize` floats when both shapes equal the output's (SIMD),
    /// otherwise 1 (computed whole).
    package var pieceCount: Int {
        if slopes != nil { return outputShape.n * outputShape.h }
        return variant == .simd && plan.isSameShape ? Pieces.blockCount(outputShape.count) : 1
    }

    /// Computes pieces `pieces` (a subrange of `0..<pieceCount`); see `Pieces`.
    package func run(
        lhs: UnsafePointer<Float>, rhs: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, pieces: Range<Int>
    ) {
        if let slopes {
            let s = outputShape
            let rowSize = s.w * s.c
            let first = max(pieces.lowerBound, 0), rows = max(min(pieces.upperBound, s.n * s.h) - first, 0)
            guard rows > 0 else { return }
            let offset = first * rowSize
            instructionSet.microkernels.elementwise.addPReLU(AddPReLUArguments(
                pixels: rows * s.w, channels: s.c, lhs: lhs + offset, rhs: rhs + offset, alpha: slopes.pointer,
                output: output + offset, bounds: activation.outputBounds))
            return
        }
        guard variant == .simd && plan.isSameShape else {
            if pieces.contains(0) { run(lhs: lhs, rhs: rhs, output: output) }
            return
        }
        let elements = Pieces.elements(pieces, count: outputShape.count)
        let start = elements.lowerBound
        runSame(count: elements.count, lhs: lhs + start, rhs: rhs + start, output: output + start)
    }
}

extension Add: BinaryStepKernel, VariantKernel {
    /// Rows of a batch of one through the SIMD kernel when both operands have the output's shape; its
    /// pieces are blocks of floats, so it computes its whole output.
    package var rowLocality: RowLocality? {
        guard outputShape.n == 1, variant == .simd, lhsShape == outputShape, rhsShape == outputShape else { return nil }
        return RowLocality(windows: [.identity, .identity], output: outputShape, computesRowRanges: false)
    }
}
