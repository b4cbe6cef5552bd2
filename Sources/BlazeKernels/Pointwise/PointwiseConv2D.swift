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
package struct PointwiseConv2D: Sendable {
    package let inputShape: Shape4
    /// `[n, h, w, outC]`.
    package let outputShape: Shape4
    /// What the GEMM does after each sum (`Epilogue`); the SIMD GEMM runs every stage with 8 or more output
    /// channels, the clamp and slopes with fewer (`capabilities(outputChannels:variant:)`), `.reference` and
    /// `.blas` the clamp only.
    package let epilogue: Epilogue
    /// The epilogue's clamp.
    package var activation: FusedActivation { epilogue.activation }
    /// The implementation chosen at creation (never `.automatic`).
    package let variant: KernelVariant
    /// The instruction set the `.simd` implementation runs on.
    package let instructionSet: KernelInstructionSet

    /// The layout depends on `variant`: `.reference` and `.blas` keep `[bias ×outC][filter outC x inC]`;
    /// `.simd` packs column panels `[bias ×NR][inC][×NR]` (`PackedGEMM`), zero-padded.
    let packed: PackedBuffer<Float>
    /// The epilogue's PReLU slopes, zero-padded by 16, or nil.
    let slopes: PackedBuffer<Float>?
    /// Whether the epilogue adds a second input (`Epilogue.residual`).
    package var hasResidual: Bool { epilogue.residual != .none }
    /// Channels of the second input: the output's for `.add`, a shortcut's (zero-padded to the output's in the
    /// epilogue) for `.shortcut`; 0 without one.
    package var residualChannels: Int { epilogue.residualChannels(output: outputShape.c) }
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
    ///   - epilogue: What follows each sum: the fused activation, and the stages that
    ///     `capabilities(outputChannels:variant:)` allows.
    ///   - variant: The implementation; see the type's documentation.
    ///   - instructionSet: The instruction set of the `.simd` kernels; nil (the default) for
    ///     `KernelInstructionSet.active`. An unsupported one falls back to `.baseline`.
    /// - Throws: `KernelError` when a shape or count is invalid, or the implementation cannot run `epilogue`.
    package init(
        inputShape: Shape4,
        outputChannels: Int,
        filter: [Float],
        bias: [Float]? = nil,
        epilogue: Epilogue = .none,
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
        try epilogue.validate(
            Self.capabilities(outputChannels: outputChannels, variant: self.variant), channels: outputChannels,
            kernel: "a \(self.variant) 1x1 convolution of \(outputChannels) output channels")
        self.epilogue = epilogue
        self.slopes = try .slopes(epilogue.slopes, channels: outputChannels, zeroPadding: 16)
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
    package func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        run(input: input, residual: nil, output: output, pieces: 0..<pieceCount)
    }

    /// Runs a kernel with a fused ADD (`hasResidual`) on all batches.
    ///
    /// - Parameters:
    ///   - residual: `outputShape.count` floats added before the clamp. Must not overlap `output`.
    package func run(input: UnsafePointer<Float>, residual: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        run(input: input, residual: residual, output: output, pieces: 0..<pieceCount)
    }

    /// The epilogue stages `variant` runs with `outputChannels` output channels: every one for the SIMD GEMM
    /// of 8 or more, the slopes for the narrow SIMD kernel, the clamp only for `.reference` and `.blas`.
    package static func capabilities(outputChannels: Int, variant: KernelVariant) -> Epilogue.Capabilities {
        guard variant == .simd || variant == .automatic else { return [] }
        return outputChannels >= 8 ? [.slopes, .residual, .hardSwish, .silu] : [.slopes]
    }

    /// GEMM rows (pixels) per piece: one register tile's height (6 rows of the 6x16 tiles; 8 with fewer
    /// than 16 output channels, all 8x8 tiles), so that a range of pieces starts on a tile boundary and
    /// only the output's last tile is partial however the rows are split.
    var rowsPerPiece: Int { variant == .simd && outputChannels < 16 ? 8 : 6 }

    /// Pieces of rows: `ceil(rows / rowsPerPiece)`.
    var rowPieces: Int { (rows + rowsPerPiece - 1) / rowsPerPiece }

    /// Independent pieces of the output: runs of `rowsPerPiece` pixels (one tile of rows), times the groups
    /// of output channels of a small output (`Pieces.columnGroups`); 1 for `.blas`, whose results depend on
    /// how many rows one call gets (it computes the whole output).
    package var pieceCount: Int { variant == .blas ? 1 : rowPieces * columnGroups }

    /// Whether `run(input:residual:output:pixels:)` is available (not for `.blas`, whose sums depend on how
    /// many rows one call gets).
    package var runsPixelRanges: Bool { variant != .blas }

    /// Computes the output pixels (GEMM rows) `pixels`, every output channel, adding `residual` as `run(…,
    /// pieces:)` does. Each value is computed as in any other call, wherever the range starts.
    /// - Precondition: `runsPixelRanges`.
    package func run(
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
    package func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        run(input: input, residual: nil, output: output, pieces: pieces)
    }

    /// Computes the pieces `pieces`, adding `residual` in the epilogue: required exactly when
    /// the kernel has a fused ADD (`hasResidual`).
    package func run(
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
