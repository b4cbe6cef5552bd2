import BlazeKernelsFMA

extension Add {
    /// `count` floats of a same-shape addition.
    @inline(__always)
    func runSame(count: Int, lhs: UnsafePointer<Float>, rhs: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let (lo, hi) = activation.bounds
        if instructionSet == .avx2FMA {
            BlazeKernelsFMA.Microkernels.add(count: count, lhs: lhs, rhs: rhs, output: output, lower: lo, upper: hi)
        } else {
            Microkernels.add(count: count, lhs: lhs, rhs: rhs, output: output, lower: lo, upper: hi)
        }
    }

    /// One flat vector loop for equal shapes; vectorized channel rows with broadcast strides otherwise.
    func runSIMD(lhs: UnsafePointer<Float>, rhs: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let (lo, hi) = activation.bounds
        let fma = instructionSet == .avx2FMA
        if plan.isSameShape {
            runSame(count: outputShape.count, lhs: lhs, rhs: rhs, output: output)
            return
        }
        let s = plan.outputShape
        let l = plan.lhsStrides, r = plan.rhsStrides
        if fma {
            BlazeKernelsFMA.Microkernels.addBroadcast(
                n: s.n, h: s.h, w: s.w, c: s.c, lhs: lhs, lhsStrides: (l.n, l.h, l.w, l.c),
                rhs: rhs, rhsStrides: (r.n, r.h, r.w, r.c), output: output, lower: lo, upper: hi)
        } else {
            Microkernels.addBroadcast(
                n: s.n, h: s.h, w: s.w, c: s.c, lhs: lhs, lhsStrides: (l.n, l.h, l.w, l.c),
                rhs: rhs, rhsStrides: (r.n, r.h, r.w, r.c), output: output, lower: lo, upper: hi)
        }
    }
}
