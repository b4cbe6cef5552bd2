/// A 2-D convolution over NHWC float32 data with TFLite's `CONV_2D` semantics.
///
/// `output(n, y, x, o) = act(bias[o] + Σ_{ky, kx, i} input(n, y·sh − padTop + ky·dh, x·sw − padLeft + kx·dw, i)
/// · filter(o, ky, kx, i))`, where taps falling outside the input contribute zero.
///
/// Implementations (see `KernelVariant`):
/// - `.reference`: direct scalar loops over the OHWI filter.
/// - `.simd`: a 1x1, stride-1 convolution uses `PointwiseConv2D`'s register-tiled GEMM. Any other
///   convolution with dilation 1 is an implicit GEMM on the same microkernels (no im2col): for an output
///   pixel and a filter row, the `kw·inC` taps are contiguous in the input row, so the tile's rows are
///   output pixels `stride·inC` apart, accumulated over the in-bounds filter rows; the filter is packed in
///   column panels `[bias ×NR][kh][kw][inC][×NR]`. A border column (window crossing the left or right edge)
///   runs down the image as its own tiles over its in-bounds taps; only corner pixels run alone (no padded
///   copy). With dilation, the filter is packed per 8-channel tile as
///   `[bias ×8][kh][kw][inC][×8]` and vectorized over output channels only
///   (`Microkernels/ConvolutionDirect.swift`). Both run on `instructionSet` (AVX2/FMA where the CPU has it).
/// - `.blas`: 1x1, stride-1 convolutions only (`PointwiseConv2D` with `cblas_sgemm`); otherwise falls back
///   to `.simd`.
/// - `.automatic`: `.simd` (which includes the pointwise GEMM).
///
/// Thread safety: immutable after creation; `run` may be called concurrently from several threads as long
/// as their outputs do not overlap.
public struct Conv2D: Sendable {
    /// The input shape; `run` reads `inputShape.count` floats.
    public package(set) var inputShape: Shape4
    /// The output shape `[n, outH, outW, outC]`; `run` writes `outputShape.count` floats.
    public let outputShape: Shape4
    /// Output size and padding, computed as TFLite does.
    public package(set) var geometry: WindowGeometry
    public let activation: FusedActivation
    /// The implementation chosen at creation (never `.automatic`).
    public let variant: KernelVariant
    /// The instruction set the `.simd` implementation runs on.
    public let instructionSet: KernelInstructionSet

    enum Implementation: Sendable {
        /// `[bias ×outC][filter OHWI]`.
        case reference(PackedBuffer<Float>)
        /// Per 8-output-channel tile: `[bias ×8][kh][kw][inC][×8]`, zero-padded (dilated convolutions).
        case simd(PackedBuffer<Float>)
        /// Implicit GEMM, column panels `[bias ×NR][kh·kw·inC][×NR]` (`PackedGEMM`).
        case gemm(PackedBuffer<Float>)
        case pointwise(PointwiseConv2D)
    }

    private(set) var implementation: Implementation
    /// PReLU slopes per output channel applied in the implicit GEMM's epilogue (zero-padded by 16), or nil.
    var slopes: PackedBuffer<Float>?
    /// Groups of column panels the implicit GEMM's pieces are split into (`Pieces.columnGroups`).
    private(set) var columnGroups = 1
    /// Column panels of the implicit GEMM's packed weights.
    private(set) var panelCount = 1
    /// Whether the implicit GEMM applies TFLite's HARD_SWISH last in its epilogue.
    private(set) var hardSwish = false
    /// Whether the implicit GEMM applies SiLU last in its epilogue.
    private(set) var silu = false

