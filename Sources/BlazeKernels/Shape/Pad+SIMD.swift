import BlazeKernelsFMA

extension Pad {
    /// Row at a time: rows outside the input are filled; rows inside are fill, copy, fill (vector copies).
    func runSIMD(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        let i = inputShape, o = outputShape, b = before
        if instructionSet == .avx2FMA {
            BlazeKernelsFMA.Microkernels.pad(
                input: input, inputShape: (i.n, i.h, i.w, i.c), output: output, outputShape: (o.n, o.h, o.w, o.c),
                before: (b.n, b.h, b.w, b.c), value: constantValue, outputRows: pieces)
        } else {
            Microkernels.pad(
                input: input, inputShape: (i.n, i.h, i.w, i.c), output: output, outputShape: (o.n, o.h, o.w, o.c),
                before: (b.n, b.h, b.w, b.c), value: constantValue, outputRows: pieces)
        }
    }
}
