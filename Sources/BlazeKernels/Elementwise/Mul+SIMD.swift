extension Mul {
    /// Floats `elements` of a same-shape product: one flat vector loop.
    @inline(__always)
    func runSame(
        _ elements: Range<Int>, lhs: UnsafePointer<Float>, rhs: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>
    ) {
        let (lo, hi) = activation.bounds, start = elements.lowerBound
        instructionSet.microkernels.multiply(elements.count, lhs + start, rhs + start, output + start, lo, hi)
    }

    /// Output rows `rows` (of `n·h`) of a broadcast product.
    @inline(__always)
    func runBroadcast(
        rows: Range<Int>, lhs: UnsafePointer<Float>, rhs: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>
    ) {
        let (lo, hi) = activation.bounds
        let s = plan.outputShape, l = plan.lhsStrides, r = plan.rhsStrides
        instructionSet.microkernels.multiplyBroadcast(
            s.n, s.h, s.w, s.c, lhs, (l.n, l.h, l.w, l.c), rhs, (r.n, r.h, r.w, r.c), output, lo, hi, rows)
    }
}
