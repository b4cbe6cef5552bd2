import BlazeKernelParameters

extension Conv2D {
    /// Packs an OHWI filter per 8-output-channel tile; channels past `outC` in the last tile are zero.
    static func packSIMD(filterShape: Shape4, filter: [Float], bias: [Float]) -> PackedBuffer<Float> {
        let taps = filterShape.h * filterShape.w * filterShape.c
        return .channelTiles(channels: filterShape.n, taps: taps, bias: bias) { oc, t in filter[oc * taps + t] }
    }

    /// Any dilation (`Microkernels.convolutionDirect` on `instructionSet`): per output pixel and 8-channel tile,
    /// the in-bounds taps in one `SIMD8<Float>`, one image at a time.
    func runSIMD(_ packed: UnsafePointer<Float>, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let direct = instructionSet.microkernels.convolution.convolutionDirect
        Pieces.forEachImage(
            0..<(outputShape.n * outputShape.h), input: input, inputShape, output: output, outputShape,
            window: geometry.filterWindow, bounds: activation.outputBounds
        ) { operands in
            direct(ConvolutionArguments(operands, packed: packed))
        }
    }

    /// The implicit GEMM (dilation 1), one image at a time, on the chosen instruction set. With SiLU in the
    /// epilogue and every column panel in one piece, blocks of about 32 KiB of output rows, each followed by the
    /// `silu` microkernel over it while it is in L1 (rather than once per tile row).
    func runGEMM(
        _ packed: UnsafePointer<Float>, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
        pieces: Range<Int>
    ) {
        let o = outputShape, rowPieces = o.n * o.h
        let clamped = max(pieces.lowerBound, 0)..<max(min(pieces.upperBound, rowPieces * columnGroups), 0)
        guard epilogue.function == .silu, columnGroups == 1, !clamped.isEmpty else {
            runGEMMRows(packed, input: input, output: output, pieces: clamped, silu: epilogue.function == .silu)
            return
        }
        let rowSize = o.w * o.c, block = max(1, 8192 / max(rowSize, 1))
        let silu = instructionSet.microkernels.elementwise.silu
        var row = clamped.lowerBound
        while row < clamped.upperBound {
            let next = min(row + block, clamped.upperBound)
            runGEMMRows(packed, input: input, output: output, pieces: row..<next, silu: false)
            silu((next - row) * rowSize, output + row * rowSize, output + row * rowSize)
            row = next
        }
    }

    /// The implicit GEMM's pieces `pieces` (column groups of output rows), SiLU per tile row when `silu`.
    private func runGEMMRows(
        _ packed: UnsafePointer<Float>, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
        pieces: Range<Int>, silu: Bool
    ) {
        let i = inputShape, o = outputShape
        let window = geometry.filterWindow, bounds = activation.outputBounds
        let alpha = slopes.map { UnsafePointer($0.pointer) }
        let rowPieces = o.n * o.h
        let convolution = instructionSet.microkernels.convolution.convolution
        let hardSwish = epilogue.function == .hardSwish
        // Pieces are column groups of output rows (group-major), each group a range of column panels.
        Pieces.forEachImage(pieces, rowsPerImage: rowPieces) { group, groupRows in
            let panels = Pieces.panels(group: group, of: columnGroups, panelCount: panelCount)
            Pieces.forEachImage(
                groupRows, input: input, i, output: output, o, window: window, bounds: bounds
            ) { operands in
                convolution(ConvolutionArguments(
                    operands, packed: packed, alpha: alpha, panels: panels, hardSwish: hardSwish, silu: silu))
            }
        }
    }
}
