import BlazeKernelParameters

extension Conv2D {
    /// Floats per packed 8-output-channel tile: `[bias ×8][kh][kw][inC][×8]`.
    static func simdTileSize(filterShape: Shape4) -> Int {
        8 + filterShape.h * filterShape.w * filterShape.c * 8
    }

    /// Packs an OHWI filter per 8-output-channel tile; channels past `outC` in the last tile are zero.
    static func packSIMD(filterShape: Shape4, filter: [Float], bias: [Float]) -> PackedBuffer<Float> {
        let outC = filterShape.n
        let taps = filterShape.h * filterShape.w * filterShape.c
        let tiles = (outC + 7) / 8
        let tileSize = simdTileSize(filterShape: filterShape)
        let packed = PackedBuffer<Float>(count: tiles * tileSize, repeating: 0)
        for oc in 0..<outC {
            let tile = packed.pointer + (oc / 8) * tileSize
            let lane = oc % 8
            tile[lane] = bias[oc]
            for t in 0..<taps {
                tile[8 + t * 8 + lane] = filter[oc * taps + t]
            }
        }
        return packed
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

    /// The implicit GEMM (dilation 1), one image at a time, on the chosen instruction set.
    func runGEMM(
        _ packed: UnsafePointer<Float>, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
        pieces: Range<Int>
    ) {
        let i = inputShape, o = outputShape
        let window = geometry.filterWindow, bounds = activation.outputBounds
        let alpha = slopes.map { UnsafePointer($0.pointer) }
        let rowPieces = o.n * o.h
        let convolution = instructionSet.microkernels.convolution.convolution
        let clamped = max(pieces.lowerBound, 0)..<max(min(pieces.upperBound, rowPieces * columnGroups), 0)
        // Pieces are column groups of output rows (group-major), each group a range of column panels.
        Pieces.forEachImage(clamped, rowsPerImage: rowPieces) { group, groupRows in
            let panels = Pieces.panels(group: group, of: columnGroups, panelCount: panelCount)
            Pieces.forEachImage(
                groupRows, input: input, i, output: output, o, window: window, bounds: bounds
            ) { operands in
                convolution(ConvolutionArguments(
                    operands, packed: packed, alpha: alpha, panels: panels, hardSwish: hardSwish))
            }
        }
    }
}
