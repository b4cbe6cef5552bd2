/// A 1x1, stride-1 convolution (no padding) over NHWC float32 data: the GEMM
/// `output[M, outC] = act(input[M, inC] × filterᵀ + bias)` with `M = n·h·w`, on the `[M, inC]` view of the
/// input (no im2col).
///
/// `Conv2D` uses this for 1x1 stride-1 filters; the runtime may also create it directly.
///
/// Implementations (see `KernelVariant`):
/// - `.reference`: scalar triple loop.
/// - `.simd` (and `.automatic`): a register-tiled GEMM with 12 (or 8) `SIMD8<Float>` accumulators, 6x16 and
///   8x8 tiles, with the filter packed in column panels of 16 or 8 (the last one overlapping the previous
///   one when `outC` is not a multiple of 8, so that every store is a full vector) as `[bias ×NR][inC][×NR]`
///   (`PackedGEMM`); bias and activation in the epilogue. With fewer than 8 output channels (score heads),
///   dot products vectorized along `inC` instead. Runs on `instructionSet` (AVX2/FMA where the CPU has it).
/// - `.blas`: `cblas_sgemm` (OpenBLAS on Linux, Accelerate on Apple platforms), then one pass adding the
///   bias and applying the activation. On Linux the first `.blas` kernel created calls
///   `openblas_set_num_threads(1)` (process-wide): our threading happens above the kernels. Falls back to
///   `.simd` where no BLAS is available or a dimension exceeds `Int32.max`.
///
/// Thread safety: immutable after creation; `run` may be called concurrently with non-overlapping outputs.
public struct PointwiseConv2D: Sendable {
    public let inputShape: Shape4
    /// `[n, h, w, outC]`.
    public let outputShape: Shape4
    /// The clamp of the epilogue: the convolution's fused activation, or, once an ADD is fused in
    /// (`fusingResidualAdd`), the ADD's.
    public private(set) var activation: FusedActivation
    /// The implementation chosen at creation (never `.automatic`).
    public let variant: KernelVariant
    /// The instruction set the `.simd` implementation runs on.
    public let instructionSet: KernelInstructionSet

    /// The layout depends on `variant`: `.reference` and `.blas` keep `[bias ×outC][filter outC x inC]`;
    /// `.simd` packs column panels `[bias ×NR][inC][×NR]` (`PackedGEMM`), zero-padded.
    let packed: PackedBuffer<Float>
    /// PReLU slopes per output channel applied in the epilogue (zero-padded by 16), or nil.
    var slopes: PackedBuffer<Float>?
    /// Whether the epilogue adds a second input (`fusingResidualAdd`).
    public private(set) var hasResidual = false
    /// Channels of the second input: the output's for a fused ADD, a BlazeBlock shortcut's (zero-padded to
    /// the output's in the epilogue) for a fused `ResidualAdd`; 0 without one.
    public private(set) var residualChannels = 0
    /// Whether TFLite's HARD_SWISH runs last in the epilogue (`fusingHardSwish`).
    public private(set) var hasHardSwish = false
    /// Whether SiLU (`x · logistic(x)`) runs last in the epilogue (`fusingSiLU`).
    public private(set) var hasSiLU = false
    /// Groups of column panels the pieces are split into (`Pieces.columnGroups`; 1 but for small SIMD GEMMs).
    let columnGroups: Int
    /// Column panels of the packed weights (`Microkernels.panelCount`).
    let panelCount: Int

    /// Rows of the GEMM (`n·h·w`).
    var rows: Int { inputShape.n * inputShape.h * inputShape.w }
    var inputChannels: Int { inputShape.c }
    var outputChannels: Int { outputShape.c }

