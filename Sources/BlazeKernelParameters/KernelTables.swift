// The dispatch tables: every entry point of one build of the microkernels, grouped by operator family, each a
// labelled field taking a labelled argument struct (so that no two arguments can be swapped unnoticed).
// `BlazeKernels.Microkernels.table` and `BlazeKernelsFMA.Microkernels.table` are values of `MicrokernelTable`;
// `KernelInstructionSet.microkernels` hands out either one, and kernels make one call through it per run or
// piece (never per element).

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
package struct ConvolutionKernelTable: Sendable {
    /// Depth multiplier 1, dilation 1: register-blocked, 3x3 rows specialized.
    package var depthwise: @Sendable (DepthwiseArguments) -> Void
    /// Any depth multiplier and dilation: one output pixel and 8 channels at a time.
    package var depthwiseGeneral: @Sendable (DepthwiseArguments) -> Void
    /// Dilation 1: the implicit GEMM.
    package var convolution: @Sendable (ConvolutionArguments) -> Void
    /// Any dilation: one output pixel and 8 channels at a time, out-of-range taps skipped; clamp only.
    package var convolutionDirect: @Sendable (ConvolutionArguments) -> Void
    /// 1x1: the column-panel GEMM.
    package var pointwise: @Sendable (PointwiseArguments) -> Void
    /// 1x1 with fewer than 8 output channels: dot products along the depth.
    package var pointwiseNarrow: @Sendable (PointwiseArguments) -> Void
    package var transposeConvUpsample: @Sendable (TransposeConvUpsampleArguments) -> Void

    package init(
        depthwise: @escaping @Sendable (DepthwiseArguments) -> Void,
        depthwiseGeneral: @escaping @Sendable (DepthwiseArguments) -> Void,
        convolution: @escaping @Sendable (ConvolutionArguments) -> Void,
        convolutionDirect: @escaping @Sendable (ConvolutionArguments) -> Void,
        pointwise: @escaping @Sendable (PointwiseArguments) -> Void,
        pointwiseNarrow: @escaping @Sendable (PointwiseArguments) -> Void,
        transposeConvUpsample: @escaping @Sendable (TransposeConvUpsampleArguments) -> Void
    ) {
        self.depthwise = depthwise
        self.depthwiseGeneral = depthwiseGeneral
        self.convolution = convolution
        self.convolutionDirect = convolutionDirect
        self.pointwise = pointwise
        self.pointwiseNarrow = pointwiseNarrow
        self.transposeConvUpsample = transposeConvUpsample
    }
}

/// Elementwise operations: activations, additions, products, PReLU, the fused residual add.
package struct ElementwiseKernelTable: Sendable {
    package var clamp: @Sendable (
        _ count: Int, _ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>, _ bounds: OutputBounds
    ) -> Void
    package var logistic: UnaryMicrokernel
    package var hardSwish: UnaryMicrokernel
    package var add: BinaryMicrokernel
    package var addBroadcast: @Sendable (BroadcastArguments) -> Void
    package var multiply: BinaryMicrokernel
    package var multiplyBroadcast: @Sendable (BroadcastArguments) -> Void
    package var addPReLU: @Sendable (AddPReLUArguments) -> Void
    package var prelu: @Sendable (PReLUArguments) -> Void
    package var residualAdd: @Sendable (ResidualAddArguments) -> Void

    package init(
        clamp: @escaping @Sendable (Int, UnsafePointer<Float>, UnsafeMutablePointer<Float>, OutputBounds) -> Void,
        logistic: @escaping UnaryMicrokernel, hardSwish: @escaping UnaryMicrokernel,
        add: @escaping BinaryMicrokernel, addBroadcast: @escaping @Sendable (BroadcastArguments) -> Void,
        multiply: @escaping BinaryMicrokernel, multiplyBroadcast: @escaping @Sendable (BroadcastArguments) -> Void,
        addPReLU: @escaping @Sendable (AddPReLUArguments) -> Void,
        prelu: @escaping @Sendable (PReLUArguments) -> Void,
        residualAdd: @escaping @Sendable (ResidualAddArguments) -> Void
    ) {
        self.clamp = clamp
        self.logistic = logistic
        self.hardSwish = hardSwish
        self.add = add
        self.addBroadcast = addBroadcast
        self.multiply = multiply
        self.multiplyBroadcast = multiplyBroadcast
        self.addPReLU = addPReLU
        self.prelu = prelu
        self.residualAdd = residualAdd
    }
}

/// Windows and layout: pooling, means, padding, bilinear resizing.
package struct WindowKernelTable: Sendable {
    package var maxPool: @Sendable (PoolArguments) -> Void
    package var averagePool: @Sendable (PoolArguments) -> Void
    /// `output[c] = (Σ input[i·s0 + j·s1 + k·s2 + c] over i < n0, j < n1, k < n2) / divisor` for
    /// `c < channels`, with `reduced = (n0, s0, n1, s1, n2, s2)`.
    package var mean: @Sendable (
        _ input: UnsafePointer<Float>, _ channels: Int, _ reduced: (Int, Int, Int, Int, Int, Int), _ divisor: Float,
        _ output: UnsafeMutablePointer<Float>
    ) -> Void
    package var pad: @Sendable (PadArguments) -> Void
    package var resizeBilinear: @Sendable (ResizeBilinearArguments) -> Void

    package init(
        maxPool: @escaping @Sendable (PoolArguments) -> Void,
        averagePool: @escaping @Sendable (PoolArguments) -> Void,
        mean: @escaping @Sendable (
            UnsafePointer<Float>, Int, (Int, Int, Int, Int, Int, Int), Float, UnsafeMutablePointer<Float>
        ) -> Void,
        pad: @escaping @Sendable (PadArguments) -> Void,
        resizeBilinear: @escaping @Sendable (ResizeBilinearArguments) -> Void
    ) {
        self.maxPool = maxPool
        self.averagePool = averagePool
        self.mean = mean
        self.pad = pad
        self.resizeBilinear = resizeBilinear
    }
}

/// Every entry point of one build of the microkernels, by operator family.
package struct MicrokernelTable: Sendable {
    package var convolution: ConvolutionKernelTable
    package var elementwise: ElementwiseKernelTable
    package var window: WindowKernelTable

    package init(convolution: ConvolutionKernelTable, elementwise: ElementwiseKernelTable, window: WindowKernelTable) {
        self.convolution = convolution
        self.elementwise = elementwise
        self.window = window
    }
}
