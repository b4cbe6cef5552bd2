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

    /// Integer arithmetic on shapes (`Tensordot`'s `REDUCE_PROD` of a shape, a batch times a size, ...).
    static let integerArithmetic: Set<BuiltinOperator> = [
        .add, .sub, .mul, .div, .floorDiv, .minimum, .maximum, .reduceProd, .sum, .reduceMax, .reduceMin,
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
        if Self.integerArithmetic.contains(c.code.builtinCode), op.outputs.count == 1,
           graph.tensors[op.outputs[0]].type == .int32, op.inputs.allSatisfy({ $0 >= 0 && isConstant($0) }) {
            rawConstants[op.outputs[0]] = (.int32, Self.bytes(ofInt32: try evaluateIntegers(c)))
            return true
        }
        guard Self.integerMovement.contains(c.code.builtinCode), op.outputs.count == 1,
              graph.tensors[op.outputs[0]].type == .int32, op.inputs.allSatisfy({ $0 < 0 || isConstant($0) })
        else { return false }
        var context = c
        context.foldsIntegers = true
        let lowered = try context.lower()
        guard lowered.count == 1, let node = lowered.first else { return false }
        let step: PlannedStep
        do { step = try node.planned() } catch { throw c.kernelFailure(error) }
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

    /// The int32 result of an integer arithmetic operator on constants: broadcasting binary operators, or a
    /// reduction over constant axes. Every result must fit an int32.
    private func evaluateIntegers(_ c: OperatorContext) throws(InterpreterError) -> [Int] {
        let op = c.op, code = c.code.builtinCode
        let output = graph.tensors[op.outputs[0]]
        let a = try c.constantInts(op.inputs[0], role: "operand")
        let aShape = graph.tensors[op.inputs[0]].shape
        var result: [Int] = []
        if [.reduceProd, .sum, .reduceMax, .reduceMin].contains(code) {
            try c.expectCounts(inputs: 2, outputs: 1)
            let rank = aShape.count
            var axes = Set<Int>()
            for axis in try c.constantInts(op.inputs[1], role: "axes") {
                guard axis >= -rank, axis < rank else { throw c.invalid("axis \(axis) is outside rank \(rank)") }
                axes.insert(axis < 0 ? axis + rank : axis)
            }
            let keep = (0..<rank).filter { !axes.contains($0) }
            let count = keep.reduce(1) { $0 * aShape[$1] }
            var values = [Int?](repeating: nil, count: count)
            for (index, value) in a.enumerated() {
                var (rest, target) = (index, 0)
                var multiplier = 1
                for axis in (0..<rank).reversed() {
                    let i = rest % aShape[axis]
                    rest /= aShape[axis]
                    if !axes.contains(axis) {
                        target += i * multiplier
                        multiplier *= aShape[axis]
                    }
                }
                guard let current = values[target] else { values[target] = value; continue }
                switch code {
                case .reduceProd: values[target] = try Self.checked(c, current.multipliedReportingOverflow(by: value))
                case .sum: values[target] = try Self.checked(c, current.addingReportingOverflow(value))
                case .reduceMax: values[target] = max(current, value)
                default: values[target] = min(current, value)
                }
            }
            result = values.map { $0 ?? (code == .reduceProd ? 1 : 0) }
        } else {
            try c.expectCounts(inputs: 2, outputs: 1)
            let b = try c.constantInts(op.inputs[1], role: "operand")
            let bShape = graph.tensors[op.inputs[1]].shape
            let x: [Int], y: [Int], dims: [Int]
            do { (x, y, dims) = try TensorDimensions.broadcast(aShape, bShape) } catch { throw c.kernelFailure(error) }
            let rank = dims.count
            let count = dims.reduce(1, *)
            guard count <= 1 << 16 else { throw c.unsupported("integer arithmetic on \(count) constants") }
            for index in 0..<count {
                var (rest, i, j, si, sj) = (index, 0, 0, 1, 1)
                for axis in (0..<rank).reversed() {
                    let k = rest % dims[axis]
                    rest /= dims[axis]
                    if x[axis] > 1 { i += k * si }
                    if y[axis] > 1 { j += k * sj }
                    si *= x[axis]
                    sj *= y[axis]
                }
                let (u, v) = (a[i], b[j])
                switch code {
                case .add: result.append(try Self.checked(c, u.addingReportingOverflow(v)))
                case .sub: result.append(try Self.checked(c, u.subtractingReportingOverflow(v)))
                case .mul: result.append(try Self.checked(c, u.multipliedReportingOverflow(by: v)))
                case .minimum: result.append(min(u, v))
                case .maximum: result.append(max(u, v))
                default:
                    guard v != 0 else { throw c.invalid("integer division by zero") }
                    // DIV truncates, FLOOR_DIV rounds down, as TFLite's integer kernels do.
                    let (q, r) = u.quotientAndRemainder(dividingBy: v)
                    result.append(code == .floorDiv && r != 0 && (r < 0) != (v < 0) ? q - 1 : q)
                }
            }
        }
        guard result.count == output.elementCount else {
            throw .shapeMismatch(index: op.index, operator: c.code.name, tensor: output.index, name: output.name,
                                 expected: [result.count], actual: output.shape)
        }
        for value in result where Int32(exactly: value) == nil {
            throw c.invalid("integer result \(value) does not fit an int32")
        }
        return result
    }

    private static func checked(_ c: OperatorContext, _ r: (partialValue: Int, overflow: Bool)) throws(InterpreterError) -> Int {
        guard !r.overflow else { throw c.invalid("integer arithmetic overflows") }
        return r.partialValue
    }
}