    /// Validates the parameters and packs the filter.
    ///
    /// - Parameters:
    ///   - inputShape: NHWC input shape; every dimension positive.
    ///   - outputChannels: `outC`, positive.
    ///   - filter: `outC · inC` weights, row-major `[outC, inC]` (TFLite's OHWI with `kh = kw = 1`).
    ///   - bias: `outC` values, or nil for none.
    ///   - activation: The fused activation.
    ///   - variant: The implementation; see the type's documentation.
    ///   - instructionSet: The instruction set of the `.simd` kernels; nil (the default) for
    ///     `KernelInstructionSet.active`. An unsupported one falls back to `.baseline`.
    /// - Throws: `KernelError` when a shape or count is invalid.
    public init(
        inputShape: Shape4,
        outputChannels: Int,
        filter: [Float],
        bias: [Float]? = nil,
        activation: FusedActivation = .none,
        variant: KernelVariant = .automatic,
        instructionSet: KernelInstructionSet? = nil
    ) throws(KernelError) {
        try inputShape.validate("input")
        guard outputChannels > 0 else {
            throw .invalidParameter("output channel count \(outputChannels) must be positive")
        }
        let expected = outputChannels * inputShape.c
        guard filter.count == expected else {
            throw .weightCountMismatch(name: "filter", expected: expected, actual: filter.count)
        }
        if let bias, bias.count != outputChannels {
            throw .weightCountMismatch(name: "bias", expected: outputChannels, actual: bias.count)
        }
        self.inputShape = inputShape
        self.outputShape = Shape4(n: inputShape.n, h: inputShape.h, w: inputShape.w, c: outputChannels)
        self.activation = activation
        self.instructionSet = KernelInstructionSet.resolve(instructionSet)
        let biasValues = bias ?? Array(repeating: 0, count: outputChannels)

        var chosen = variant
        if chosen == .blas {
            let m = inputShape.n * inputShape.h * inputShape.w
            let fits = m <= Int(Int32.max) && outputChannels <= Int(Int32.max) && inputShape.c <= Int(Int32.max)
            if !(PointwiseConv2D.blasAvailable && fits) { chosen = .simd }
        }
        switch chosen {
        case .reference, .blas:
            self.variant = chosen
            self.packed = PackedBuffer(biasValues + filter, padding: 0)
            if chosen == .blas { PointwiseConv2D.configureBLAS() }
        case .automatic, .simd:
            self.variant = .simd
            self.packed = PointwiseConv2D.packSIMD(
                inputChannels: inputShape.c, outputChannels: outputChannels, filter: filter, bias: biasValues)
        }
        panelCount = Microkernels.panelCount(columns: outputChannels)
        columnGroups = self.variant == .simd && outputChannels >= 8
            ? Pieces.columnGroups(pixels: inputShape.n * inputShape.h * inputShape.w, panels: panelCount)
            : 1
    }

