import BlazeKernelsFMA

extension PReLU {
    /// Vectorized channel rows; the operand broadcast along channels (stride 0) is splatted.
    func runSIMD(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let s = plan.outputShape
        let x = plan.lhsStrides, a = plan.rhsStrides
        let slopes = UnsafePointer(alpha.pointer)
        if instructionSet == .avx2FMA {
            BlazeKernelsFMA.Microkernels.prelu(
                n: s.n, h: s.h, w: s.w, c: s.c, input: input, inputStrides: (x.n, x.h, x.w, x.c),
                alpha: slopes, alphaStrides: (a.n, a.h, a.w, a.c), output: output)
        } else {
            Microkernels.prelu(
                n: s.n, h: s.h, w: s.w, c: s.c, input: input, inputStrides: (x.n, x.h, x.w, x.c),
                alpha: slopes, alphaStrides: (a.n, a.h, a.w, a.c), output: output)
        }
    }
}