    /// Validates the parameters and packs the filter.
    ///
    /// - Parameters:
    ///   - inputShape: NHWC input shape; every dimension positive.
    ///   - filterShape: OHWI filter shape `[outC, kh, kw, inC]` (TFLite's layout); `inC` must equal
    ///     `inputShape.c`.
    ///   - filter: `filterShape.count` weights in OHWI order.
    ///   - bias: `outC` values, or nil for none.
    ///   - strideH: Vertical stride, positive.
    ///   - strideW: Horizontal stride, positive.
    ///   - dilationH: Vertical dilation factor, positive.
    ///   - dilationW: Horizontal dilation factor, positive.
    ///   - padding: TFLite's SAME or VALID.
    ///   - activation: The fused activation applied to each output.
    ///   - variant: The implementation to use; see the type's documentation for fallbacks.
    ///   - instructionSet: The instruction set of the `.simd` kernels; nil (the default) for
    ///     `KernelInstructionSet.active`. An unsupported one falls back to `.baseline`.
    /// - Throws: `KernelError` when a shape, count or parameter is invalid.
    public init(
        inputShape: Shape4,
        filterShape: Shape4,
        filter: [Float],
        bias: [Float]? = nil,
        strideH: Int = 1,
        strideW: Int = 1,
        dilationH: Int = 1,
        dilationW: Int = 1,
        padding: Padding,
        activation: FusedActivation = .none,
        variant: KernelVariant = .automatic,
        instructionSet: KernelInstructionSet? = nil
    ) throws(KernelError) {
        try inputShape.validate("input")
        try filterShape.validate("filter")
        guard filterShape.c == inputShape.c else {
            throw .channelMismatch(expected: inputShape.c, actual: filterShape.c)
        }
        try KernelError.checkWeights(
            filter: filter, filterShape: filterShape, bias: bias, outputChannels: filterShape.n)
        let geometry = try WindowGeometry.convolution(
            inputShape: inputShape, filterShape: filterShape, strideH: strideH, strideW: strideW,
            dilationH: dilationH, dilationW: dilationW, padding: padding)
        self.inputShape = inputShape
        self.geometry = geometry
        self.activation = activation
        self.outputShape = Shape4(n: inputShape.n, h: geometry.outH, w: geometry.outW, c: filterShape.n)
        self.instructionSet = KernelInstructionSet.resolve(instructionSet)

        let isPointwise = filterShape.h == 1 && filterShape.w == 1 && strideH == 1 && strideW == 1
        let biasValues = bias ?? Array(repeating: 0, count: filterShape.n)
        switch variant {
        case .reference:
            self.variant = .reference
            self.implementation = .reference(PackedBuffer(biasValues + filter, padding: 0))
        case .automatic, .simd, .blas:
            if isPointwise {
                let gemm = try PointwiseConv2D(
                    inputShape: inputShape, outputChannels: filterShape.n, filter: filter, bias: bias,
                    activation: activation, variant: variant == .blas ? .blas : .simd,
                    instructionSet: self.instructionSet)
                self.variant = gemm.variant
                self.implementation = .pointwise(gemm)
            } else if dilationH == 1 && dilationW == 1 {
                self.variant = .simd
                self.implementation = .gemm(PackedGEMM.pack(
                    columns: filterShape.n, depth: filterShape.h * filterShape.w * filterShape.c,
                    weights: filter, bias: biasValues))
                self.panelCount = Microkernels.panelCount(columns: filterShape.n)
                if filterShape.n >= 8 {
                    self.columnGroups = Pieces.columnGroups(
                        pixels: outputShape.n * outputShape.h * outputShape.w, panels: panelCount)
                }
            } else {
                self.variant = .simd
                self.implementation = .simd(Conv2D.packSIMD(filterShape: filterShape, filter: filter, bias: biasValues))
            }
        }
    }