    /// Runs the GEMM on all batches.
    ///
    /// - Parameters:
    ///   - input: `inputShape.count` floats, NHWC (`[M, inC]` row-major).
    ///   - output: `outputShape.count` floats (`[M, outC]`). Must not overlap `input`.
    public func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        run(input: input, residual: nil, output: output, pieces: 0..<pieceCount)
    }

    /// Runs a kernel with a fused ADD (`hasResidual`) on all batches.
    ///
    /// - Parameters:
    ///   - residual: `outputShape.count` floats added before the clamp. Must not overlap `output`.
    public func run(input: UnsafePointer<Float>, residual: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        run(input: input, residual: residual, output: output, pieces: 0..<pieceCount)
    }

    /// This kernel followed by a same-shape ADD of its output and another tensor (with the ADD's fused
    /// activation, and the PRELU fused into that ADD, if any), in one pass: the epilogue adds the other
    /// tensor to the accumulators (`conv + other`, which IEEE addition makes the same as `other + conv`),
    /// then clamps and applies the slopes as the ADD kernel does, so the outputs are the same to the bit
    /// without the intermediate tensor and without a pass over memory.
    ///
    /// - Throws: `KernelError.invalidParameter` unless this is the SIMD GEMM of at least 8 output channels
    ///   with no activation, slopes or fused ADD, and `add` is a SIMD ADD of two tensors of this kernel's
    ///   output shape.
    public func fusingResidualAdd(_ add: Add) throws(KernelError) -> Self {
        guard variant == .simd, outputChannels >= 8, activation == .none, slopes == nil, !hasResidual,
              !hasHardSwish else {
            throw .invalidParameter(
                "an ADD fuses only into the SIMD GEMM of 8 or more output channels with no activation")
        }
        guard add.variant == .simd, add.plan.isSameShape, add.outputShape == outputShape else {
            throw .invalidParameter("only a SIMD ADD of two \(outputShape) tensors fuses into this convolution")
        }
        var copy = self
        copy.activation = add.activation
        copy.hasResidual = true
        copy.residualChannels = outputChannels
        if let addSlopes = add.slopes {
            copy.slopes = try .slopes(addSlopes.values, channels: outputChannels, zeroPadding: 16)
        }
        return copy
    }

    /// This kernel followed by a BlazeBlock shortcut without pooling — `ResidualAdd(shortcut, output)`, the
    /// shortcut zero-padded in channels — in one pass: the epilogue adds the shortcut's channels to the
    /// accumulators and 0 to the others (what PAD then ADD compute; IEEE addition makes `conv + s` the same
    /// as `s + conv`), then clamps with the shortcut's activation, so the outputs are the same to the bit
    /// without the intermediate tensor; a PRELU fused into the shortcut comes along. Run it with the shortcut
    /// as the residual.
    ///
    /// - Throws: `KernelError.invalidParameter` unless this is the SIMD GEMM of at least 8 output channels
    ///   with no activation, slopes or fused ADD, and `residual` is an unpooled shortcut of this kernel's
    ///   output shape.
    public func fusingResidualAdd(_ residual: ResidualAdd) throws(KernelError) -> Self {
        guard variant == .simd, outputChannels >= 8, activation == .none, slopes == nil, !hasResidual,
              !hasHardSwish else {
            throw .invalidParameter(
                "a shortcut fuses only into the SIMD GEMM of 8 or more output channels with no activation")
        }
        let s = residual.shortcutShape
        guard !residual.pooled, residual.outputShape == outputShape, s.n == outputShape.n, s.h == outputShape.h,
              s.w == outputShape.w, (1...outputChannels).contains(s.c) else {
            throw .invalidParameter("only an unpooled shortcut into a \(outputShape) tensor fuses into this convolution")
        }
        var copy = self
        copy.activation = residual.activation
        copy.hasResidual = true
        copy.residualChannels = s.c
        if let slopes = residual.preluSlopes {
            copy.slopes = try .slopes(slopes, channels: outputChannels, zeroPadding: 16)
        }
        return copy
    }

    /// This kernel followed by TFLite's PRELU with one slope per output channel, in one pass: the slopes
    /// are applied in the epilogue (`v < 0 ? v · slope : v`, as the PRELU kernel computes it), so the
    /// outputs are the same to the bit without the intermediate tensor.
    ///
    /// - Throws: `KernelError.invalidParameter` unless this is the SIMD GEMM with no activation and no
    ///   slopes yet; `.weightCountMismatch` unless there is one slope per output channel.
    public func fusingPReLU(slopes: [Float]) throws(KernelError) -> Self {
        guard variant == .simd, activation == .none, self.slopes == nil, !hasHardSwish else {
            throw .invalidParameter("a PRELU fuses only into the SIMD GEMM with no activation")
        }
        var copy = self
        copy.slopes = try .slopes(slopes, channels: outputChannels, zeroPadding: 16)
        return copy
    }

    /// This kernel followed by TFLite's HARD_SWISH (`x · min(max(x + 3, 0), 6) / 6`), in one pass: the
    /// epilogue applies it last, after the clamp, PRELU slopes and fused ADD, with the operations of the
    /// standalone kernel (`Nonlinearity.hardSwish`), so the outputs are the same to the bit without the
    /// intermediate tensor.
    ///
    /// - Throws: `KernelError.invalidParameter` unless this is the SIMD GEMM of at least 8 output channels
    ///   without a HARD_SWISH yet.
    public func fusingHardSwish() throws(KernelError) -> Self {
        guard variant == .simd, outputChannels >= 8, !hasHardSwish, !hasSiLU else {
            throw .invalidParameter("a HARD_SWISH fuses only into the SIMD GEMM of 8 or more output channels")
        }
        var copy = self
        copy.hasHardSwish = true
        return copy
    }

    /// This kernel followed by SiLU (TFLite's LOGISTIC and the MUL of its input by it, fused as
    /// `Nonlinearity(.silu)`), in one pass: the epilogue applies `x · logistic(x)` last, with the `silu`
    /// microkernel's operations, so the outputs are the same to the bit without the intermediate tensor.
    ///
    /// - Throws: `KernelError.invalidParameter` unless this is the SIMD GEMM of at least 8 output channels with
    ///   no HARD_SWISH or SiLU yet.
    public func fusingSiLU() throws(KernelError) -> Self {
        guard variant == .simd, outputChannels >= 8, !hasHardSwish, !hasSiLU else {
            throw .invalidParameter("a SiLU fuses only into the SIMD GEMM of 8 or more output channels")
        }
        var copy = self
        copy.hasSiLU = true
        return copy
    }

    /// Whether a PRELU runs in the epilogue.
    public var hasPReLU: Bool { slopes != nil }

    /// GEMM rows (pixels) per piece: one register tile's height (6 rows of the 6x16 tiles; 8 with fewer
    /// than 16 output channels, all 8x8 tiles), so that a range of pieces starts on a tile boundary and
    /// only the output's last tile is partial however the rows are split.
    var rowsPerPiece: Int { variant == .simd && outputChannels < 16 ? 8 : 6 }

    /// Pieces of rows: `ceil(rows / rowsPerPiece)`.
    var rowPieces: Int { (rows + rowsPerPiece - 1) / rowsPerPiece }

    /// Independent pieces of the output: runs of `rowsPerPiece` pixels (one tile of rows), times the groups
    /// of output channels of a small output (`Pieces.columnGroups`); 1 for `.blas`, whose results depend on
    /// how many rows one call gets (it computes the whole output).
    public var pieceCount: Int { variant == .blas ? 1 : rowPieces * columnGroups }

    /// Whether `run(input:residual:output:pixels:)` is available (not for `.blas`, whose sums depend on how
    /// many rows one call gets).
    public var runsPixelRanges: Bool { variant != .blas }

    /// Computes the output pixels (GEMM rows) `pixels`, every output channel, adding `residual` as `run(…,
    /// pieces:)` does. Each value is computed as in any other call, wherever the range starts.
    /// - Precondition: `runsPixelRanges`.
    public func run(
        input: UnsafePointer<Float>, residual: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>,
        pixels: Range<Int>
    ) {
        precondition(runsPixelRanges, "the BLAS pointwise convolution computes its whole output")
        precondition((residual != nil) == hasResidual, "a fused ADD's other operand is required exactly when fused")
        let first = max(pixels.lowerBound, 0), count = min(pixels.upperBound, rows) - first
        guard count > 0 else { return }
        let a = input + first * inputChannels, c = output + first * outputChannels
        if variant == .simd {
            runSIMD(input: a, residual: residual.map { $0 + first * residualChannels }, output: c, rows: count,
                    panels: Pieces.panels(group: 0, of: 1, panelCount: panelCount))
        } else {
            runReference(input: a, output: c, rows: count)
        }
    }

    /// Computes the pieces `pieces` (a subrange of `0..<pieceCount`: runs of `rowsPerPiece` pixels, by group
    /// of output channels); see `Pieces`.
    public func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        run(input: input, residual: nil, output: output, pieces: pieces)
    }

    /// Computes the pieces `pieces`, adding `residual` in the epilogue: required exactly when
    /// the kernel has a fused ADD (`hasResidual`).
    public func run(
        input: UnsafePointer<Float>, residual: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>,
        pieces: Range<Int>
    ) {
        precondition((residual != nil) == hasResidual, "a fused ADD's other operand is required exactly when fused")
        if variant == .blas {
            if pieces.contains(0) { runBLAS(input: input, output: output, rows: rows) }
            return
        }
        let step = rowsPerPiece, total = rows
        let clamped = max(pieces.lowerBound, 0)..<max(min(pieces.upperBound, pieceCount), 0)
        Pieces.forEachImage(clamped, rowsPerImage: rowPieces) { group, rowRange in
            let first = rowRange.lowerBound * step, count = min(rowRange.upperBound * step, total) - first
            guard count > 0 else { return }
            let a = input + first * inputChannels, c = output + first * outputChannels
            switch variant {
            case .simd:
                let panels = Pieces.panels(group: group, of: columnGroups, panelCount: panelCount)
                runSIMD(input: a, residual: residual.map { $0 + first * residualChannels }, output: c, rows: count,
                        panels: panels)
            default: runReference(input: a, output: c, rows: count)
            }
        }
    }
}
