import BlazeKernels
import BlazeTFLite

/// Shape arithmetic evaluated at load time. `TFLiteConverter.from_keras_model` writes a dynamic batch as
/// `RESHAPE(x, PACK(STRIDED_SLICE(SHAPE(x)), ...))` on int32 tensors; every shape here is static, so those
/// operators fold to int32 constants and the RESHAPE reads a constant shape.
extension GraphBuilder {
    /// Operators that move int32 constants without arithmetic: their float kernels copy the bits.
    static let integerMovement: Set<BuiltinOperator> = [
        .stridedSlice, .slice, .pack, .concatenation, .reshape, .squeeze, .expandDims, .gather, .transpose,
    ]

    /// Whether tensor `index` holds a constant (in the file, or folded).
    func isConstant(_ index: Int) -> Bool {
        constants[index] != nil || rawConstants[index] != nil || !model.buffers[graph.tensors[index].buffer].isEmpty
    }

    /// Folds `SHAPE`, and a data-movement operator whose inputs are all constant and whose output is int32, into
    /// an int32 constant. Returns whether it did; other operators are left to the lowering.
    mutating func foldIntegers(_ c: OperatorContext) throws(InterpreterError) -> Bool {
        let op = c.op
        if c.code.builtinCode == .shape {
            try c.expectCounts(inputs: 1, outputs: 1)
            let type = try c.options { if case let .shape(t) = $0 { t } else if case .none = $0 { TensorType.int32 } else { nil } }
            let output = graph.tensors[op.outputs[0]]
            guard type == .int32, output.type == .int32 else {
                throw .unsupportedTensorType(index: op.index, operator: c.code.name, tensor: output.index,
                                             name: output.name, type: output.type.name)
            }
            let dimensions = graph.tensors[op.inputs[0]].shape
            try c.expectOutput(output.index, dimensions: [dimensions.count])
            rawConstants[output.index] = (.int32, Self.bytes(ofInt32: dimensions))
            return true
        }
        guard Self.integerMovement.contains(c.code.builtinCode), op.outputs.count == 1,
              graph.tensors[op.outputs[0]].type == .int32, op.inputs.allSatisfy({ $0 < 0 || isConstant($0) })
        else { return false }
        var context = c
        context.foldsIntegers = true
        let lowered = try context.lower()
        guard lowered.count == 1, let step = lowered.first else { return false }
        var inputs: [[Float]] = []
        for input in step.inputs {
            guard let raw = try rawBytes(of: input), raw.type == .int32 || raw.type == .float32,
                  raw.bytes.count == graph.tensors[input].elementCount * 4 else {
                throw c.invalid("input \(input) '\(graph.tensors[input].name)' is not a 32-bit constant")
            }
            inputs.append(raw.bytes.withUnsafeBytes { bytes in
                (0..<bytes.count / 4).map { Float(bitPattern: bytes.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self)) }
            })
        }
        let count = graph.tensors[step.output].elementCount
        try constantBudget.charge(count * 4)
        var result = [Float](repeating: 0, count: max(count, 1))
        Self.withPointers(inputs) { pointers in
            result.withUnsafeMutableBufferPointer { step.kernel.run(inputs: pointers, output: $0.baseAddress!) }
        }
        rawConstants[step.output] = (.int32, result.prefix(count).flatMap { withUnsafeBytes(of: $0.bitPattern.littleEndian, Array.init) })
        return true
    }

    static func bytes(ofInt32 values: [Int]) -> [UInt8] {
        values.flatMap { withUnsafeBytes(of: Int32(truncatingIfNeeded: $0).littleEndian, Array.init) }
    }

    /// Calls `body` with a pointer to each array's elements.
    private static func withPointers(_ arrays: [[Float]], _ body: ([UnsafePointer<Float>]) -> Void) {
        func nest(_ index: Int, _ pointers: [UnsafePointer<Float>]) {
            guard index < arrays.count else { return body(pointers) }
            arrays[index].withUnsafeBufferPointer { nest(index + 1, pointers + [$0.baseAddress!]) }
        }
        nest(0, [])
    }
}
