import BlazeKernels
import BlazeTFLite

/// Lowers one TFLite operator to a kernel, checking its inputs, options and shapes.
struct OperatorContext {
    let builder: GraphBuilder
    let op: Operator
    let code: OperatorCode
    /// Whether this operator is being evaluated at load time on int32 constants (`GraphBuilder.foldIntegers`):
    /// its data-movement kernel then copies their bits, so int32 passes the float32 checks.
    var foldsIntegers = false

    var graph: SubGraph { builder.graph }
    var variant: KernelVariant { builder.options.kernelVariant }

    // MARK: Errors

    func invalid(_ reason: String) -> InterpreterError {
        .invalidOperator(index: op.index, operator: code.name, reason: reason)
    }

    func unsupported(_ option: String) -> InterpreterError {
        .unsupportedOption(index: op.index, operator: code.name, option: option)
    }

    func constantSize(_ tensor: Int, expected: Int, actual: Int) -> InterpreterError {
        .invalidConstant(tensor: tensor, name: graph.tensors[tensor].name,
                         reason: "buffer has \(actual) bytes, its shape and type need \(expected)")
    }

    func kernelFailure(_ error: KernelError) -> InterpreterError {
        invalid(error.description)
    }

    // MARK: Checks

    /// Checks the number of inputs and outputs; inputs in `optional` may be omitted (-1).
    func expectCounts(inputs: ClosedRange<Int>, outputs: Int, optional: Set<Int> = []) throws(InterpreterError) {
        guard inputs.contains(op.inputs.count) else {
            let wanted = inputs.count == 1 ? "\(inputs.lowerBound)" : "\(inputs.lowerBound)...\(inputs.upperBound)"
            throw invalid("has \(op.inputs.count) inputs, expected \(wanted)")
        }
        guard op.outputs.count == outputs else {
            throw invalid("has \(op.outputs.count) outputs, expected \(outputs)")
        }
        for (k, input) in op.inputs.enumerated() where input < 0 && !optional.contains(k) {
            throw invalid("input \(k) is omitted but required")
        }
    }

    func expectCounts(inputs: Int, outputs: Int) throws(InterpreterError) {
        try expectCounts(inputs: inputs...inputs, outputs: outputs)
    }

    func requireFloat32(_ tensor: Int) throws(InterpreterError) {
        let t = graph.tensors[tensor]
        guard t.type == .float32 || (foldsIntegers && t.type == .int32) else {
            throw .unsupportedTensorType(index: op.index, operator: code.name, tensor: tensor, name: t.name, type: t.type.name)
        }
    }

    /// The tensor's shape as NHWC (rank ≤ 4, padded with leading 1s), every dimension positive.
    func shape4(_ tensor: Int) throws(InterpreterError) -> Shape4 {
        let t = graph.tensors[tensor]
        do { return try Shape4(dimensions: t.shape) } catch {
            throw invalid("tensor \(tensor) '\(t.name)' with shape \(t.shape): \(error.description)")
        }
    }

    /// Checks that the output tensor's declared shape is `expected` (compared after padding to rank 4).
    func expectOutput(_ tensor: Int, _ expected: Shape4) throws(InterpreterError) {
        let t = graph.tensors[tensor]
        if isDynamic(tensor) {
            // Keep the declared rank when the extra leading dimensions are 1.
            let dims = expected.dimensions, extra = max(0, 4 - t.shape.count)
            return try expectOutput(tensor, dimensions: dims.prefix(extra).allSatisfy { $0 == 1 } ? Array(dims.dropFirst(extra)) : dims)
        }
        let declared = try shape4(tensor)
        guard declared == expected else {
            // Show the expected shape at the declared rank when the extra leading dimensions are 1.
            let extra = max(0, 4 - t.shape.count)
            let dims = expected.dimensions
            let shown = dims.prefix(extra).allSatisfy { $0 == 1 } ? Array(dims.dropFirst(extra)) : dims
            throw .shapeMismatch(index: op.index, operator: code.name, tensor: tensor, name: t.name,
                                 expected: shown, actual: t.shape)
        }
    }

    /// Whether the tensor's declared shape is a placeholder: its signature has a dynamic (-1) dimension, and it
    /// is not a graph input (whose declared shape is the one the caller fills).
    func isDynamic(_ tensor: Int) -> Bool {
        let t = graph.tensors[tensor]
        return t.shapeSignature?.contains(-1) == true && !graph.inputs.contains(tensor)
    }

    func activation(_ function: ActivationFunction) throws(InterpreterError) -> FusedActivation {
        switch function {
        case .none: return .none
        case .relu: return .relu
        case .relu6: return .relu6
        case .reluN1To1: return .reluN1To1
        default: throw unsupported("fused activation \(function)")
        }
    }

