import BlazeKernelParameters

extension MaxPool2D {
    /// Vectorized over channels (a dedicated loop for full 2x2 windows), one image at a time.
    func runSIMD(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        let i = inputShape, o = outputShape
        let window = geometry.filterWindow, bounds = activation.outputBounds
        let maxPool = instructionSet.microkernels.window.maxPool
        Pieces.forEachImage(pieces, input: input, i, output: output, o) { image, result, rows in
            maxPool(PoolArguments(
                input: image, inputExtent: i.imageExtent, output: result, outputExtent: o.imageExtent,
                window: window, bounds: bounds, outputRows: rows))
        }
    }
}
