/// The validated shapes and window of a 2-D pooling, with the implementation chosen: everything
/// `MaxPool2D` and `AveragePool2D` hold.
package struct PoolingConfiguration: Sendable {
    /// NHWC input shape.
    package let inputShape: Shape4
    /// `[n, outH, outW, C]`.
    package let outputShape: Shape4
    /// Output size and padding, computed as TFLite does (no dilation).
    package let geometry: WindowGeometry
    /// The fused activation, applied after the reduction.
    package let activation: FusedActivation
    /// The implementation chosen at creation (`.simd` or `.reference`, never `.automatic`).
    package let variant: KernelVariant
    /// The instruction set the `.simd` implementation runs on.
    package let instructionSet: KernelInstructionSet

    /// Validates the parameters (see `Pool2D`'s initializer of the same labels).
    init(
        inputShape: Shape4, filterH: Int, filterW: Int, strideH: Int, strideW: Int, padding: Padding,
        activation: FusedActivation, variant: KernelVariant, instructionSet: KernelInstructionSet?
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
}

/// A 2-D pooling kernel over NHWC float32 data (`MaxPool2D`, `AveragePool2D`): one reduction over the
/// in-bounds taps of each output pixel's window, per channel, then the fused activation. The conforming
/// types differ only in the reduction; the configuration, the creation and the pieces (output rows) are
/// shared here.
package protocol Pool2D: OutputRowKernel {
    /// The shapes, window and implementation, validated at creation.
    var configuration: PoolingConfiguration { get }

    /// A pooling kernel of `configuration` (taken from another pooling kernel, which validated it).
    ///
    /// - Parameter configuration: The shapes, window and implementation.
    init(configuration: PoolingConfiguration)
}

extension Pool2D {
    /// Validates the parameters and chooses the implementation.
    ///
    /// - Parameters:
    ///   - inputShape: NHWC input shape; every dimension positive.
    ///   - filterH: Window height, positive.
    ///   - filterW: Window width, positive.
    ///   - strideH: Vertical stride, positive.
    ///   - strideW: Horizontal stride, positive.
    ///   - padding: TFLite's SAME or VALID.
    ///   - activation: The fused activation.
    ///   - variant: The implementation (`.reference`, else `.simd`).
    ///   - instructionSet: The instruction set of the `.simd` kernel; nil (the default) for
    ///     `KernelInstructionSet.active`. An unsupported one falls back to `.baseline`.
    /// - Throws: `KernelError` when a shape or parameter is invalid.
    package init(
        inputShape: Shape4, filterH: Int, filterW: Int, strideH: Int, strideW: Int, padding: Padding,
        activation: FusedActivation = .none, variant: KernelVariant = .automatic,
        instructionSet: KernelInstructionSet? = nil
    ) throws(KernelError) {
        self.init(configuration: try PoolingConfiguration(
            inputShape: inputShape, filterH: filterH, filterW: filterW, strideH: strideH, strideW: strideW,
            padding: padding, activation: activation, variant: variant, instructionSet: instructionSet))
    }

    /// NHWC input shape.
    package var inputShape: Shape4 { configuration.inputShape }
    /// `[n, outH, outW, C]`.
    package var outputShape: Shape4 { configuration.outputShape }
    /// Output size and padding, computed as TFLite does.
    package var geometry: WindowGeometry { configuration.geometry }
    /// The fused activation.
    package var activation: FusedActivation { configuration.activation }
    /// The implementation chosen at creation (never `.automatic`).
    package var variant: KernelVariant { configuration.variant }
    /// The instruction set the `.simd` implementation runs on.
    package var instructionSet: KernelInstructionSet { configuration.instructionSet }

}

extension StepKernel where Self: Pool2D {
    /// Rows of a batch of one through the SIMD kernel (its pieces are output rows).
    package var rowLocality: RowLocality? { .window(geometry, output: outputShape, variant: variant) }
}
