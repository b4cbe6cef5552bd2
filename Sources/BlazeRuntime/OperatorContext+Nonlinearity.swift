import BlazeKernels
import BlazeTFLite

extension OperatorContext {
    /// LOGISTIC and HARD_SWISH: one float32 tensor of rank ≤ 4 in, the same shape out (no options).
    func lowerNonlinearity() throws -> GraphNode {
        try expectCounts(inputs: 1, outputs: 1)
        try requireFloat32(op.inputs[0])
        let shape = try shape4(op.inputs[0])
        try expectOutput(op.outputs[0], shape)
        let function: Nonlinearity.Function = code.builtinCode == .logistic ? .logistic : .hardSwish
        let kernel = try Nonlinearity(shape: shape, function: function, variant: variant)
        return node(.nonlinearity(kernel), inputs: op.inputs, summary: "")
    }
}
