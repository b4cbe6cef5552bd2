import BlazeKernelParameters

extension DepthwiseConv2D {
    /// Packs the `[1, kh, kw, C·M]` filter per 8-output-channel group as `[bias ×8][taps][×8]`, zero-padded.
    static func packSIMD(channels: Int, taps: Int, filter: [Float], bias: [Float]) -> PackedBuffer<Float> {
        .channelTiles(channels: channels, taps: taps, bias: bias) { oc, t in filter[t * channels + oc] }
    }

    /// Packs the `[1, kh, kw, C]` filter for the register-blocked microkernel: per group of 8 channels
    /// `[bias ×8][taps][×8]`, group `g` covering channels from `Microkernels.depthwiseGroupStart(g)` (with 8
    /// channels or more the last group overlaps the previous one; with fewer, it is zero-padded).
    static func packBlocked(channels: Int, taps: Int, filter: [Float], bias: [Float]) -> PackedBuffer<Float> {
        .channelTiles(
            channels: channels, taps: taps, bias: bias,
            tileStart: { Microkernels.depthwiseGroupStart($0, channels: channels) }
        ) { oc, t in filter[t * channels + oc] }
    }

    /// Output rows `pieces`, one image at a time: with depth multiplier 1 and no dilation (`isBlocked`) the
    /// register-blocked microkernel (HARD_SWISH fused there only), otherwise `depthwiseGeneral` (per output
    /// pixel and 8-channel group, the in-bounds taps), from `instructionSet`'s table.
    package func runSIMD(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        let microkernels = instructionSet.microkernels.convolution
        let kernel = isBlocked ? microkernels.depthwise : microkernels.depthwiseGeneral
        let weights = UnsafePointer(packed.pointer), multiplier = depthMultiplier
        let hardSwish = epilogue.function == .hardSwish
        Pieces.forEachImage(
            pieces, input: input, inputShape, output: output, outputShape, window: geometry.filterWindow,
            bounds: activation.outputBounds
        ) { operands in
            kernel(DepthwiseArguments(operands, packed: weights, depthMultiplier: multiplier, hardSwish: hardSwish))
        }
    }
}
