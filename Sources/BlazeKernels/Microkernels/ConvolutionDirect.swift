// Direct convolution for the cases the implicit GEMM (GEMM.swift) does not take: any dilation. One output
// pixel and 8 output channels at a time, the out-of-range taps skipped; `forEachWindowPixel` walks the pixels
// and their in-bounds taps for this kernel and `depthwiseGeneral`. None of the bundled models has a dilated
// convolution; these kernels are here so that every SIMD loop gets the AVX2 build.

import BlazeKernelParameters

extension Microkernels {
    /// Output rows `a.operands.outputRows` of one image: per output pixel and tile of 8 output channels, the bias plus
    /// the in-bounds taps in (ky, kx, ic) order (each a separate multiplication and addition), then the clamp
    /// (always applied). Weights packed per 8-output-channel tile as `[bias ×8][kh][kw][inC][×8]`, the
    /// channels past the last zero. `a.alpha`, `a.panels` and `a.hardSwish` are not supported here.
    package static func convolutionDirect(_ a: ConvolutionArguments) {
        let io = a.operands
        let inW = io.inputExtent.width, inC = io.inputExtent.channels
        let outC = io.outputExtent.channels
        let w = io.window
        let tiles = (outC + 7) / 8
        let tileSize = 8 + w.kernelHeight * w.kernelWidth * inC * 8
        let lower = Vec8(repeating: io.bounds.lower), upper = Vec8(repeating: io.bounds.upper)
        forEachWindowPixel(io) { out, originY, originX, filterRows, filterColumns in
            for t in 0..<tiles {
                let tile = a.packed + t * tileSize
                var acc = load8(tile)
                for ky in filterRows {
                    for kx in filterColumns {
                        let iy = originY + ky * w.dilationHeight, ix = originX + kx * w.dilationWidth
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

    /// Visits the output pixels of rows `io.outputRows` (clipped to the image), row by row:
    /// `body(output, originY, originX, filterRows, filterColumns)` with the pixel's first output channel, its
    /// window's origin in the input (padding included, so possibly negative), and the filter rows and columns
    /// whose taps fall inside the input (in order; the taps outside are skipped, as zeros would add nothing).
    @inline(__always)
    static func forEachWindowPixel(
        _ io: WindowOperands, _ body: (UnsafeMutablePointer<Float>, Int, Int, Range<Int>, Range<Int>) -> Void
    ) {
        let w = io.window, outW = io.outputExtent.width, outC = io.outputExtent.channels
        // The taps t in 0 ..< count with 0 <= origin + t·dilation < size.
        @inline(__always) func inBounds(_ origin: Int, _ count: Int, _ dilation: Int, _ size: Int) -> Range<Int> {
            var start = 0, end = count
            while start < end && origin + start * dilation < 0 { start += 1 }
            while end > start && origin + (end - 1) * dilation >= size { end -= 1 }
            return start..<end
        }
        for oy in max(io.outputRows.lowerBound, 0)..<max(min(io.outputRows.upperBound, io.outputExtent.height), 0) {
            let originY = oy * w.strideHeight - w.padTop
            let filterRows = inBounds(originY, w.kernelHeight, w.dilationHeight, io.inputExtent.height)
            for ox in 0..<outW {
                let originX = ox * w.strideWidth - w.padLeft
                let filterColumns = inBounds(originX, w.kernelWidth, w.dilationWidth, io.inputExtent.width)
                body(io.output + (oy * outW + ox) * outC, originY, originX, filterRows, filterColumns)
            }
        }
    }
}