    /// Runs the convolution on all batches.
    ///
    /// - Parameters:
    ///   - input: `inputShape.count` floats, NHWC.
    ///   - output: `outputShape.count` floats, NHWC. Must not overlap `input`.
    public func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        switch implementation {
        case .reference(let packed): runReference(packed.pointer, input: input, output: output)
        case .simd(let packed): runSIMD(packed.pointer, input: input, output: output)
        case .gemm(let packed): runGEMM(packed.pointer, input: input, output: output, pieces: 0..<pieceCount)
        case .pointwise(let gemm): gemm.run(input: input, output: output)
        }
    }

    /// This kernel reading `inputShape` with explicit zero padding instead of an already padded input:
    /// a `PAD` of height and width whose output only this (VALID, unpadded) kernel reads, folded into it.
    /// The taps that fell on padding are skipped instead of multiplied by zero, so the outputs are equal
    /// (they can differ only in the sign of an exact zero sum).
    ///
    /// - Throws: `KernelError.invalidParameter` when this kernel already pads, or `.invalidShape` when
    ///   the padded input is not this kernel's input or the padding is not smaller than the kernel.
    public func foldingPadding(
        inputShape: Shape4, padTop: Int, padBottom: Int, padLeft: Int, padRight: Int
    ) throws(KernelError) -> Self {
        guard case .gemm = implementation else {
            throw .invalidParameter("only the implicit-GEMM convolution can take over a PAD")
        }
        return try foldedPadding(inputShape: inputShape, padTop: padTop, padBottom: padBottom, padLeft: padLeft,
                                 padRight: padRight)
    }

    /// This kernel followed by TFLite's PRELU with one slope per output channel, in one pass: the slopes
    /// are applied in the epilogue (`v < 0 ? v · slope : v`, as the PRELU kernel computes it), so the
    /// outputs are the same to the bit without the intermediate tensor.
    ///
    /// - Throws: `KernelError.invalidParameter` unless this is the SIMD GEMM with no activation and no
    ///   slopes yet; `.weightCountMismatch` unless there is one slope per output channel.
    public func fusingPReLU(slopes: [Float]) throws(KernelError) -> Self {
        var copy = self
        switch implementation {
        case .pointwise(let gemm):
            copy.implementation = .pointwise(try gemm.fusingPReLU(slopes: slopes))
        case .gemm:
            guard activation == .none, self.slopes == nil, !hardSwish else {
                throw .invalidParameter("a PRELU fuses only into a convolution with no activation")
            }
            copy.slopes = try .slopes(slopes, channels: outputShape.c, zeroPadding: 16)
        case .reference, .simd:
            throw .invalidParameter("a PRELU fuses only into the GEMM convolutions")
        }
        return copy
    }

    /// This convolution followed by TFLite's HARD_SWISH (`x · min(max(x + 3, 0), 6) / 6`), in one pass: the
    /// GEMM epilogue applies it last (after the clamp and the PRELU slopes) with the standalone kernel's
    /// operations, so the outputs are the same to the bit without the intermediate tensor.
    ///
    /// - Throws: `KernelError.invalidParameter` unless this is an implicit-GEMM convolution, or a 1x1 one
    ///   that `PointwiseConv2D.fusingHardSwish` accepts (8 or more output channels), without a HARD_SWISH yet.
    public func fusingHardSwish() throws(KernelError) -> Self {
        var copy = self
        switch implementation {
        case .pointwise(let gemm):
            copy.implementation = .pointwise(try gemm.fusingHardSwish())
        case .gemm:
            guard !hardSwish, !silu else {
                throw .invalidParameter("this convolution already applies a HARD_SWISH or SiLU")
            }
            copy.hardSwish = true
        case .reference, .simd:
            throw .invalidParameter("a HARD_SWISH fuses only into the GEMM convolutions")
        }
        return copy
    }

    /// This convolution followed by SiLU (`x · logistic(x)`: a LOGISTIC and MUL fused as `Nonlinearity(.silu)`),
    /// in one pass: the GEMM epilogue applies it last with the `silu` microkernel's operations, so the outputs
    /// are the same to the bit without the intermediate tensor.
    ///
    /// - Throws: `KernelError.invalidParameter` unless this is an implicit-GEMM convolution, or a 1x1 one that
    ///   `PointwiseConv2D.fusingSiLU` accepts, without a HARD_SWISH or SiLU yet.
    public func fusingSiLU() throws(KernelError) -> Self {
        var copy = self
        switch implementation {
        case .pointwise(let gemm):
            copy.implementation = .pointwise(try gemm.fusingSiLU())
        case .gemm:
            guard !hardSwish, !silu else { throw .invalidParameter("this convolution already applies a HARD_SWISH or SiLU") }
            copy.silu = true
        case .reference, .simd:
            throw .invalidParameter("a SiLU fuses only into the GEMM convolutions")
        }
        return copy
    }

    /// Whether TFLite's HARD_SWISH runs last in the epilogue (`fusingHardSwish`).
    public var hasHardSwish: Bool {
        if case .pointwise(let gemm) = implementation { return gemm.hasHardSwish }
        return hardSwish
    }

    /// This convolution followed by a same-shape ADD of its output and another tensor, in one pass (see
    /// `PointwiseConv2D.fusingResidualAdd`); run it with `run(input:residual:output:pieces:)`.
    ///
    /// - Throws: `KernelError.invalidParameter` unless this is a SIMD 1x1 stride-1 convolution that
    ///   `PointwiseConv2D.fusingResidualAdd` accepts with `add`.
    public func fusingResidualAdd(_ add: Add) throws(KernelError) -> Self {
        try mappingPointwise(orThrow: "an ADD fuses only into a 1x1 stride-1 convolution") {
            (gemm) throws(KernelError) in try gemm.fusingResidualAdd(add)
        }
    }

    /// This 1x1 convolution followed by an unpooled BlazeBlock shortcut, in one pass (see
    /// `PointwiseConv2D.fusingResidualAdd(_:)`); run it with the shortcut as the residual.
    public func fusingResidualAdd(_ residual: ResidualAdd) throws(KernelError) -> Self {
        try mappingPointwise(orThrow: "a shortcut fuses only into a 1x1 stride-1 convolution") {
            (gemm) throws(KernelError) in try gemm.fusingResidualAdd(residual)
        }
    }

    /// A copy whose 1x1 GEMM is `transform`'s fusion of this one's.
    ///
    /// - Parameters:
    ///   - message: The reason given when this is not the 1x1 stride-1 GEMM.
    ///   - transform: The fusion, applied to this convolution's `PointwiseConv2D`.
    /// - Throws: `KernelError.invalidParameter(message)` unless this is the 1x1 stride-1 GEMM, or what
    ///   `transform` throws.
    private func mappingPointwise(
        orThrow message: String, _ transform: (PointwiseConv2D) throws(KernelError) -> PointwiseConv2D
    ) throws(KernelError) -> Self {
        guard case .pointwise(let gemm) = implementation else { throw .invalidParameter(message) }
        var copy = self
        copy.implementation = .pointwise(try transform(gemm))
        return copy
    }

    /// Whether an ADD runs in the epilogue (`fusingResidualAdd`).
    public var hasResidual: Bool {
        if case .pointwise(let gemm) = implementation { return gemm.hasResidual }
        return false
    }

    /// Whether a PRELU runs in the epilogue.
    public var hasPReLU: Bool {
        if case .pointwise(let gemm) = implementation { return gemm.hasPReLU }
        return slopes != nil
    }

    /// Independent pieces of the output: its rows (`n·outH`) for the GEMM implementations, 1 for the
    /// reference and the dilated kernel (computed whole).
    public var pieceCount: Int {
        switch implementation {
        case .gemm: return outputShape.n * outputShape.h * columnGroups
        case .pointwise(let gemm): return gemm.pieceCount
        case .reference, .simd: return 1
        }
    }

    /// Whether `run(input:residual:output:outputRows:)` is available: a batch of one, run by the implicit
    /// GEMM over all its channels at once or by the SIMD or reference pointwise kernel.
    public var runsOutputRows: Bool {
        guard outputShape.n == 1 else { return false }
        switch implementation {
        case .gemm: return columnGroups == 1
        case .pointwise(let gemm): return gemm.runsPixelRanges
        case .reference, .simd: return false
        }
    }

    /// Computes the output rows `rows` (of a batch of one), each value as in any other call.
    /// - Precondition: `runsOutputRows`.
    public func run(
        input: UnsafePointer<Float>, residual: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>,
        outputRows rows: Range<Int>
    ) {
        precondition(runsOutputRows, "this convolution computes its output whole or by its own pieces")
        if case .pointwise(let gemm) = implementation {
            let w = outputShape.w
            gemm.run(input: input, residual: residual, output: output, pixels: rows.lowerBound * w ..< rows.upperBound * w)
        } else {
            run(input: input, residual: residual, output: output, pieces: rows)  // pieces are rows here
        }
    }

    /// Computes output rows `pieces` (a subrange of `0..<pieceCount`); see `Pieces`.
    public func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        run(input: input, residual: nil, output: output, pieces: pieces)
    }

    /// Computes the output rows `pieces`, adding `residual` (an ADD's other operand, `outputShape.count`
    /// floats, or a shortcut of fewer channels; not overlapping the output) in the epilogue: required exactly
    /// when the kernel has a fused ADD or shortcut (`hasResidual`).
    public func run(
        input: UnsafePointer<Float>, residual: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>,
        pieces: Range<Int>
    ) {
        if case .pointwise(let gemm) = implementation {
            gemm.run(input: input, residual: residual, output: output, pieces: pieces)
            return
        }
        precondition(residual == nil, "only a convolution with a fused ADD takes a residual")
        switch implementation {
        case .gemm(let packed): runGEMM(packed.pointer, input: input, output: output, pieces: pieces)
        case .pointwise(let gemm): gemm.run(input: input, output: output, pieces: pieces)
        case .reference, .simd: if pieces.contains(0) { run(input: input, output: output) }
        }
    }
}

extension Conv2D: StepKernel, VariantKernel, PaddingFoldingKernel {
    package var multiplyAccumulates: Int { outputShape.count * geometry.kernelH * geometry.kernelW * inputShape.c }

    /// Rows of a batch of one through the GEMM implementations (`runsOutputRows`), undilated; with a fused
    /// ADD, the same rows of its other operand.
    package var rowLocality: RowLocality? {
        guard outputShape.n == 1, runsOutputRows, let window = RowWindow(geometry) else { return nil }
        return RowLocality(windows: hasResidual ? [window, .identity] : [window], output: outputShape,
                           computesRowRanges: true)
    }

    /// Input 1 is the fused ADD's other operand (`hasResidual`).
    @inline(__always)
    private func residual(_ inputs: [UnsafePointer<Float>]) -> UnsafePointer<Float>? {
        hasResidual ? inputs[1] : nil
    }

    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>) {
        run(input: inputs[0], residual: residual(inputs), output: output, pieces: 0..<pieceCount)
    }

    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        run(input: inputs[0], residual: residual(inputs), output: output, pieces: pieces)
    }

    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>, outputRows rows: Range<Int>) {
        run(input: inputs[0], residual: residual(inputs), output: output, outputRows: rows)
    }
}
