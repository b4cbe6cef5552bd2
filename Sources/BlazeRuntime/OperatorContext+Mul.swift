import BlazeKernels
import BlazeTFLite

extension OperatorContext {
    /// MUL: two float32 operands broadcast to the output (rank ≤ 4), a fused activation.
    ///
    /// When only the second operand has the output's shape, the kernel gets the operands swapped (`a · b` and
    /// `b · a` are the same IEEE product), so that the operand with the output's rows comes first and repeated
    /// rows pass through a channel scale such as `[1, H, W, C] · [1, 1, 1, C]` (`Mul.rowLocality`).
    func lowerMul() throws -> GraphNode {
        try expectCounts(inputs: 2, outputs: 1)
        let function = try options { if case let .mul(f) = $0 { f } else if case .none = $0 { ActivationFunction.none } else { nil } }
        for input in op.inputs { try requireFloat32(input) }
        var inputs = op.inputs
        var shapes = (try shape4(inputs[0]), try shape4(inputs[1]))
        let kernel0 = try Mul(lhsShape: shapes.0, rhsShape: shapes.1, activation: try activation(function),
                              variant: variant)
        try expectOutput(op.outputs[0], kernel0.outputShape)
        var kernel = kernel0
        if shapes.1 == kernel0.outputShape && shapes.0 != kernel0.outputShape {
            inputs.swapAt(0, 1)
            shapes = (shapes.1, shapes.0)
            kernel = try Mul(lhsShape: shapes.0, rhsShape: shapes.1, activation: kernel0.activation, variant: variant)
        }
        return node(.mul(kernel), inputs: inputs, summary: "\(function)")
    }
}
