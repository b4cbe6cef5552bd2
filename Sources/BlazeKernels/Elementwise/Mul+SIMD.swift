import BlazeKernelParameters

extension Mul {
    /// Floats `elements` of a same-shape product: one flat vector loop.
    @inline(__always)
    func runSame(
        _ elements: Range<Int>, lhs: UnsafePointer<Float>, rhs: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>
    ) {
        let start = elements.lowerBound
        instructionSet.microkernels.elementwise.multiply(
            elements.count, lhs + start, rhs + start, output + start, activation.outputBounds)
    }

    /// Output rows `rows` (of `n·h`) of a broadcast product.
    @inline(__always)
    func runBroadcast(
        rows: Range<Int>, lhs: UnsafePointer<Float>, rhs: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>
    ) {
        instructionSet.microkernels.elementwise.multiplyBroadcast(BroadcastArguments(
            shape: plan.outputShape.sizes, lhs: StridedOperand(lhs, strides: plan.lhsStrides.elements),
            rhs: StridedOperand(rhs, strides: plan.rhsStrides.elements), output: output,
            bounds: activation.outputBounds, rows: rows))
    }
}
