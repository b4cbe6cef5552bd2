extension PReLU {
    /// Vectorized channel rows; the operand broadcast along channels (stride 0) is splatted.
    func runSIMD(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let s = plan.outputShape
        let x = plan.lhsStrides, a = plan.rhsStrides
        let slopes = UnsafePointer(alpha.pointer)
        instructionSet.microkernels.prelu(
            s.n, s.h, s.w, s.c, input, (x.n, x.h, x.w, x.c), slopes, (a.n, a.h, a.w, a.c), output)
    }
}