    func padding(_ type: PaddingType) -> Padding { type == .same ? .same : .valid }

    /// Float32 values of a constant input (from the file or folded).
    func constantFloats(_ tensor: Int, role: String) throws(InterpreterError) -> [Float] {
        guard let raw = try builder.rawBytes(of: tensor) else {
            throw unsupported("non-constant \(role) (tensor \(tensor) '\(graph.tensors[tensor].name)')")
        }
        if raw.type == .int8 || raw.type == .uint8, graph.tensors[tensor].quantization?.scale.isEmpty == false {
            // Int8 weights with float activations (the hybrid and w8a32 forms): dequantized once, here.
            try builder.constantBudget.charge(raw.bytes.count * MemoryLayout<Float>.size)
            return try dequantizeAffine(tensor: graph.tensors[tensor], bytes: raw.bytes, signed: raw.type == .int8)
        }
        guard raw.type == .float32 else {
            throw .unsupportedTensorType(index: op.index, operator: code.name, tensor: tensor,
                                         name: graph.tensors[tensor].name, type: raw.type.name)
        }
        if let values = builder.constants[tensor] { return values }
        let count = graph.tensors[tensor].elementCount
        guard raw.bytes.count == count * 4 else { throw constantSize(tensor, expected: count * 4, actual: raw.bytes.count) }
        return raw.bytes.withUnsafeBytes { bytes in (0..<count).map { bytes.loadUnaligned(fromByteOffset: 4 * $0, as: Float.self) } }
    }

    /// Integer values of a constant int32 (or int64) input, such as paddings or sizes.
    func constantInts(_ tensor: Int, role: String) throws(InterpreterError) -> [Int] {
        let t = graph.tensors[tensor]
        guard let raw = try builder.rawBytes(of: tensor) else {
            throw unsupported("non-constant \(role) (tensor \(tensor) '\(t.name)')")
        }
        let count = t.elementCount
        switch raw.type {
        case .int32:
            guard raw.bytes.count == count * 4 else { throw constantSize(tensor, expected: count * 4, actual: raw.bytes.count) }
            return raw.bytes.withUnsafeBytes { b in (0..<count).map { Int(Int32(littleEndian: b.loadUnaligned(fromByteOffset: 4 * $0, as: Int32.self))) } }
        case .int64:
            guard raw.bytes.count == count * 8 else { throw constantSize(tensor, expected: count * 8, actual: raw.bytes.count) }
            return raw.bytes.withUnsafeBytes { b in (0..<count).map { Int(Int64(littleEndian: b.loadUnaligned(fromByteOffset: 8 * $0, as: Int64.self))) } }
        default:
            throw .unsupportedTensorType(index: op.index, operator: code.name, tensor: tensor, name: t.name, type: raw.type.name)
        }
    }

    /// `(q - zeroPoint) * scale`, per tensor or per channel along the quantized dimension.
    func dequantizeAffine(tensor t: Tensor, bytes: [UInt8], signed: Bool) throws(InterpreterError) -> [Float] {
        guard let q = t.quantization, !q.scale.isEmpty else {
            throw .invalidConstant(tensor: t.index, name: t.name, reason: "integer tensor without quantization scale")
        }
        let zeroPoints = q.zeroPoint.isEmpty ? [0] : q.zeroPoint
        let channels = q.scale.count
        var axisSize = 1, inner = 1
        if channels > 1 {
            guard q.quantizedDimension >= 0, q.quantizedDimension < t.shape.count,
                  t.shape[q.quantizedDimension] == channels, zeroPoints.count == 1 || zeroPoints.count == channels else {
                throw .invalidConstant(tensor: t.index, name: t.name,
                                       reason: "\(channels) scales do not match dimension \(q.quantizedDimension) of \(t.shape)")
            }
            axisSize = channels
            inner = t.shape[(q.quantizedDimension + 1)...].reduce(1, *)
        }
        return bytes.enumerated().map { i, byte in
            let channel = channels > 1 ? (i / inner) % axisSize : 0
            let value = signed ? Int(Int8(bitPattern: byte)) : Int(byte)
            let zero = zeroPoints[zeroPoints.count > 1 ? channel : 0]
            return Float(value - zero) * q.scale[channel]
        }
    }

    /// The node running `kernel` on `inputs` and writing the operator's first output.
    func step(_ kernel: any StepKernel, inputs: [Int], summary: String) -> GraphNode {
        node(.kernel(kernel), inputs: inputs, summary: summary)
    }

    /// The node computing `operation` on `inputs` and writing the operator's first output.
    func node(_ operation: GraphNode.Operation, inputs: [Int], summary: String) -> GraphNode {
        GraphNode(operatorIndex: op.index, operatorName: code.name, operation: operation, inputs: inputs,
                  output: op.outputs[0], summary: summary)
    }
}
