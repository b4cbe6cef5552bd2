// Full convolution with any dilation, direct: the implicit GEMM (GEMM.swift) takes dilation 1 only. One output
// pixel and 8 output channels at a time, the out-of-range taps skipped. None of the bundled models has a
// dilated convolution; it is here so that every SIMD loop gets the AVX2 build.

import BlazeKernelParameters

extension Microkernels {
    /// Output rows `a.outputRows` of one image: per output pixel and tile of 8 output channels, the bias plus
    /// the in-bounds taps in (ky, kx, ic) order (each a separate multiplication and addition), then the clamp
    /// (always applied). Weights packed per 8-output-channel tile as `[bias ×8][kh][kw][inC][×8]`, the
    /// channels past the last zero. `a.alpha`, `a.panels` and `a.hardSwish` are not supported here.
    package static func convolutionDirect(_ a: ConvolutionArguments) {
        let io = a.operands
        let inH = io.inputExtent.height, inW = io.inputExtent.width, inC = io.inputExtent.channels
        let outH = io.outputExtent.height, outW = io.outputExtent.width, outC = io.outputExtent.channels
        let w = io.window
        let tiles = (outC + 7) / 8
        let tileSize = 8 + w.kernelHeight * w.kernelWidth * inC * 8
        let lower = Vec8(repeating: io.bounds.lower), upper = Vec8(repeating: io.bounds.upper)
        for oy in max(io.outputRows.lowerBound, 0)..<max(min(io.outputRows.upperBound, outH), 0) {
            let originY = oy * w.strideHeight - w.padTop
            for ox in 0..<outW {
                let originX = ox * w.strideWidth - w.padLeft
                let out = io.output + (oy * outW + ox) * outC
                for t in 0..<tiles {
                    let tile = a.packed + t * tileSize
                    var acc = load8(tile)
                    for ky in 0..<w.kernelHeight {
                        let iy = originY + ky * w.dilationHeight
                        if iy < 0 || iy >= inH { continue }
                        for kx in 0..<w.kernelWidth {
                            let ix = originX + kx * w.dilationWidth
                            if ix < 0 || ix >= inW { continue }
                            let pixel = io.input + (iy * inW + ix) * inC
                            var weights = tile + 8 + (ky * w.kernelWidth + kx) * inC * 8
                            for ic in 0..<inC {
                                acc += Vec8(repeating: pixel[ic]) * load8(weights)
                                weights += 8
                            }
                        }
                    }
                    storeChannels(clamp(acc, lower, upper), out + t * 8, min(8, outC - t * 8))
                }
            }
        }
    }
}
