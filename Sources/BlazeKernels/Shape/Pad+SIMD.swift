import BlazeKernelParameters

extension Pad {
    /// Row at a time: rows outside the input are filled; rows inside are fill, copy, fill (vector copies).
    func runSIMD(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        instructionSet.microkernels.window.pad(PadArguments(
            input: input, inputShape: inputShape.sizes, output: output, outputShape: outputShape.sizes,
            before: before.sizes, value: constantValue, outputRows: pieces))
    }
}
