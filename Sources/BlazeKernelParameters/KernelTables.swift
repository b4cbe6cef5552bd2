// The dispatch tables: every entry point of one build of the microkernels, grouped by operator family, each a
// labelled field taking a labelled argument struct (so that no two arguments can be swapped unnoticed).
// `BlazeKernels.Microkernels.table` and `BlazeKernelsFMA.Microkernels.table` are values of `MicrokernelTable`;
// `KernelInstructionSet.microkernels` hands out either one, and kernels make one call through it per run or
// piece (never per element). Classes, not structs: a struct table returned by that switch was copied whole
// at every call (a retain and a release per entry, measurable on the small models); a class costs one.

/// A unary map over `count` floats, `input` to `output` (which may be the same buffer).
package typealias UnaryMicrokernel = @Sendable (
    _ count: Int, _ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>
) -> Void

/// `output[i] = clamp(lhs[i] ∘ rhs[i])` for `i < count` (the output may be either operand).
package typealias BinaryMicrokernel = @Sendable (
    _ count: Int, _ lhs: UnsafePointer<Float>, _ rhs: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>,
    _ bounds: OutputBounds
) -> Void

/// Convolutions: depthwise, full, pointwise (1x1) and the stride-equals-kernel transposed convolution.
package final class ConvolutionKernelTable: Sendable {
    /// Depth multiplier 1, dilation 1: register-blocked, 3x3 rows specialized.
    package let depthwise: @Sendable (DepthwiseArguments) -> Void
    /// Any depth multiplier and dilation: one output pixel and 8 channels at a time.
    package let depthwiseGeneral: @Sendable (DepthwiseArguments) -> Void
    /// Dilation 1: the implicit GEMM.
    package let convolution: @Sendable (ConvolutionArguments) -> Void
    /// Any dilation: one output pixel and 8 channels at a time, out-of-range taps skipped; clamp only.
    package let convolutionDirect: @Sendable (ConvolutionArguments) -> Void
    /// 1x1: the column-panel GEMM.
    package let pointwise: @Sendable (PointwiseArguments) -> Void
    /// 1x1 with fewer than 8 output channels: dot products along the depth.
    package let pointwiseNarrow: @Sendable (PointwiseArguments) -> Void
    package let transposeConvUpsample: @Sendable (TransposeConvUpsampleArguments) -> Void

    package init(
        depthwise: @escaping @Sendable (DepthwiseArguments) -> Void,
        depthwiseGeneral: @escaping @Sendable (DepthwiseArguments) -> Void,
        convolution: @escaping @Sendable (ConvolutionArguments) -> Void,
        convolutionDirect: @escaping @Sendable (ConvolutionArguments) -> Void,
        pointwise: @escaping @Sendable (PointwiseArguments) -> Void,
        pointwiseNarrow: @escaping @Sendable (PointwiseArguments) -> Void,
        transposeConvUpsample: @escaping @Sendable (TransposeConvUpsampleArguments) -> Void
    ) {
        (self.depthwise, self.depthwiseGeneral, self.convolution, self.convolutionDirect) =
            (depthwise, depthwiseGeneral, convolution, convolutionDirect)
        (self.pointwise, self.pointwiseNarrow, self.transposeConvUpsample) =
            (pointwise, pointwiseNarrow, transposeConvUpsample)
    }
}

