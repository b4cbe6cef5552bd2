// The arguments of the convolution microkernels, one struct per entry point family, with labelled fields:
// what the kernel reads, what it writes, and which part of the output it computes. Pointers are borrowed for
// the call only; the kernels never keep them.

/// A depthwise convolution of one image (NHWC). Weights `packed` per group of 8 output channels as
/// `[bias ×8][kh·kw taps ×8]` (see `DepthwiseConv2D`'s packers). The register-blocked kernel
/// (`ConvolutionKernelTable.depthwise`) needs depth multiplier 1 and dilation 1; the general one
/// (`depthwiseGeneral`) takes any.
package struct DepthwiseArguments {
    package var input: UnsafePointer<Float>
    package var inputExtent: ImageExtent
    package var output: UnsafeMutablePointer<Float>
    package var outputExtent: ImageExtent
    package var window: FilterWindow
    package var packed: UnsafePointer<Float>
    package var bounds: OutputBounds
    /// The output rows to compute, a subrange of `0..<outputExtent.height` (clipped to it).
    package var outputRows: Range<Int>
    /// Output channels per input channel (`outputExtent.channels / inputExtent.channels`).
    package var depthMultiplier: Int
    /// TFLite's HARD_SWISH after the clamp (the blocked kernel only).
    package var hardSwish: Bool

    package init(
        input: UnsafePointer<Float>, inputExtent: ImageExtent, output: UnsafeMutablePointer<Float>,
        outputExtent: ImageExtent, window: FilterWindow, packed: UnsafePointer<Float>, bounds: OutputBounds,
        outputRows: Range<Int>, depthMultiplier: Int = 1, hardSwish: Bool = false
    ) {
        self.input = input
        self.inputExtent = inputExtent
        self.output = output
        self.outputExtent = outputExtent
        self.window = window
        self.packed = packed
        self.bounds = bounds
        self.outputRows = outputRows
        self.depthMultiplier = depthMultiplier
        self.hardSwish = hardSwish
    }
}

/// A full convolution of one image (NHWC). For the implicit GEMM (`ConvolutionKernelTable.convolution`,
/// dilation 1) the weights are packed in column panels (`Microkernels.packedGEMMCount`); for the direct
/// kernel (`convolutionDirect`, any dilation, clamp only) per 8-output-channel tile as
/// `[bias ×8][kh][kw][inC][×8]`.
package struct ConvolutionArguments {
    package var input: UnsafePointer<Float>
    package var inputExtent: ImageExtent
    package var output: UnsafeMutablePointer<Float>
    package var outputExtent: ImageExtent
    package var window: FilterWindow
    package var packed: UnsafePointer<Float>
    package var bounds: OutputBounds
    /// The output rows to compute, a subrange of `0..<outputExtent.height` (clipped to it).
    package var outputRows: Range<Int>
    /// PReLU slopes per output channel after the clamp (readable 16 past the last channel), or nil. GEMM only.
    package var alpha: UnsafePointer<Float>?
    /// The column panels to compute (indices in `Microkernels.nextPanel` order). GEMM only.
    package var panels: Range<Int>
    /// TFLite's HARD_SWISH applied last. GEMM only.
    package var hardSwish: Bool

    package init(
        input: UnsafePointer<Float>, inputExtent: ImageExtent, output: UnsafeMutablePointer<Float>,
        outputExtent: ImageExtent, window: FilterWindow, packed: UnsafePointer<Float>, bounds: OutputBounds,
        outputRows: Range<Int>, alpha: UnsafePointer<Float>? = nil, panels: Range<Int> = 0..<Int.max,
        hardSwish: Bool = false
    ) {
        self.input = input
        self.inputExtent = inputExtent
        self.output = output
        self.outputExtent = outputExtent
        self.window = window
        self.packed = packed
        self.bounds = bounds
        self.outputRows = outputRows
        self.alpha = alpha
        self.panels = panels
        self.hardSwish = hardSwish
    }
}

/// A 1x1 convolution as a GEMM: `output[rows, columns] = input[rows, depth] · W + bias`, row-major.
package struct PointwiseArguments {
    package var rows: Int
    package var depth: Int
    package var columns: Int
    package var input: UnsafePointer<Float>
    package var packed: UnsafePointer<Float>
    package var output: UnsafeMutablePointer<Float>
    package var bounds: OutputBounds
    /// PReLU slopes per output channel after the clamp, or nil.
    package var alpha: UnsafePointer<Float>?
    /// A shortcut added before the clamp (`columns ≥ 8`; not overlapping the output), or nil. Not for the
    /// narrow kernel.
    package var residual: UnsafePointer<Float>?
    /// The residual's channels per row (1...columns; 0 means columns); zeros are added beyond them.
    package var residualChannels: Int
    /// The column panels to compute. Not for the narrow kernel.
    package var panels: Range<Int>
    /// TFLite's HARD_SWISH applied last. Not for the narrow kernel.
    package var hardSwish: Bool

    package init(
        rows: Int, depth: Int, columns: Int, input: UnsafePointer<Float>, packed: UnsafePointer<Float>,
        output: UnsafeMutablePointer<Float>, bounds: OutputBounds, alpha: UnsafePointer<Float>? = nil,
        residual: UnsafePointer<Float>? = nil, residualChannels: Int = 0, panels: Range<Int> = 0..<Int.max,
        hardSwish: Bool = false
    ) {
        self.rows = rows
        self.depth = depth
        self.columns = columns
        self.input = input
        self.packed = packed
        self.output = output
        self.bounds = bounds
        self.alpha = alpha
        self.residual = residual
        self.residualChannels = residualChannels
        self.panels = panels
        self.hardSwish = hardSwish
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
    package var kernelHeight: Int
    package var kernelWidth: Int
    package var filter: UnsafePointer<Float>
    package var bias: UnsafePointer<Float>
    /// The output rows to compute, a subrange of `0..<inH·kh`.
    package var outputRows: Range<Int>

    package init(
        input: UnsafePointer<Float>, inputExtent: ImageExtent, output: UnsafeMutablePointer<Float>,
        outputChannels: Int, kernelHeight: Int, kernelWidth: Int, filter: UnsafePointer<Float>,
        bias: UnsafePointer<Float>, outputRows: Range<Int>
    ) {
        self.input = input
        self.inputExtent = inputExtent
        self.output = output
        self.outputChannels = outputChannels
        self.kernelHeight = kernelHeight
        self.kernelWidth = kernelWidth
        self.filter = filter
        self.bias = bias
        self.outputRows = outputRows
    }
}
