extension Pad {
    /// Row at a time: rows outside the input are filled; rows inside are fill, copy, fill (vector copies).
    func runSIMD(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        let i = inputShape, o = outputShape, b = before
        instructionSet.microkernels.pad(
            input, (i.n, i.h, i.w, i.c), output, (o.n, o.h, o.w, o.c), (b.n, b.h, b.w, b.c), constantValue, pieces)
    }
}
