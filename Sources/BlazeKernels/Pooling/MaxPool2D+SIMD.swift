import BlazeKernelsFMA

extension MaxPool2D {
    /// Vectorized over channels (a dedicated loop for full 2x2 windows), one image at a time.
    func runSIMD(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        let g = geometry
        let i = inputShape, o = outputShape
        let (lo, hi) = activation.bounds
        Pieces.forEachImage(pieces, rowsPerImage: o.h) { b, rows in
            let image = input + b * i.h * i.w * i.c
            let result = output + b * o.h * o.w * o.c
            if instructionSet == .avx2FMA {
                BlazeKernelsFMA.Microkernels.maxPool(
                    input: image, inputHeight: i.h, inputWidth: i.w, channels: i.c,
                    output: result, outputHeight: o.h, outputWidth: o.w,
                    kernelHeight: g.kernelH, kernelWidth: g.kernelW, strideHeight: g.strideH, strideWidth: g.strideW,
                    padTop: g.padTop, padLeft: g.padLeft, lower: lo, upper: hi, outputRows: rows)
            } else {
                Microkernels.maxPool(
                    input: image, inputHeight: i.h, inputWidth: i.w, channels: i.c,
                    output: result, outputHeight: o.h, outputWidth: o.w,
                    kernelHeight: g.kernelH, kernelWidth: g.kernelW, strideHeight: g.strideH, strideWidth: g.strideW,
                    padTop: g.padTop, padLeft: g.padLeft, lower: lo, upper: hi, outputRows: rows)
            }
        }
    }
}
