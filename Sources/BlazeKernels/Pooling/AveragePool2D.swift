/// 2-D average pooling over NHWC float32 data with TFLite's `AVERAGE_POOL_2D` semantics: each output is
/// the sum of the in-bounds taps of its window divided by their count (padded positions are not counted),
/// then the fused activation.
///
/// Implementations: `.reference` (scalar loops) and `.simd` (vectorized over channels on `instructionSet`;
/// also `.automatic` and `.blas`).
///
/// Thread safety: immutable after creation; `run` may be called concurrently with non-overlapping outputs.
public struct AveragePool2D: Sendable {
    public let inputShape: Shape4
    /// `[n, outH, outW, C]`.
    public let outputShape: Shape4
    public let geometry: WindowGeometry
    public let activation: FusedActivation
    /// The implementation chosen at creation (never `.automatic`).
    public let variant: KernelVariant
    /// The instruction set `.simd` runs on (AVX2/FMA where the CPU has it, unless asked otherwise).
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
    ///     `KernelInstructionSet.active`, and `.baseline` when the requested one is not supported.
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
        switch variant {
        case .simd: runSIMD(input: input, output: output)
        default: runReference(input: input, output: output)
        }
    }
}

extension AveragePool2D: UnaryStepKernel, VariantKernel {}
