extension Add {
    /// `count` floats of a same-shape addition.
    @inline(__always)
    func runSame(count: Int, lhs: UnsafePointer<Float>, rhs: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let (lo, hi) = activation.bounds
        instructionSet.microkernels.add(count, lhs, rhs, output, lo, hi)
    }

    /// One flat vector loop for equal shapes; vectorized channel rows with broadcast strides otherwise.
    func runSIMD(lhs: UnsafePointer<Float>, rhs: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let (lo, hi) = activation.bounds
        if plan.isSameShape {
            runSame(count: outputShape.count, lhs: lhs, rhs: rhs, output: output)
            return
        }
        let s = plan.outputShape
        let l = plan.lhsStrides, r = plan.rhsStrides
        instructionSet.microkernels.addBroadcast(
            s.n, s.h, s.w, s.c, lhs, (l.n, l.h, l.w, l.c), rhs, (r.n, r.h, r.w, r.c), output, lo, hi)
    }
}
