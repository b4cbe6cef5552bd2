// The arguments of the convolution microkernels, with labelled fields: the window operands (see
// `WindowOperands`), the packed weights, and what the kernel fuses into its epilogue.

/// A depthwise convolution of one image. Weights `packed` per group of 8 output channels as
/// `[bias ×8][kh·kw taps ×8]` (see `DepthwiseConv2D`'s packers). The register-blocked kernel
/// (`ConvolutionKernelTable.depthwise`) needs depth multiplier 1 and dilation 1; the general one
/// (`depthwiseGeneral`) takes any, and always clamps.
package struct DepthwiseArguments {
    package var operands: WindowOperands
    package var packed: UnsafePointer<Float>
    /// Output channels per input channel (`outputExtent.channels / inputExtent.channels`).
    package var depthMultiplier: Int
    /// TFLite's HARD_SWISH after the clamp (the blocked kernel only).
    package var hardSwish: Bool

    package init(
        _ operands: WindowOperands, packed: UnsafePointer<Float>, depthMultiplier: Int = 1, hardSwish: Bool = false
    ) {
        (self.operands, self.packed) = (operands, packed)
        (self.depthMultiplier, self.hardSwish) = (depthMultiplier, hardSwish)
    }
}

/// A full convolution of one image. For the implicit GEMM (`ConvolutionKernelTable.convolution`, dilation 1)
/// the weights are packed in column panels (`Microkernels.packedGEMMCount`); for the direct kernel
/// (`convolutionDirect`, any dilation, clamp only) per 8-output-channel tile as `[bias ×8][kh][kw][inC][×8]`.
package struct ConvolutionArguments {
    package var operands: WindowOperands
    package var packed: UnsafePointer<Float>
    /// PReLU slopes per output channel after the clamp (readable 16 past the last channel), or nil. GEMM only.
    package var alpha: UnsafePointer<Float>?
    /// The column panels to compute (indices in `Microkernels.nextPanel` order). GEMM only.
    package var panels: Range<Int>
    /// TFLite's HARD_SWISH applied last. GEMM only.
    package var hardSwish: Bool
    /// SiLU (`x · logistic(x)`) applied last. GEMM only.
    package var silu: Bool

    package init(
        _ operands: WindowOperands, packed: UnsafePointer<Float>, alpha: UnsafePointer<Float>? = nil,
        panels: Range<Int> = 0..<Int.max, hardSwish: Bool = false, silu: Bool = false
    ) {
        (self.operands, self.packed) = (operands, packed)
        (self.alpha, self.panels, self.hardSwish, self.silu) = (alpha, panels, hardSwish, silu)
    }
}

/// A 1x1 convolution as a GEMM: `output[rows, columns] = input[rows, depth] · W + bias`, row-major, then the
/// clamp, the PReLU slopes and HARD_SWISH when given.
package struct PointwiseArguments {
    /// The GEMM's sizes: rows (pixels), depth (input channels), columns (output channels).
    package var rows, depth, columns: Int
    package var input: UnsafePointer<Float>
    /// The weights in column panels (`Microkernels.packedGEMMCount`, or `packedNarrowCount` for the narrow
    /// kernel).
    package var packed: UnsafePointer<Float>
    package var output: UnsafeMutablePointer<Float>
    package var bounds: OutputBounds
    /// PReLU slopes per output channel after the clamp, or nil.
    package var alpha: UnsafePointer<Float>?
    /// A shortcut added before the clamp (`columns ≥ 8`; not overlapping the output), or nil. Not for the
    /// narrow kernel, nor are `residualChannels`, `panels` and `hardSwish`.
    package var residual: UnsafePointer<Float>?
    /// The residual's channels per row (1...columns; 0 means columns); zeros are added beyond them.
    package var residualChannels: Int
    /// The column panels to compute (indices in `Microkernels.nextPanel` order).
    package var panels: Range<Int>
    package var hardSwish: Bool
    /// SiLU (`x · logistic(x)`) applied last.
    package var silu: Bool

    package init(
        rows: Int, depth: Int, columns: Int, input: UnsafePointer<Float>, packed: UnsafePointer<Float>,
        output: UnsafeMutablePointer<Float>, bounds: OutputBounds, alpha: UnsafePointer<Float>? = nil,
        residual: UnsafePointer<Float>? = nil, residualChannels: Int = 0, panels: Range<Int> = 0..<Int.max,
        hardSwish: Bool = false, silu: Bool = false
    ) {
        self.silu = silu
        (self.rows, self.depth, self.columns, self.input, self.packed, self.output, self.bounds) =
            (rows, depth, columns, input, packed, output, bounds)
        (self.alpha, self.residual, self.residualChannels, self.panels, self.hardSwish) =
            (alpha, residual, residualChannels, panels, hardSwish)
    }
}

/// A transposed convolution whose stride equals its kernel and with no padding (each input pixel writes its
/// own `kh x kw` block of output pixels), of one image: `filter` OHWI (`[outC][kh][kw][inC]`), `bias` per
/// output channel; the output is `inH·kh` rows of `inW·kw` pixels.
package struct TransposeConvUpsampleArguments {
    package var input: UnsafePointer<Float>
    package var inputExtent: ImageExtent
    package var output: UnsafeMutablePointer<Float>
    package var outputChannels: Int
    package var kernelHeight, kernelWidth: Int
    package var filter, bias: UnsafePointer<Float>
    /// The output rows to compute, a subrange of `0..<inH·kh`.
    package var outputRows: Range<Int>

    package init(
        input: UnsafePointer<Float>, inputExtent: ImageExtent, output: UnsafeMutablePointer<Float>,
        outputChannels: Int, kernelHeight: Int, kernelWidth: Int, filter: UnsafePointer<Float>,
        bias: UnsafePointer<Float>, outputRows: Range<Int>
    ) {
        (self.input, self.inputExtent, self.output, self.outputChannels) = (input, inputExtent, output, outputChannels)
        (self.kernelHeight, self.kernelWidth, self.filter, self.bias, self.outputRows) =
            (kernelHeight, kernelWidth, filter, bias, outputRows)
    }
}
