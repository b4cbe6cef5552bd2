import BlazeKernels
import BlazeTFLite

/// Broadcasting arithmetic, math functions and reductions of any rank.
extension OperatorContext {
    /// SUB, DIV, MINIMUM, MAXIMUM, SQUARED_DIFFERENCE, and ADD and MUL of operands of rank above 4.
    func lowerBinary() throws -> GraphNode {
        try expectCounts(inputs: 2, outputs: 1)
        let operation: ElementwiseBinary.Operation
        switch code.builtinCode {
        case .sub: operation = .subtract
        case .div: operation = .divide
        case .add: operation = .add
        case .mul: operation = .multiply
        case .minimum: operation = .minimum
        case .maximum: operation = .maximum
        default: operation = .squaredDifference
        }
        // ADD, SUB, MUL and DIV carry a fused activation (NONE when the table is absent); the others none.
        let code = self.code.builtinCode
        let function = try options {
            switch $0 {
            case let .add(f) where code == .add, let .sub(f) where code == .sub, let .mul(f) where code == .mul,
                 let .div(f) where code == .div: f
            case .none, .empty: ActivationFunction.none
            default: nil
            }
        }
        for input in op.inputs { try requireFloat32(input) }
        let kernel = try ElementwiseBinary(operation, lhs: graph.tensors[op.inputs[0]].shape,
                                           rhs: graph.tensors[op.inputs[1]].shape,
                                           activation: try activation(function))
        try expectOutput(op.outputs[0], dimensions: kernel.output.sizes)
        return step(kernel, inputs: op.inputs, summary: "\(function)")
    }

    /// EXP, LOG, SQRT, RSQRT, TANH, NEG, ABS, GELU and LEAKY_RELU.
    func lowerUnary() throws -> GraphNode {
        try expectCounts(inputs: 1, outputs: 1)
        try requireFloat32(op.inputs[0])
        let function: ElementwiseUnary.Function
        switch code.builtinCode {
        case .exp: function = .exp
        case .log: function = .log
        case .sqrt: function = .sqrt
        case .rsqrt: function = .rsqrt
        case .tanh: function = .tanh
        case .neg: function = .negate
        case .abs: function = .absolute
        case .gelu:
            function = .gelu(approximate: try options { if case let .gelu(a) = $0 { a } else if case .none = $0 { false } else { nil } })
        default:
            function = .leakyReLU(alpha: try options { if case let .leakyReLU(a) = $0 { a } else { nil } })
        }
        let x = try dimensions(op.inputs[0])
        try expectOutput(op.outputs[0], dimensions: x.sizes)
        return step(try ElementwiseUnary(count: x.count, function: function), inputs: [op.inputs[0]], summary: "")
    }

    /// SUM, MEAN (of rank above 4, or where `Mean` does not apply), REDUCE_MAX, REDUCE_MIN and REDUCE_PROD
    /// over constant axes.
    func lowerReduce() throws -> GraphNode {
        try expectCounts(inputs: 2, outputs: 1)
        let keepDims = try options { if case let .reducer(k) = $0 { k } else if case .none = $0 { false } else { nil } }
        try requireFloat32(op.inputs[0])
        let x = try dimensions(op.inputs[0])
        let operation: Reduce.Operation
        switch code.builtinCode {
        case .sum: operation = .sum
        case .mean: operation = .mean
        case .reduceMax: operation = .maximum
        case .reduceMin: operation = .minimum
        default: operation = .product
        }
        let kernel = try Reduce(operation, input: x, axes: try constantInts(op.inputs[1], role: "axes"))
        let expected = x.sizes.indices.compactMap { kernel.axes.contains($0) ? (keepDims ? 1 : nil) : x.sizes[$0] }
        try expectOutput(op.outputs[0], dimensions: expected)
        return step(kernel, inputs: [op.inputs[0]], summary: "axes \(kernel.axes.sorted())\(keepDims ? " keep_dims" : "")")
    }

    func lowerBatchMatMul() throws -> GraphNode {
        try expectCounts(inputs: 2, outputs: 1)
        let (adjX, adjY) = try options { if case let .batchMatMul(x, y) = $0 { (x, y) } else if case .none = $0 { (false, false) } else { nil } }
        for input in op.inputs {
            try requireFloat32(input)
            _ = try dimensions(input)  // rank, and the size within the arena limit, before anything uses it
        }
        let kernel = try BatchMatMul(x: graph.tensors[op.inputs[0]].shape, y: graph.tensors[op.inputs[1]].shape,
                                     adjointX: adjX, adjointY: adjY)
        try expectOutput(op.outputs[0], dimensions: kernel.output.sizes)
        return step(kernel, inputs: op.inputs,
                    summary: "\(kernel.m)x\(kernel.k) x \(kernel.k)x\(kernel.n)\(adjX ? " adj_x" : "")\(adjY ? " adj_y" : "")")
    }
}
