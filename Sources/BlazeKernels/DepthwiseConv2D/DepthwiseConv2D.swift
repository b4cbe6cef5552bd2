/// A depthwise 2-D convolution over NHWC float32 data with TFLite's `DEPTHWISE_CONV_2D` semantics.
///
/// With `C` input channels and depth multiplier `M`, there are `C·M` output channels and output channel
/// `c·M + m` reads input channel `c` only:
/// `output(n, y, x, c·M + m) = act(bias[c·M + m] + Σ_{ky, kx} input(n, y·sh − padTop + ky·dh,
/// x·sw − padLeft + kx·dw, c) · filter(0, ky, kx, c·M + m))`, out-of-range taps contributing zero.
///
/// Implementations (see `KernelVariant`):
/// - `.reference`: direct scalar loops over the `[1, kh, kw, C·M]` filter.
/// - `.simd` (and `.automatic`; `.blas` falls back to it): vectorized over output channels 8 at a time,
///   with the filter packed per 8-channel group as `[bias ×8][kh·kw][×8]`; the last group is partial
///   (partial loads and stores, never touching memory past the tensors). Borders are handled in the kernel
///   by skipping out-of-range taps, with no padded copy. With depth multiplier 1 and no dilation (every
///   depthwise convolution of the face models), the microkernels are register-blocked, on `instructionSet`
///   (AVX2/FMA where the CPU has it): 3x3 with stride 1 or 2 runs whole output rows in blocks of 8 (or 4)
///   pixels, each input column loaded once per filter row for all the pixels that read it, the border pixels
///   inside the first and last blocks; other sizes run blocks of 8 and 4 pixels sharing each tap's weight and
///   the border pixels one at a time. Channels in groups of 8, the last group overlapping the previous one
///   (`Microkernels/Depthwise.swift`). Otherwise (multiplier or dilation), one pixel at a time
///   (`Microkernels/DepthwiseGeneral.swift`), also on `instructionSet`.
///
/// Thread safety: immutable after creation; `run` may be called concurrently with non-overlapping outputs.
package struct DepthwiseConv2D: OutputRowKernel {
    package let inputShape: Shape4
    /// `[n, outH, outW, C·M]`.
    package let outputShape: Shape4
    package let geometry: WindowGeometry
    package let depthMultiplier: Int
    /// What the convolution does after each sum: the fused activation, and HARD_SWISH for the
    /// register-blocked kernel (`capabilities(depthMultiplier:dilationH:dilationW:variant:)`).
    package let epilogue: Epilogue
    /// The epilogue's clamp.
    package var activation: FusedActivation { epilogue.activation }
    /// The implementation chosen at creation (never `.automatic`).
    package let variant: KernelVariant
    /// The instruction set the `.simd` implementation runs on.
    package let instructionSet: KernelInstructionSet

    /// `.reference`: `[bias ×C·M][filter kh x kw x C·M]`. `.simd`: per 8-channel group `[bias ×8][taps][×8]`
    /// (for the register-blocked kernel the last group overlaps the previous one; see `packBlocked`).
    let packed: PackedBuffer<Float>
    /// Whether `.simd` runs the register-blocked microkernel (depth multiplier 1, no dilation).
    let isBlocked: Bool

    /// Validates the parameters and packs the filter.
    ///
    /// - Parameters:
    ///   - inputShape: NHWC input shape; every dimension positive.
    ///   - filterShape: `[1, kh, kw, C·M]` (TFLite's layout).
    ///   - filter: `filterShape.count` weights.
    ///   - bias: `C·M` values, or nil for none.
    ///   - depthMultiplier: `M`; nil derives it from the shapes (`filterShape.c / inputShape.c`). When given it
    ///     must agree with them.
    ///   - strideH: Vertical stride, positive.
    ///   - strideW: Horizontal stride, positive.
    ///   - dilationH: Vertical dilation factor, positive.
    ///   - dilationW: Horizontal dilation factor, positive.
    ///   - padding: TFLite's SAME or VALID, or explicit padding (a folded PAD).
    ///   - epilogue: What follows each sum: the fused activation, and the stages the implementation runs
    ///     (`capabilities(depthMultiplier:dilationH:dilationW:variant:)`).
    ///   - variant: The implementation; see the type's documentation.
    ///   - instructionSet: The instruction set of the `.simd` kernels; nil (the default) for
    ///     `KernelInstructionSet.active`. An unsupported one falls back to `.baseline`.
    /// - Throws: `KernelError` when a shape, count or parameter is invalid, or the implementation cannot
    ///   run `epilogue`.
    package init(
        inputShape: Shape4,
        filterShape: Shape4,
        filter: [Float],
        bias: [Float]? = nil,
        depthMultiplier: Int? = nil,
        strideH: Int = 1,
        strideW: Int = 1,
        dilationH: Int = 1,
        dilationW: Int = 1,
        padding: Padding,
        epilogue: Epilogue = .none,
        variant: KernelVariant = .automatic,
        instructionSet: KernelInstructionSet? = nil
    ) throws(KernelError) {
        let multiplier = depthMultiplier ?? filterShape.c / max(inputShape.c, 1)
        let geometry = try Self.geometry(
            inputShape: inputShape, filterShape: filterShape, filterCount: filter.count, biasCount: bias?.count,
            depthMultiplier: multiplier, strideH: strideH, strideW: strideW, dilationH: dilationH,
            dilationW: dilationW, padding: padding)
        self.inputShape = inputShape
        self.outputShape = Shape4(n: inputShape.n, h: geometry.outH, w: geometry.outW, c: filterShape.c)
        self.geometry = geometry
        self.depthMultiplier = multiplier
        try epilogue.validate(
            Self.capabilities(depthMultiplier: multiplier, dilationH: dilationH, dilationW: dilationW, variant: variant),
            channels: filterShape.c, kernel: "this depthwise convolution")
        self.epilogue = epilogue
        self.instructionSet = KernelInstructionSet.resolve(instructionSet)
        let biasValues = bias ?? Array(repeating: 0, count: filterShape.c)
        let blocked = multiplier == 1 && dilationH == 1 && dilationW == 1
        switch variant {
        case .reference:
            self.variant = .reference
            self.isBlocked = false
            self.packed = PackedBuffer(biasValues + filter, padding: 0)
        case .automatic, .simd, .blas:
            self.variant = .simd
            self.isBlocked = blocked
            let taps = filterShape.h * filterShape.w
            self.packed = blocked
                ? DepthwiseConv2D.packBlocked(channels: filterShape.c, taps: taps, filter: filter, bias: biasValues)
                : DepthwiseConv2D.packSIMD(channels: filterShape.c, taps: taps, filter: filter, bias: biasValues)
        }
    }

    /// Checks what `init` checks before it packs anything — the shapes, the depth multiplier, the weights'
    /// counts (`filterCount`, `biasCount`, nil for no bias), the strides, dilations and output size — and
    /// returns the geometry: for the runtime, which plans its fusions before it packs the filter.
    /// - Throws: `KernelError`, as `init` does.
    package static func geometry(
        inputShape: Shape4, filterShape: Shape4, filterCount: Int, biasCount: Int?, depthMultiplier multiplier: Int,
        strideH: Int, strideW: Int, dilationH: Int, dilationW: Int, padding: Padding
    ) throws(KernelError) -> WindowGeometry {
        try inputShape.validate("input")
        try filterShape.validate("filter")
        guard filterShape.n == 1 else {
            throw .invalidShape("depthwise filter shape \(filterShape) must have a leading dimension of 1")
        }
        guard multiplier > 0 else {
            throw .invalidParameter("depth multiplier \(multiplier) must be positive")
        }
        guard filterShape.c == inputShape.c * multiplier else {
            throw .channelMismatch(expected: inputShape.c * multiplier, actual: filterShape.c)
        }
        try KernelError.checkWeights(
            filterCount: filterCount, filterShape: filterShape, biasCount: biasCount, outputChannels: filterShape.c)
        return try WindowGeometry.convolution(
            inputShape: inputShape, filterShape: filterShape, strideH: strideH, strideW: strideW,
            dilationH: dilationH, dilationW: dilationW, padding: padding)
    }

    /// The epilogue stages of the implementation `variant` chooses: HARD_SWISH in the register-blocked SIMD
    /// kernel (depth multiplier 1, no dilation), and explicit padding in every kernel. Known before the filter
    /// is packed, for the runtime's fusion passes.
    package static func capabilities(
        depthMultiplier: Int, dilationH: Int, dilationW: Int, variant: KernelVariant
    ) -> Epilogue.Capabilities {
        let blocked = depthMultiplier == 1 && dilationH == 1 && dilationW == 1
        return variant != .reference && blocked ? [.hardSwish, .explicitPadding] : [.explicitPadding]
    }
}

extension DepthwiseConv2D: RowStepKernel, VariantKernel {
    package var multiplyAccumulates: Int { outputShape.count * geometry.kernelH * geometry.kernelW }

    /// Rows of a batch of one through the SIMD kernels (their pieces are output rows), undilated.
    package var rowLocality: RowLocality? { .window(geometry, output: outputShape, variant: variant) }
}
