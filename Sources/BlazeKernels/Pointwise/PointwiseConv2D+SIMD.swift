import BlazeKernelParameters

extension PointwiseConv2D {
    /// Packs the `[outC, inC]` filter for the GEMM microkernels (`PackedGEMM`), or, with fewer than 8 output
    /// channels, for the narrow kernel: `[bias ×outC][outC rows of inC rounded up to 8, zero-padded]`.
    static func packSIMD(inputChannels k: Int, outputChannels n: Int, filter: [Float], bias: [Float]) -> PackedBuffer<Float> {
        guard n < 8 else { return PackedGEMM.pack(columns: n, depth: k, weights: filter, bias: bias) }
        let rowLength = Microkernels.narrowRowLength(depth: k)
        let packed = PackedBuffer<Float>(count: Microkernels.packedNarrowCount(columns: n, depth: k), repeating: 0)
        for o in 0..<n {
            packed.pointer[o] = bias[o]
            for i in 0..<k { packed.pointer[n + o * rowLength + i] = filter[o * k + i] }
        }
        return packed
    }

    /// Register-tiled GEMM (6x16 and 8x8 tiles; dot products for fewer than 8 output channels) on the chosen
    /// instruction set.
    func runSIMD(
        input: UnsafePointer<Float>, residual: UnsafePointer<Float>? = nil, output: UnsafeMutablePointer<Float>,
        rows: Int, panels: Range<Int> = 0..<Int.max
    ) {
        let alpha = slopes.map { UnsafePointer($0.pointer) }
        let microkernels = instructionSet.microkernels.convolution
        if outputChannels < 8 {
            microkernels.pointwiseNarrow(PointwiseArguments(
                rows: rows, depth: inputChannels, columns: outputChannels, input: input, packed: packed.pointer,
                output: output, bounds: activation.outputBounds, alpha: alpha))
        } else {
            microkernels.pointwise(PointwiseArguments(
                rows: rows, depth: inputChannels, columns: outputChannels, input: input, packed: packed.pointer,
                output: output, bounds: activation.outputBounds, alpha: alpha, residual: residual,
                residualChannels: residualChannels, panels: panels, hardSwish: epilogue.function == .hardSwish,
                silu: epilogue.function == .silu))
        }
    }
}
