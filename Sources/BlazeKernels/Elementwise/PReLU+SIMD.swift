import BlazeKernelParameters

extension PReLU {
    /// Vectorized channel rows; the operand broadcast along channels (stride 0) is splatted.
    func runSIMD(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        instructionSet.microkernels.elementwise.prelu(PReLUArguments(
            shape: plan.outputShape.sizes, input: StridedOperand(input, strides: plan.lhsStrides.elements),
            alpha: StridedOperand(UnsafePointer(alpha.pointer), strides: plan.rhsStrides.elements), output: output))
    }
}
