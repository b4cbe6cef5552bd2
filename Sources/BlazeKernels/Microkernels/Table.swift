// The dispatch table: every entry point of this build of the microkernels as one value. Its type is a tuple
// of function types made of standard-library types only, so `BlazeKernels.Microkernels.Table` and
// `BlazeKernelsFMA.Microkernels.Table` are the same type, and `KernelInstructionSet.microkernels` can hand
// out either build's table to the kernels, which then make one call through it per run (never per element).

extension Microkernels {
    /// The entry points of one build; each field is the function of the same name (see its documentation),
    /// taking every argument in order, defaults included.
    package typealias Table = (
        clampBuffer: @Sendable (
            _ count: Int, _ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>,
            _ lower: Float, _ upper: Float
        ) -> Void,
        logistic: @Sendable (_ count: Int, _ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>) -> Void,
        hardSwish: @Sendable (_ count: Int, _ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>) -> Void,
        mean: @Sendable (
            _ input: UnsafePointer<Float>, _ channels: Int, _ reduced: (Int, Int, Int, Int, Int, Int), _ divisor: Float,
            _ output: UnsafeMutablePointer<Float>
        ) -> Void,
        add: @Sendable (
            _ count: Int, _ lhs: UnsafePointer<Float>, _ rhs: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>,
            _ lower: Float, _ upper: Float
        ) -> Void,
        addBroadcast: @Sendable (
            _ n: Int, _ h: Int, _ w: Int, _ c: Int,
            _ lhs: UnsafePointer<Float>, _ lhsStrides: (n: Int, h: Int, w: Int, c: Int),
            _ rhs: UnsafePointer<Float>, _ rhsStrides: (n: Int, h: Int, w: Int, c: Int),
            _ output: UnsafeMutablePointer<Float>, _ lower: Float, _ upper: Float
        ) -> Void,
        multiply: @Sendable (
            _ count: Int, _ lhs: UnsafePointer<Float>, _ rhs: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>,
            _ lower: Float, _ upper: Float
        ) -> Void,
        multiplyBroadcast: @Sendable (
            _ n: Int, _ h: Int, _ w: Int, _ c: Int,
            _ lhs: UnsafePointer<Float>, _ lhsStrides: (n: Int, h: Int, w: Int, c: Int),
            _ rhs: UnsafePointer<Float>, _ rhsStrides: (n: Int, h: Int, w: Int, c: Int),
            _ output: UnsafeMutablePointer<Float>, _ lower: Float, _ upper: Float, _ rows: Range<Int>
        ) -> Void,
        addPReLU: @Sendable (
            _ pixels: Int, _ channels: Int, _ lhs: UnsafePointer<Float>, _ rhs: UnsafePointer<Float>,
            _ alpha: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>, _ lower: Float, _ upper: Float
        ) -> Void,
        prelu: @Sendable (
            _ n: Int, _ h: Int, _ w: Int, _ c: Int,
            _ input: UnsafePointer<Float>, _ inputStrides: (n: Int, h: Int, w: Int, c: Int),
            _ alpha: UnsafePointer<Float>, _ alphaStrides: (n: Int, h: Int, w: Int, c: Int),
            _ output: UnsafeMutablePointer<Float>
        ) -> Void,
        maxPool: @Sendable (
            _ input: UnsafePointer<Float>, _ inputHeight: Int, _ inputWidth: Int, _ channels: Int,
            _ output: UnsafeMutablePointer<Float>, _ outputHeight: Int, _ outputWidth: Int,
            _ kernelHeight: Int, _ kernelWidth: Int, _ strideHeight: Int, _ strideWidth: Int,
            _ padTop: Int, _ padLeft: Int, _ lower: Float, _ upper: Float, _ outputRows: Range<Int>
        ) -> Void,
        pad: @Sendable (
            _ input: UnsafePointer<Float>, _ inputShape: (n: Int, h: Int, w: Int, c: Int),
            _ output: UnsafeMutablePointer<Float>, _ outputShape: (n: Int, h: Int, w: Int, c: Int),
            _ before: (n: Int, h: Int, w: Int, c: Int), _ value: Float, _ outputRows: Range<Int>
        ) -> Void,
        residualAdd: @Sendable (
            _ shortcut: UnsafePointer<Float>, _ shortcutWidth: Int, _ shortcutChannels: Int, _ pooled: Bool,
            _ poolLower: Float, _ poolUpper: Float, _ shortcutFirst: Bool,
            _ main: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>, _ width: Int, _ channels: Int,
            _ rows: Range<Int>, _ lower: Float, _ upper: Float, _ alpha: UnsafePointer<Float>?
        ) -> Void,
        depthwise: @Sendable (
            _ input: UnsafePointer<Float>, _ inputHeight: Int, _ inputWidth: Int, _ channels: Int,
            _ output: UnsafeMutablePointer<Float>, _ outputHeight: Int, _ outputWidth: Int,
            _ kernelHeight: Int, _ kernelWidth: Int, _ strideHeight: Int, _ strideWidth: Int,
            _ padTop: Int, _ padLeft: Int, _ packed: UnsafePointer<Float>, _ lower: Float, _ upper: Float,
            _ outputRows: Range<Int>, _ hardSwish: Bool
        ) -> Void,
        pointwise: @Sendable (
            _ rows: Int, _ depth: Int, _ columns: Int, _ input: UnsafePointer<Float>, _ packed: UnsafePointer<Float>,
            _ output: UnsafeMutablePointer<Float>, _ lower: Float, _ upper: Float, _ alpha: UnsafePointer<Float>?,
            _ residual: UnsafePointer<Float>?, _ residualChannels: Int, _ panels: Range<Int>, _ hardSwish: Bool
        ) -> Void,
        pointwiseNarrow: @Sendable (
            _ rows: Int, _ depth: Int, _ columns: Int, _ input: UnsafePointer<Float>, _ packed: UnsafePointer<Float>,
            _ output: UnsafeMutablePointer<Float>, _ lower: Float, _ upper: Float, _ alpha: UnsafePointer<Float>?
        ) -> Void,
        convolution: @Sendable (
            _ input: UnsafePointer<Float>, _ inputHeight: Int, _ inputWidth: Int, _ inputChannels: Int,
            _ output: UnsafeMutablePointer<Float>, _ outputHeight: Int, _ outputWidth: Int, _ outputChannels: Int,
            _ kernelHeight: Int, _ kernelWidth: Int, _ strideHeight: Int, _ strideWidth: Int,
            _ padTop: Int, _ padLeft: Int, _ packed: UnsafePointer<Float>, _ lower: Float, _ upper: Float,
            _ outputRows: Range<Int>, _ alpha: UnsafePointer<Float>?, _ panels: Range<Int>, _ hardSwish: Bool
        ) -> Void,
        transposeConvUpsample: @Sendable (
            _ input: UnsafePointer<Float>, _ inputHeight: Int, _ inputWidth: Int, _ inputChannels: Int,
            _ output: UnsafeMutablePointer<Float>, _ outputChannels: Int, _ kernelHeight: Int, _ kernelWidth: Int,
            _ filter: UnsafePointer<Float>, _ bias: UnsafePointer<Float>, _ outputRows: Range<Int>
        ) -> Void,
        resizeBilinear: @Sendable (
            _ input: UnsafePointer<Float>, _ inputWidth: Int, _ channels: Int, _ output: UnsafeMutablePointer<Float>,
            _ outputHeight: Int, _ outputWidth: Int, _ table: UnsafePointer<Int>, _ lerp: UnsafePointer<Float>,
            _ outputRows: Range<Int>
        ) -> Void
    )

    /// This build's entry points.
    package static let table: Table = (
        clampBuffer: clampBuffer,
        logistic: logistic,
        hardSwish: hardSwish,
        mean: mean,
        add: add,
        addBroadcast: addBroadcast,
        multiply: multiply,
        multiplyBroadcast: multiplyBroadcast,
        addPReLU: addPReLU,
        prelu: prelu,
        maxPool: maxPool,
        pad: pad,
        residualAdd: residualAdd,
        depthwise: depthwise,
        pointwise: pointwise,
        pointwiseNarrow: pointwiseNarrow,
        convolution: convolution,
        transposeConvUpsample: transposeConvUpsample,
        resizeBilinear: resizeBilinear
    )
}
