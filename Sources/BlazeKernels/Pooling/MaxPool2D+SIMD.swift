import BlazeKernelParameters

extension MaxPool2D {
    /// Vectorized over channels (a dedicated loop for full 2x2 windows), one image at a time.
    package func runSIMD(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        Pieces.forEachImage(
            pieces, input: input, inputShape, output: output, outputShape, window: geometry.filterWindow,
            bounds: activation.outputBounds, instructionSet.microkernels.window.maxPool)
    }
}
