/// Parametric ReLU (TFLite's `PRELU`): `output = x >= 0 ? x : alpha · x`, with `alpha` broadcast against the
/// input by NumPy rules (in the face models alpha is `[1, 1, C]` against `[1, H, W, C]`). The output shape
/// is the broadcast of both shapes.
///
/// `alpha` is a constant, copied at creation.
///
/// Implementations (see `KernelVariant`):
/// - `.reference`: a 4-deep loop with broadcast strides.
/// - `.simd` (and `.automatic`; `.blas` falls back to it): vectorized channel rows.
///
/// Aliasing: `output` may equal `input` when the input's shape is the output shape (in place).
/// Thread safety: immutable after creation; `run` may be called concurrently with non-overlapping outputs.

import BlazeKernelParameters
package struct PReLU: Sendable {
    package let inputShape: Shape4
    package let alphaShape: Shape4
    package var outputShape: Shape4 { plan.outputShape }
    /// The implementation chosen at creation (never `.automatic`).
    package let variant: KernelVariant
    /// The instruction set the `.simd` implementation runs on.
    package let instructionSet: KernelInstructionSet

    let plan: BroadcastPlan
    let alpha: PackedBuffer<Float>

    /// - Parameters:
    ///   - inputShape: The input's shape.
    ///   - alphaShape: The slopes' shape (rank < 4 padded with leading 1s); broadcastable with `inputShape`.
    ///   - alpha: `alphaShape.count` slopes.
    ///   - variant: The implementation.
    ///   - instructionSet: The instruction set of the `.simd` kernel; nil (the default) for
    ///     `KernelInstructionSet.active`. An unsupported one falls back to `.baseline`.
    /// - Throws: `KernelError.invalidShape`, `.notBroadcastable` or `.weightCountMismatch`.
    package init(inputShape: Shape4, alphaShape: Shape4, alpha: [Float], variant: KernelVariant = .automatic,
                instructionSet: KernelInstructionSet? = nil) throws(KernelError) {
        self.plan = try BroadcastPlan(inputShape, alphaShape)
        guard alpha.count == alphaShape.count else {
            throw .weightCountMismatch(name: "alpha", expected: alphaShape.count, actual: alpha.count)
        }
        self.inputShape = inputShape
        self.alphaShape = alphaShape
        self.alpha = PackedBuffer(alpha, padding: 0)
        self.variant = variant == .reference ? .reference : .simd
        self.instructionSet = KernelInstructionSet.resolve(instructionSet)
    }

    /// Applies PReLU.
    ///
    /// - Parameters:
    ///   - input: `inputShape.count` floats.
    ///   - output: `outputShape.count` floats; may equal `input` when `inputShape == outputShape`.
    package func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        switch variant {
        case .simd: runSIMD(input: input, output: output)
        default: runReference(input: input, output: output)
        }
    }

    /// Whether the input is dense in the output's shape and the slopes are one per channel (the face
    /// models' case), so that rows of pixels are independent pieces.
    var isPerChannel: Bool {
        inputShape == outputShape && alphaShape.c == outputShape.c && alphaShape.count == outputShape.c
    }

    /// The slopes, one per channel, when they are per channel on a dense input (what a convolution or an
    /// ADD runs in its epilogue, `Epilogue.slopes`); nil otherwise.
    package var perChannelSlopes: [Float]? {
        guard isPerChannel else { return nil }
        return Array(UnsafeBufferPointer(start: alpha.pointer, count: outputShape.c))
    }

    /// Independent pieces: rows of pixels (`n·h`) for per-channel slopes (SIMD), otherwise 1.
    package var pieceCount: Int { variant == .simd && isPerChannel ? outputShape.n * outputShape.h : 1 }

    /// Computes pieces `pieces` (a subrange of `0..<pieceCount`); see `Pieces`.
    package func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        guard variant == .simd && isPerChannel else {
            if pieces.contains(0) { run(input: input, output: output) }
            return
        }
        let s = outputShape
        let rowSize = s.w * s.c
        let first = max(pieces.lowerBound, 0), rows = max(min(pieces.upperBound, s.n * s.h) - first, 0)
        guard rows > 0 else { return }
        let slopes = UnsafePointer(alpha.pointer)
        let strides = (n: rows * rowSize, h: rowSize, w: s.c, c: 1), none = (n: 0, h: 0, w: 0, c: 1)
        instructionSet.microkernels.elementwise.prelu(PReLUArguments(
            shape: (1, rows, s.w, s.c), input: StridedOperand(input + first * rowSize, strides: strides),
            alpha: StridedOperand(slopes, strides: none), output: output + first * rowSize))
    }
}

extension PReLU: RowStepKernel, VariantKernel {
    /// Rows of a batch of one through the SIMD kernel, on an input of the output's shape.
    package var rowLocality: RowLocality? {
        guard outputShape.n == 1, variant == .simd, inputShape == outputShape else { return nil }
        return RowLocality(windows: [.identity], output: outputShape, computesRowRanges: true)
    }
}