/// Elementwise operations: activations, additions, products, PReLU, the fused residual add.
package final class ElementwiseKernelTable: Sendable {
    package let clamp: @Sendable (
        _ count: Int, _ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>, _ bounds: OutputBounds
    ) -> Void
    package let logistic: UnaryMicrokernel
    /// `x · logistic(x)` (SiLU, swish): a LOGISTIC and the MUL of its input by it, in one pass.
    package let silu: UnaryMicrokernel
    /// GELU, exact (`erf`) and with the tanh approximation.
    package let gelu: UnaryMicrokernel
    package let geluTanh: UnaryMicrokernel
    package let hardSwish: UnaryMicrokernel
    package let add: BinaryMicrokernel
    package let addBroadcast: @Sendable (BroadcastArguments) -> Void
    package let multiply: BinaryMicrokernel
    package let multiplyBroadcast: @Sendable (BroadcastArguments) -> Void
    package let addPReLU: @Sendable (AddPReLUArguments) -> Void
    package let prelu: @Sendable (PReLUArguments) -> Void
    package let residualAdd: @Sendable (ResidualAddArguments) -> Void

    package init(
        clamp: @escaping @Sendable (Int, UnsafePointer<Float>, UnsafeMutablePointer<Float>, OutputBounds) -> Void,
        logistic: @escaping UnaryMicrokernel, silu: @escaping UnaryMicrokernel, gelu: @escaping UnaryMicrokernel,
        geluTanh: @escaping UnaryMicrokernel, hardSwish: @escaping UnaryMicrokernel,
        add: @escaping BinaryMicrokernel, addBroadcast: @escaping @Sendable (BroadcastArguments) -> Void,
        multiply: @escaping BinaryMicrokernel, multiplyBroadcast: @escaping @Sendable (BroadcastArguments) -> Void,
        addPReLU: @escaping @Sendable (AddPReLUArguments) -> Void,
        prelu: @escaping @Sendable (PReLUArguments) -> Void,
        residualAdd: @escaping @Sendable (ResidualAddArguments) -> Void
    ) {
        (self.clamp, self.logistic, self.silu, self.hardSwish, self.add, self.addBroadcast) =
            (clamp, logistic, silu, hardSwish, add, addBroadcast)
        (self.gelu, self.geluTanh) = (gelu, geluTanh)
        (self.multiply, self.multiplyBroadcast, self.addPReLU, self.prelu, self.residualAdd) =
            (multiply, multiplyBroadcast, addPReLU, prelu, residualAdd)
    }
}

/// Windows and layout: pooling, means, padding, bilinear resizing.
package final class WindowKernelTable: Sendable {
    /// The maximum of each window's in-bounds taps (from `-greatestFiniteMagnitude`), then the clamp.
    package let maxPool: @Sendable (WindowOperands) -> Void
    /// The mean of each window's in-bounds taps, then the clamp.
    package let averagePool: @Sendable (WindowOperands) -> Void
    /// `output[c] = (Σ input[i·s0 + j·s1 + k·s2 + c] over i < n0, j < n1, k < n2) / divisor` for
    /// `c < channels`, with `reduced = (n0, s0, n1, s1, n2, s2)`.
    package let mean: @Sendable (
        _ input: UnsafePointer<Float>, _ channels: Int, _ reduced: (Int, Int, Int, Int, Int, Int), _ divisor: Float,
        _ output: UnsafeMutablePointer<Float>
    ) -> Void
    package let pad: @Sendable (PadArguments) -> Void
    package let resizeBilinear: @Sendable (ResizeBilinearArguments) -> Void

    package init(
        maxPool: @escaping @Sendable (WindowOperands) -> Void,
        averagePool: @escaping @Sendable (WindowOperands) -> Void,
        mean: @escaping @Sendable (
            UnsafePointer<Float>, Int, (Int, Int, Int, Int, Int, Int), Float, UnsafeMutablePointer<Float>
        ) -> Void,
        pad: @escaping @Sendable (PadArguments) -> Void,
        resizeBilinear: @escaping @Sendable (ResizeBilinearArguments) -> Void
    ) {
        (self.maxPool, self.averagePool, self.mean, self.pad, self.resizeBilinear) =
            (maxPool, averagePool, mean, pad, resizeBilinear)
    }
}

/// The general kernels' hot loops: SOFTMAX rows and BATCH_MATMUL blocks.
package final class GeneralKernelTable: Sendable {
    package let softmax: @Sendable (SoftmaxArguments) -> Void
    package let matmul: @Sendable (MatMulArguments) -> Void

    package init(softmax: @escaping @Sendable (SoftmaxArguments) -> Void,
                 matmul: @escaping @Sendable (MatMulArguments) -> Void) {
        (self.softmax, self.matmul) = (softmax, matmul)
    }
}

/// Every entry point of one build of the microkernels, by operator family.
package final class MicrokernelTable: Sendable {
    package let convolution: ConvolutionKernelTable
    package let elementwise: ElementwiseKernelTable
    package let window: WindowKernelTable
    package let general: GeneralKernelTable

    package init(
        convolution: ConvolutionKernelTable, elementwise: ElementwiseKernelTable, window: WindowKernelTable,
        general: GeneralKernelTable
    ) {
        (self.convolution, self.elementwise, self.window, self.general) = (convolution, elementwise, window, general)
    }
}
