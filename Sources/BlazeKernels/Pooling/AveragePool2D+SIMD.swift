import BlazeKernelParameters

extension AveragePool2D {
    /// Vectorized over channels (`Microkernels.averagePool` on `instructionSet`), one image at a time.
    func runSIMD(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let i = inputShape, o = outputShape
        let window = geometry.filterWindow, bounds = activation.outputBounds
        let averagePool = instructionSet.microkernels.window.averagePool
        Pieces.forEachImage(0..<(o.n * o.h), input: input, i, output: output, o) { image, result, rows in
            averagePool(PoolArguments(
                input: image, inputExtent: i.imageExtent, output: result, outputExtent: o.imageExtent,
                window: window, bounds: bounds, outputRows: rows))
        }
    }
}
