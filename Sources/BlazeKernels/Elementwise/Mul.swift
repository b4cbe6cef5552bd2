/// Element-wise multiplication with NumPy-style broadcasting and a fused activation (TFLite's `MUL` on
/// float32): `output = act(lhs · rhs)`.
///
/// Shapes of rank below 4 are given as `Shape4` padded with leading 1s (`Shape4(dimensions:)`).
///
/// Implementations (see `KernelVariant`):
/// - `.reference`: a 4-deep loop with broadcast strides.
/// - `.simd` (and `.automatic`; `.blas` falls back to it): one flat `SIMD8<Float>` loop when both shapes
///   are equal; otherwise output rows (`n·h`), each one flat loop when both operands are dense or constant
///   along the row, or when one is dense and the other one vector of channels (a channel scale
///   `[1, H, W, C] · [1, 1, 1, C]`, with `C` a multiple of 8), else vectorized channel runs per pixel with a
///   broadcast operand splatted.
///
/// Each product is one IEEE multiplication, so every implementation, piece and row range gives the same bits
/// (and `a · b == b · a`: the runtime may swap the operands).
///
/// Aliasing: `output` may be the same pointer as an operand whose shape equals `outputShape`. No other overlap
/// is allowed.
///
/// Thread safety: immutable after creation; `run` may be called concurrently with non-overlapping outputs.
package struct Mul: Sendable {
    package let lhsShape: Shape4
    package let rhsShape: Shape4
    /// The broadcast shape: per dimension, the larger of the two.
    package var outputShape: Shape4 { plan.outputShape }
    package let activation: FusedActivation
    /// The implementation chosen at creation (never `.automatic`).
    package let variant: KernelVariant
    /// The instruction set the `.simd` implementation runs on.
    package let instructionSet: KernelInstructionSet

    let plan: BroadcastPlan

    /// - Parameters:
    ///   - lhsShape: The first operand's shape.
    ///   - rhsShape: The second operand's shape; each dimension equal to `lhsShape`'s or one of them 1.
    ///   - activation: The fused activation.
    ///   - variant: The implementation; see the type's documentation.
    ///   - instructionSet: The instruction set of the `.simd` kernel; nil (the default) for
    ///     `KernelInstructionSet.active`. An unsupported one falls back to `.baseline`.
    /// - Throws: `KernelError.invalidShape` for a dimension that is not positive or an output of more than
    ///   `Int.max` elements, `.notBroadcastable` for incompatible shapes.
    package init(
        lhsShape: Shape4, rhsShape: Shape4, activation: FusedActivation = .none, variant: KernelVariant = .automatic,
        instructionSet: KernelInstructionSet? = nil
    ) throws(KernelError) {
        self.plan = try BroadcastPlan(lhsShape, rhsShape)
        self.lhsShape = lhsShape
        self.rhsShape = rhsShape
        self.activation = activation
        self.variant = variant == .reference ? .reference : .simd
        self.instructionSet = KernelInstructionSet.resolve(instructionSet)
    }

    /// Computes `act(lhs · rhs)`.
    ///
    /// - Parameters:
    ///   - lhs: `lhsShape.count` floats.
    ///   - rhs: `rhsShape.count` floats.
    ///   - output: `outputShape.count` floats; may alias an operand of the output's shape.
    package func run(lhs: UnsafePointer<Float>, rhs: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        switch variant {
        case .simd: run(lhs: lhs, rhs: rhs, output: output, pieces: 0..<pieceCount)
        default: runReference(lhs: lhs, rhs: rhs, output: output)
        }
    }

    /// Independent pieces (SIMD): blocks of `Pieces.blockSize` floats when both shapes equal the output's,
    /// otherwise the output's rows (`n·h`). The reference is computed whole (1).
    package var pieceCount: Int {
        guard variant == .simd else { return 1 }
        return plan.isSameShape ? Pieces.blockCount(outputShape.count) : outputShape.n * outputShape.h
    }

    /// Computes pieces `pieces` (a subrange of `0..<pieceCount`); see `Pieces`.
    package func run(
        lhs: UnsafePointer<Float>, rhs: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, pieces: Range<Int>
    ) {
        guard variant == .simd else {
            if pieces.contains(0) { runReference(lhs: lhs, rhs: rhs, output: output) }
            return
        }
        if plan.isSameShape {
            let elements = Pieces.elements(pieces, count: outputShape.count)
            runSame(elements, lhs: lhs, rhs: rhs, output: output)
        } else {
            runBroadcast(rows: pieces, lhs: lhs, rhs: rhs, output: output)
        }
    }

    /// Computes output rows `rows` of a batch of one (SIMD only; the reference computes everything).
    package func run(
        lhs: UnsafePointer<Float>, rhs: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, outputRows rows: Range<Int>
    ) {
        guard variant == .simd else {
            runReference(lhs: lhs, rhs: rhs, output: output)
            return
        }
        if plan.isSameShape {
            let rowFloats = outputShape.w * outputShape.c
            let count = outputShape.count
            let lower = min(max(rows.lowerBound, 0) * rowFloats, count)
            runSame(lower..<max(min(rows.upperBound * rowFloats, count), lower), lhs: lhs, rhs: rhs, output: output)
        } else {
            runBroadcast(rows: rows, lhs: lhs, rhs: rhs, output: output)
        }
    }
}

extension Mul: BinaryStepKernel, VariantKernel {
    /// Rows of a batch of one through the SIMD kernel, when the first operand has the output's rows: the
    /// second one then has them too (window `.identity`) or is one row broadcast to all of them (no window:
    /// every output row reads all of it, so it cannot break a band). The runtime puts the operand of the
    /// output's shape first (multiplication commutes).
    package var rowLocality: RowLocality? {
        let o = outputShape
        guard o.n == 1, variant == .simd, lhsShape.h == o.h, lhsShape.n == 1, rhsShape.n == 1 else { return nil }
        let windows: [RowWindow] = rhsShape.h == o.h ? [.identity, .identity] : [.identity]
        return RowLocality(windows: windows, output: o, computesRowRanges: true)
    }

    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>, outputRows rows: Range<Int>) {
        run(lhs: inputs[0], rhs: inputs[1], output: output, outputRows: rows)
    }
}
