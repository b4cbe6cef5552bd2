import BlazeKernelParameters

extension DepthwiseConv2D {
    /// Packs the `[1, kh, kw, C·M]` filter per 8-output-channel group as `[bias ×8][taps][×8]`, zero-padded.
    static func packSIMD(channels: Int, taps: Int, filter: [Float], bias: [Float]) -> PackedBuffer<Float> {
        let groups = (channels + 7) / 8
        let groupSize = 8 * (taps + 1)
        let packed = PackedBuffer<Float>(count: groups * groupSize, repeating: 0)
        for oc in 0..<channels {
            let group = packed.pointer + (oc / 8) * groupSize
            let lane = oc % 8
            group[lane] = bias[oc]
            for t in 0..<taps {
                group[8 * (t + 1) + lane] = filter[t * channels + oc]
            }
        }
        return packed
    }

    /// Packs the `[1, kh, kw, C]` filter for the register-blocked microkernel: per group of 8 channels
    /// `[bias ×8][taps][×8]`, group `g` covering channels from `Microkernels.depthwiseGroupStart(g)` (with 8
    /// channels or more the last group overlaps the previous one; with fewer, it is zero-padded).
    static func packBlocked(channels: Int, taps: Int, filter: [Float], bias: [Float]) -> PackedBuffer<Float> {
        let groups = (channels + 7) / 8
        let groupSize = 8 * (taps + 1)
        let packed = PackedBuffer<Float>(count: groups * groupSize, repeating: 0)
        for g in 0..<groups {
            let group = packed.pointer + g * groupSize
            let start = Microkernels.depthwiseGroupStart(g, channels: channels)
            for lane in 0..<min(8, channels - start) {
                let oc = start + lane
                group[lane] = bias[oc]
                for t in 0..<taps {
                    group[8 * (t + 1) + lane] = filter[t * channels + oc]
                }
            }
        }
        return packed
    }

    /// Any depth multiplier or dilation (`Microkernels.depthwiseGeneral` on `instructionSet`): per output pixel
    /// and 8-channel group, the in-bounds taps, one image at a time.
    func runSIMD(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        let weights = UnsafePointer(packed.pointer), multiplier = depthMultiplier
        let depthwise = instructionSet.microkernels.convolution.depthwiseGeneral
        Pieces.forEachImage(
            pieces, input: input, inputShape, output: output, outputShape, window: geometry.filterWindow,
            bounds: activation.outputBounds
        ) { operands in
            depthwise(DepthwiseArguments(operands, packed: weights, depthMultiplier: multiplier))
        }
    }

    /// Depth multiplier 1, no dilation: the register-blocked microkernel, one image at a time.
    func runBlocked(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        let weights = UnsafePointer(packed.pointer), hardSwish = hasHardSwish
        let depthwise = instructionSet.microkernels.convolution.depthwise
        Pieces.forEachImage(
            pieces, input: input, inputShape, output: output, outputShape, window: geometry.filterWindow,
            bounds: activation.outputBounds
        ) { operands in
            depthwise(DepthwiseArguments(operands, packed: weights, hardSwish: hardSwish))
        }
    }
}
