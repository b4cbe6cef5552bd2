import BlazeKernelParameters

extension Add {
    /// `count` floats of a same-shape addition.
    @inline(__always)
    func runSame(count: Int, lhs: UnsafePointer<Float>, rhs: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        instructionSet.microkernels.elementwise.add(count, lhs, rhs, output, activation.outputBounds)
    }

    /// One flat vector loop for equal shapes; vectorized channel rows with broadcast strides otherwise.
    func runSIMD(lhs: UnsafePointer<Float>, rhs: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        if plan.isSameShape {
            runSame(count: outputShape.count, lhs: lhs, rhs: rhs, output: output)
            return
        }
        let s = plan.outputShape
        instructionSet.microkernels.elementwise.addBroadcast(BroadcastArguments(
            shape: s.sizes, lhs: StridedOperand(lhs, strides: plan.lhsStrides.elements),
            rhs: StridedOperand(rhs, strides: plan.rhsStrides.elements), output: output,
            bounds: activation.outputBounds, rows: 0..<(s.n * s.h)))
    }
}
