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
public struct PReLU: Sendable {
    public let inputShape: Shape4
    public let alphaShape: Shape4
    public var outputShape: Shape4 { plan.outputShape }
    /// The implementation chosen at creation (never `.automatic`).
    public let variant: KernelVariant
    /// The instruction set the `.simd` implementation runs on.
    public let instructionSet: KernelInstructionSet

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
    public init(inputShape: Shape4, alphaShape: Shape4, alpha: [Float], variant: KernelVariant = .automatic,
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
    public func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        switch variant {
        case .simd: runSIMD(input: input, output: output)
        default: runReference(input: input, output: output)
        }
    }
}
