// Depthwise convolution for the cases the register-blocked kernel (Depthwise.swift) does not take: a depth
// multiplier above 1 or a dilation. One output pixel and 8 output channels at a time, the out-of-range taps
// skipped (no padded copy). None of the bundled models has such a layer; it is here so that every SIMD loop
// gets the AVX2 build.

import BlazeKernelParameters

extension Microkernels {
    /// Output rows `a.operands.outputRows` of one image: per output pixel and group of 8 output channels, the bias
    /// the in-bounds taps (each a separate multiplication and addition, ky then kx), then the clamp (always
    /// applied; `a.hardSwish` is not supported here). Weights packed per 8-output-channel group as
    /// `[bias ×8][kh·kw taps ×8]`, zero-padded; output channel `oc` reads input channel
    /// `oc / a.depthMultiplier`.
    package static func depthwiseGeneral(_ a: DepthwiseArguments) {
        let io = a.operands
        let inW = io.inputExtent.width, inC = io.inputExtent.channels, outC = io.outputExtent.channels
        let w = io.window, multiplier = a.depthMultiplier
        let groupSize = 8 * (w.kernelHeight * w.kernelWidth + 1)
        let groups = (outC + 7) / 8
        let lower = Vec8(repeating: io.bounds.lower), upper = Vec8(repeating: io.bounds.upper)
        // The 8 input values feeding output channels oc0 ..< oc0 + count: a load when the multiplier is 1,
        // a gather otherwise. Reads only in-range channels.
        @inline(__always) func loadInput(_ pixel: UnsafePointer<Float>, _ oc0: Int, _ count: Int) -> Vec8 {
            if multiplier == 1 { return loadChannels(pixel + oc0, count) }
            var v = Vec8()
            for lane in 0..<count { v[lane] = pixel[(oc0 + lane) / multiplier] }
            return v
        }
        forEachWindowPixel(io) { out, originY, originX, filterRows, filterColumns in
            for group in 0..<groups {
                let oc0 = group * 8
                let count = min(8, outC - oc0)
                let weights = a.packed + group * groupSize
                var acc = load8(weights)
                for ky in filterRows {
                    let row = io.input + (originY + ky * w.dilationHeight) * inW * inC
                    for kx in filterColumns {
                        let pixel = row + (originX + kx * w.dilationWidth) * inC
                        acc += loadInput(pixel, oc0, count) * load8(weights + 8 * (1 + ky * w.kernelWidth + kx))
                    }
                }
                storeChannels(clamp(acc, lower, upper), out + oc0, count)
            }
        }
    }
}
