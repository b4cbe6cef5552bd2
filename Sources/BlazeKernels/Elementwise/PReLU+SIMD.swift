import BlazeKernelParameters

extension PReLU {
    /// Vectorized channel rows; the operand broadcast along channels (stride 0) is splatted.
    func runSIMD(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        instructionSet.microkernels.elementwise.prelu(PReLUArguments(
            shape: plan.outputShape.sizes, input: input, inputStrides: plan.lhsStrides.elements,
            alpha: UnsafePointer(alpha.pointer), alphaStrides: plan.rhsStrides.elements, output: output))
    }
}
