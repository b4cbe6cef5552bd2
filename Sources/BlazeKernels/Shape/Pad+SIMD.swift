import BlazeKernelParameters

extension Pad {
    /// Row at a time: rows outside the input are filled; rows inside are fill, copy, fill (vector copies).
    package func runSIMD(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        instructionSet.microkernels.window.pad(PadArguments(
            input, to: output, shapes: (inputShape.sizes, outputShape.sizes), before: before.sizes,
            value: constantValue, outputRows: pieces))
    }
}
