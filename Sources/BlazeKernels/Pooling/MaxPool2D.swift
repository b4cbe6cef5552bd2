/// 2-D max pooling over NHWC float32 data with TFLite's `MAX_POOL_2D` semantics: each output is the
/// maximum over the in-bounds taps of its window (padded positions are ignored, not zeros), starting from
/// `-Float.greatestFiniteMagnitude` as TFLite does, then the fused activation.
///
/// Implementations: `.reference` (scalar loops) and `.simd` (vectorized over channels, 8 at a time with a
/// partial tail; also `.automatic` and `.blas`).
///
/// Thread safety: immutable after creation; `run` may be called concurrently with non-overlapping outputs.
public struct MaxPool2D: Sendable {
    public let inputShape: Shape4
    /// `[n, outH, outW, C]`.
    public let outputShape: Shape4
    public let geometry: WindowGeometry
    public let activation: FusedActivation
    /// The implementation chosen at creation (never `.automatic`).
    public let variant: KernelVariant
    /// The instruction set the `.simd` implementation runs on.
    public let instructionSet: KernelInstructionSet

    /// - Parameters:
    ///   - inputShape: NHWC input shape; every dimension positive.
    ///   - filterH: Window height, positive.
    ///   - filterW: Window width, positive.
    ///   - strideH: Vertical stride, positive.
    ///   - strideW: Horizontal stride, positive.
    ///   - padding: TFLite's SAME or VALID.
    ///   - activation: The fused activation.
    ///   - variant: The implementation.
    ///   - instructionSet: The instruction set of the `.simd` kernel; nil (the default) for
    ///     `KernelInstructionSet.active`. An unsupported one falls back to `.baseline`.
    /// - Throws: `KernelError` when a shape or parameter is invalid.
    public init(
        inputShape: Shape4, filterH: Int, filterW: Int, strideH: Int, strideW: Int, padding: Padding,
        activation: FusedActivation = .none, variant: KernelVariant = .automatic,
        instructionSet: KernelInstructionSet? = nil
    ) throws(KernelError) {
        geometry = try .pooling(
            inputShape: inputShape, filterH: filterH, filterW: filterW, strideH: strideH, strideW: strideW,
            padding: padding)
        self.inputShape = inputShape
        self.outputShape = Shape4(n: inputShape.n, h: geometry.outH, w: geometry.outW, c: inputShape.c)
        self.activation = activation
        self.variant = variant == .reference ? .reference : .simd
        self.instructionSet = KernelInstructionSet.resolve(instructionSet)
    }

    /// Runs the pooling on all batches.
    ///
    /// - Parameters:
    ///   - input: `inputShape.count` floats, NHWC.
    ///   - output: `outputShape.count` floats, NHWC. Must not overlap `input`.
    public func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        run(input: input, output: output, pieces: 0..<pieceCount)
    }

    /// Independent pieces of the output: its rows (`n·outH`) for the SIMD implementation, 1 for the
    /// reference (computed whole).
    public var pieceCount: Int { variant == .simd ? outputShape.n * outputShape.h : 1 }

    /// Computes output rows `pieces` (a subrange of `0..<pieceCount`); see `Pieces`.
    public func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        switch variant {
        case .simd: runSIMD(input: input, output: output, pieces: pieces)
        default: if pieces.contains(0) { runReference(input: input, output: output) }
        }
    }
}

extension MaxPool2D: RowStepKernel, VariantKernel {
    /// Rows of a batch of one through the SIMD kernel (its pieces are output rows).
    package var rowLocality: RowLocality? {
        guard outputShape.n == 1, variant == .simd, let window = RowWindow(geometry) else { return nil }
        return RowLocality(windows: [window], output: outputShape, computesRowRanges: true)
    }
}
