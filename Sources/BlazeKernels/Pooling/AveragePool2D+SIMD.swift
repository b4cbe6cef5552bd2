import BlazeKernelParameters

extension AveragePool2D {
    /// Vectorized over channels (`Microkernels.averagePool` on `instructionSet`), one image at a time.
    func runSIMD(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let averagePool = instructionSet.microkernels.window.averagePool
        Pieces.forEachImage(
            0..<(outputShape.n * outputShape.h), input: input, inputShape, output: output, outputShape,
            window: geometry.filterWindow, bounds: activation.outputBounds, averagePool)
    }
}
