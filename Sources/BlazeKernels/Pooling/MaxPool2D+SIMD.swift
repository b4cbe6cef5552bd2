extension MaxPool2D {
    /// Vectorized over channels (a dedicated loop for full 2x2 windows), one image at a time.
    func runSIMD(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        let g = geometry
        let i = inputShape, o = outputShape
        let (lo, hi) = activation.bounds
        let maxPool = instructionSet.microkernels.maxPool
        Pieces.forEachImage(pieces, input: input, i, output: output, o) { image, result, rows in
            maxPool(
                image, i.h, i.w, i.c, result, o.h, o.w, g.kernelH, g.kernelW, g.strideH, g.strideW, g.padTop,
                g.padLeft, lo, hi, rows)
        }
    }
}
