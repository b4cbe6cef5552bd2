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

    /// Loads the 8 input values feeding output channels `oc0 ..< oc0 + count` (count ≤ 8): a plain load when
    /// the depth multiplier is 1, a gather otherwise. Reads only in-range channels.
    @inline(__always)
    func loadInput(_ pixel: UnsafePointer<Float>, firstOutputChannel oc0: Int, count: Int) -> Vec8 {
        if depthMultiplier == 1 {
            return count == 8 ? load8(pixel + oc0) : loadPartial(pixel + oc0, count)
        }
        var v = Vec8()
        for lane in 0..<count { v[lane] = pixel[(oc0 + lane) / depthMultiplier] }
        return v
    }

    /// Vectorized over output channels: per output pixel and 8-channel group, accumulates the in-bounds taps.
    func runSIMD(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        let g = geometry
        let inH = inputShape.h, inW = inputShape.w, inC = inputShape.c
        let outC = outputShape.c
        let taps = g.kernelH * g.kernelW
        let groups = (outC + 7) / 8
        let groupSize = 8 * (taps + 1)
        let weights = UnsafePointer(packed.pointer)
        let (lo, hi) = activation.bounds
        let lower = Vec8(repeating: lo), upper = Vec8(repeating: hi)
        Pieces.forEachImage(pieces, rowsPerImage: g.outH) { b, rows in
            let image = input + b * inH * inW * inC
            for oy in rows {
                let originY = oy * g.strideH - g.padTop
                // The in-bounds rows of the window: ky in kyStart ..< kyEnd.
                var kyStart = 0, kyEnd = g.kernelH
                while kyStart < kyEnd && originY + kyStart * g.dilationH < 0 { kyStart += 1 }
                while kyEnd > kyStart && originY + (kyEnd - 1) * g.dilationH >= inH { kyEnd -= 1 }
                for ox in 0..<g.outW {
                    let originX = ox * g.strideW - g.padLeft
                    var kxStart = 0, kxEnd = g.kernelW
                    while kxStart < kxEnd && originX + kxStart * g.dilationW < 0 { kxStart += 1 }
                    while kxEnd > kxStart && originX + (kxEnd - 1) * g.dilationW >= inW { kxEnd -= 1 }
                    let out = output + ((b * g.outH + oy) * g.outW + ox) * outC
                    for group in 0..<groups {
                        let oc0 = group * 8
                        let count = min(8, outC - oc0)
                        let w = weights + group * groupSize
                        var acc = load8(w)
                        for ky in kyStart..<kyEnd {
                            let row = image + (originY + ky * g.dilationH) * inW * inC
                            for kx in kxStart..<kxEnd {
                                let pixel = row + (originX + kx * g.dilationW) * inC
                                let x = loadInput(pixel, firstOutputChannel: oc0, count: count)
                                acc += x * load8(w + 8 * (1 + ky * g.kernelW + kx))
                            }
                        }
                        acc = clamp(acc, lower, upper)
                        if count == 8 {
                            store8(acc, out + oc0)
                        } else {
                            storePartial(acc, out + oc0, count)
                        }
                    }
                }
            }
        }
    }

    /// Depth multiplier 1, no dilation: the register-blocked microkernel, one image at a time.
    func runBlocked(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        let g = geometry
        let i = inputShape, o = outputShape
        let (lo, hi) = activation.bounds
        let weights = UnsafePointer(packed.pointer)
        let depthwise = instructionSet.microkernels.depthwise
        Pieces.forEachImage(pieces, input: input, i, output: output, o) { image, result, rows in
            depthwise(
                image, i.h, i.w, i.c, result, o.h, o.w, g.kernelH, g.kernelW, g.strideH, g.strideW, g.padTop,
                g.padLeft, weights, lo, hi, rows, hasHardSwish)
        }
    }
}
