import BlazeKernelParameters

extension AveragePool2D {
    /// Vectorized over channels (`Microkernels.averagePool` on `instructionSet`), one image at a time.
    package func runSIMD(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        Pieces.forEachImage(
            pieces, input: input, inputShape, output: output, outputShape, window: geometry.filterWindow,
            bounds: activation.outputBounds, instructionSet.microkernels.window.averagePool)
    }
}
