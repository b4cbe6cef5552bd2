/// TFLite's `DEPTH_TO_SPACE` (TensorFlow's DCR order): with block size `b` and `C = b²·C'` input channels,
/// `output(n, y·b + by, x·b + bx, c) = input(n, y, x, (by·b + bx)·C' + c)`.
///
/// Implementations: `.reference` (one output element at a time) and `.simd` (for each input pixel and
/// `by`, one contiguous copy of `b·C'` floats; also `.automatic` and `.blas`).
///
/// Thread safety: immutable; `run` may be called concurrently with non-overlapping outputs.
package struct DepthToSpace: Sendable {
    package let inputShape: Shape4
    /// `[n, h·b, w·b, C / b²]`.
    package let outputShape: Shape4
    package let blockSize: Int
    /// The implementation chosen at creation (never `.automatic`).
    package let variant: KernelVariant

    /// - Parameters:
    ///   - inputShape: NHWC input shape; `c` divisible by `blockSize²`.
    ///   - blockSize: `b`, positive.
    ///   - variant: The implementation.
    /// - Throws: `KernelError.invalidParameter` for a block size below 1, `.invalidShape` when the channels
    ///   do not divide.
    package init(inputShape: Shape4, blockSize: Int, variant: KernelVariant = .automatic) throws(KernelError) {
        try inputShape.validate("input")
        guard blockSize >= 1 else { throw .invalidParameter("block size \(blockSize) must be positive") }
        guard inputShape.c % (blockSize * blockSize) == 0 else {
            throw .invalidShape("\(inputShape.c) channels are not divisible by block size² = \(blockSize * blockSize)")
        }
        self.inputShape = inputShape
        self.blockSize = blockSize
        self.outputShape = Shape4(
            n: inputShape.n, h: inputShape.h * blockSize, w: inputShape.w * blockSize,
            c: inputShape.c / (blockSize * blockSize))
        self.variant = variant == .reference ? .reference : .simd
    }

    /// Rearranges depth into space.
    ///
    /// - Parameters:
    ///   - input: `inputShape.count` floats.
    ///   - output: `outputShape.count` floats. Must not overlap `input`.
    package func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        switch variant {
        case .simd: runSIMD(input: input, output: output)
        default: runReference(input: input, output: output)
        }
    }
}

extension DepthToSpace: UnaryStepKernel, VariantKernel {}
