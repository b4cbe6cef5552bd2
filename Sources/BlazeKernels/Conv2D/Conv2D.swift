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
package struct Conv2D: Sendable {
    /// The input shape; `run` reads `inputShape.count` floats.
    package let inputShape: Shape4
    /// The output shape `[n, outH, outW, outC]`; `run` writes `outputShape.count` floats.
    package let outputShape: Shape4
    /// Output size and padding, computed as TFLite does.
    package let geometry: WindowGeometry
    /// What the convolution does after each sum: the fused activation, and the stages its implementation
    /// runs (`capabilities(filterShape:strideH:strideW:dilationH:dilationW:variant:)`).
    package let epilogue: Epilogue
    /// The epilogue's clamp.
    package var activation: FusedActivation { epilogue.activation }
    /// The implementation chosen at creation (never `.automatic`).
    package let variant: KernelVariant
    /// The instruction set the `.simd` implementation runs on.
    package let instructionSet: KernelInstructionSet

    enum Implementation: Sendable {
        /// `[bias ×outC][filter OHWI]`.
        case reference(PackedBuffer<Float>)
        /// Per 8-output-channel tile: `[bias ×8][kh][kw][inC][×8]`, zero-padded (dilated convolutions).
        case simd(PackedBuffer<Float>)
        /// Implicit GEMM, column panels `[bias ×NR][kh·kw·inC][×NR]` (`PackedGEMM`).
        case gemm(PackedBuffer<Float>)
        case pointwise(PointwiseConv2D)
    }

    let implementation: Implementation
    /// The epilogue's PReLU slopes for the implicit GEMM (zero-padded by 16), or nil.
    private(set) var slopes: PackedBuffer<Float>?
    /// Groups of column panels the implicit GEMM's pieces are split into (`Pieces.columnGroups`).
    private(set) var columnGroups = 1
    /// Column panels of the implicit GEMM's packed weights.
    private(set) var panelCount = 1

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
    ///   - padding: TFLite's SAME or VALID, or explicit padding (a folded PAD; the implicit GEMM and the
    ///     dilated and reference kernels).
    ///   - epilogue: What follows each sum: the fused activation, and the stages the implementation runs
    ///     (`capabilities(filterShape:strideH:strideW:dilationH:dilationW:variant:)`).
    ///   - variant: The implementation to use; see the type's documentation for fallbacks.
    ///   - instructionSet: The instruction set of the `.simd` kernels; nil (the default) for
    ///     `KernelInstructionSet.active`. An unsupported one falls back to `.baseline`.
    /// - Throws: `KernelError` when a shape, count or parameter is invalid, or the implementation cannot
    ///   run `epilogue` or the padding.
    package init(
        inputShape: Shape4,
        filterShape: Shape4,
        filter: [Float],
        bias: [Float]? = nil,
        strideH: Int = 1,
        strideW: Int = 1,
        dilationH: Int = 1,
        dilationW: Int = 1,
        padding: Padding,
        epilogue: Epilogue = .none,
        variant: KernelVariant = .automatic,
        instructionSet: KernelInstructionSet? = nil
    ) throws(KernelError) {
        let geometry = try Self.geometry(
            inputShape: inputShape, filterShape: filterShape, filterCount: filter.count, biasCount: bias?.count,
            strideH: strideH, strideW: strideW, dilationH: dilationH, dilationW: dilationW, padding: padding)
        self.inputShape = inputShape
        self.geometry = geometry
        self.outputShape = Shape4(n: inputShape.n, h: geometry.outH, w: geometry.outW, c: filterShape.n)
        self.instructionSet = KernelInstructionSet.resolve(instructionSet)

        let isPointwise = Self.isPointwise(filterShape: filterShape, strideH: strideH, strideW: strideW)
        if isPointwise, variant != .reference, case .explicit = padding {
            throw .invalidParameter("a 1x1 stride-1 convolution takes no explicit padding")
        }
        let chosen: KernelVariant = variant == .reference ? .reference : variant == .blas && isPointwise ? .blas : .simd
        try epilogue.validate(
            Self.capabilities(filterShape: filterShape, strideH: strideH, strideW: strideW, dilationH: dilationH,
                              dilationW: dilationW, variant: chosen),
            channels: filterShape.n, kernel: "this \(chosen) convolution")
        self.epilogue = epilogue
        let biasValues = bias ?? Array(repeating: 0, count: filterShape.n)
        switch variant {
        case .reference:
            self.variant = .reference
            self.implementation = .reference(PackedBuffer(biasValues + filter, padding: 0))
        case .automatic, .simd, .blas:
            if isPointwise {
                let gemm = try PointwiseConv2D(
                    inputShape: inputShape, outputChannels: filterShape.n, filter: filter, bias: bias,
                    epilogue: epilogue, variant: variant == .blas ? .blas : .simd,
                    instructionSet: self.instructionSet)
                self.variant = gemm.variant
                self.implementation = .pointwise(gemm)
            } else if dilationH == 1 && dilationW == 1 {
                self.variant = .simd
                self.implementation = .gemm(PackedGEMM.pack(
                    columns: filterShape.n, depth: filterShape.h * filterShape.w * filterShape.c,
                    weights: filter, bias: biasValues))
                self.panelCount = Microkernels.panelCount(columns: filterShape.n)
                self.slopes = try .slopes(epilogue.slopes, channels: filterShape.n, zeroPadding: 16)
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
    package func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        switch implementation {
        case .reference(let packed): runReference(packed.pointer, input: input, output: output)
        case .simd(let packed): runSIMD(packed.pointer, input: input, output: output)
        case .gemm(let packed): runGEMM(packed.pointer, input: input, output: output, pieces: 0..<pieceCount)
        case .pointwise(let gemm): gemm.run(input: input, output: output)
        }
    }

    /// Checks what `init` checks before it packs anything — the shapes, the weights' counts (`filterCount`,
    /// `biasCount`, nil for no bias), the strides, dilations and output size — and returns the geometry: for
    /// the runtime, which plans its fusions before it packs the filter.
    /// - Throws: `KernelError`, as `init` does.
    package static func geometry(
        inputShape: Shape4, filterShape: Shape4, filterCount: Int, biasCount: Int?, strideH: Int, strideW: Int,
        dilationH: Int, dilationW: Int, padding: Padding
    ) throws(KernelError) -> WindowGeometry {
        try inputShape.validate("input")
        try filterShape.validate("filter")
        guard filterShape.c == inputShape.c else {
            throw .channelMismatch(expected: inputShape.c, actual: filterShape.c)
        }
        try KernelError.checkWeights(
            filterCount: filterCount, filterShape: filterShape, biasCount: biasCount, outputChannels: filterShape.n)
        return try WindowGeometry.convolution(
            inputShape: inputShape, filterShape: filterShape, strideH: strideH, strideW: strideW,
            dilationH: dilationH, dilationW: dilationW, padding: padding)
    }

    /// Whether a filter of `filterShape` with these strides runs as `PointwiseConv2D`'s GEMM (1x1, stride 1).
    static func isPointwise(filterShape: Shape4, strideH: Int, strideW: Int) -> Bool {
        filterShape.h == 1 && filterShape.w == 1 && strideH == 1 && strideW == 1
    }

    /// The epilogue stages of the implementation `variant` chooses for such a convolution: the 1x1 GEMM's
    /// (`PointwiseConv2D.capabilities(outputChannels:variant:)`); the implicit GEMM's slopes, HARD_SWISH, SiLU
    /// and explicit padding; the clamp and explicit padding for the dilated and reference kernels. Known
    /// before the filter is packed, for the runtime's fusion passes.
    package static func capabilities(
        filterShape: Shape4, strideH: Int, strideW: Int, dilationH: Int, dilationW: Int, variant: KernelVariant
    ) -> Epilogue.Capabilities {
        let pointwise = isPointwise(filterShape: filterShape, strideH: strideH, strideW: strideW)
        if variant == .reference { return pointwise ? [] : [.explicitPadding] }
        if pointwise { return PointwiseConv2D.capabilities(outputChannels: filterShape.n, variant: variant) }
        if dilationH == 1 && dilationW == 1 { return [.slopes, .hardSwish, .silu, .explicitPadding] }
        return [.explicitPadding]
    }

    /// Whether the epilogue adds a second input (`Epilogue.residual`).
    package var hasResidual: Bool { epilogue.residual != .none }

    /// Independent pieces of the output: its rows (`n·outH`) for the GEMM implementations, 1 for the
    /// reference and the dilated kernel (computed whole).
    package var pieceCount: Int {
        switch implementation {
        case .gemm: return outputShape.n * outputShape.h * columnGroups
        case .pointwise(let gemm): return gemm.pieceCount
        case .reference, .simd: return 1
        }
    }

    /// Whether `run(input:residual:output:outputRows:)` is available: a batch of one, run by the implicit
    /// GEMM over all its channels at once or by the SIMD or reference pointwise kernel.
    package var runsOutputRows: Bool {
        guard outputShape.n == 1 else { return false }
        switch implementation {
        case .gemm: return columnGroups == 1
        case .pointwise(let gemm): return gemm.runsPixelRanges
        case .reference, .simd: return false
        }
    }

    /// Computes the output rows `rows` (of a batch of one), each value as in any other call.
    /// - Precondition: `runsOutputRows`.
    package func run(
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
    package func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        run(input: input, residual: nil, output: output, pieces: pieces)
    }

    /// Computes the output rows `pieces`, adding `residual` (an ADD's other operand, `outputShape.count`
    /// floats, or a shortcut of fewer channels; not overlapping the output) in the epilogue: required exactly
    /// when the kernel has a fused ADD or shortcut (`hasResidual`).
    package func run(
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

extension Conv2D: StepKernel, VariantKernel {
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
