import BlazeKernels
import BlazeTFLite

/// Turns the main subgraph of a model into planned steps: validates every operator and shape, folds
/// constants (float16/int8 DEQUANTIZE and DENSIFY of weights), and creates each kernel with its packed
/// weights. The only place that knows both TFLite and the kernels.
struct GraphBuilder {
    let model: Model
    /// The main subgraph, with the shapes inferred for dynamic tensors (`inferredShapes`) written in.
    var graph: SubGraph
    let options: Interpreter.Options
    /// Shapes computed for tensors whose declared shape is a placeholder.
    let inferredShapes = InferredShapes()

    /// Float32 values of constant tensors: from the file, or folded at load time.
    var constants: [Int: [Float]] = [:]
    /// Raw bytes of folded non-float32 constants (a DENSIFY result still in float16, say).
    var rawConstants: [Int: (type: TensorType, bytes: [UInt8])] = [:]
    /// Tensors written so far (graph inputs and outputs of earlier operators).
    var produced: Set<Int> = []
    /// The lowered operators, which the fusion passes rewrite (`GraphBuilder+Fusion.swift`).
    var nodes: [GraphNode] = []
    /// The steps with their kernels, built from `nodes` at the end of `build()`.
    var steps: [PlannedStep] = []
    /// The constant bytes derived so far, against `options.maximumConstantBytes`.
    let constantBudget: ConstantBudget

    init(model: Model, options: Interpreter.Options) {
        self.model = model
        self.graph = model.mainSubgraph
        self.options = options
        constantBudget = ConstantBudget(limit: options.maximumConstantBytes)
        produced = Set(graph.inputs)
    }

    mutating func build() throws(InterpreterError) {
        guard graph.operators.count <= options.maximumOperatorCount else {
            throw .tooManyOperators(count: graph.operators.count, limit: options.maximumOperatorCount)
        }
        guard !graph.inputs.isEmpty else { throw .emptyGraph(reason: "the main subgraph has no inputs") }
        guard !graph.outputs.isEmpty else { throw .emptyGraph(reason: "the main subgraph has no outputs") }
        for index in graph.inputs + graph.outputs {
            let t = graph.tensors[index]
            guard t.type == .float32 else {
                throw .unsupportedTensorType(index: -1, operator: "graph input/output", tensor: index, name: t.name,
                                             type: t.type.name)
            }
        }
        for op in graph.operators {
            try lower(op)
        }
        for index in graph.outputs where !produced.contains(index) && constants[index] == nil {
            let t = graph.tensors[index]
            throw .notTopologicallySorted(index: graph.operators.count, operator: "graph output", tensor: index,
                                          name: t.name)
        }
        fuse()
        // Each kernel is built once, after the passes: its weights packed with its final epilogue.
        steps.reserveCapacity(nodes.count)
        for node in nodes {
            do { steps.append(try node.planned()) } catch {
                throw .invalidOperator(index: node.operatorIndex, operator: node.operatorName, reason: error.description)
            }
        }
        nodes = []
        let total = steps.reduce(0) { $0 &+ $1.multiplyAccumulates }
        guard total <= options.maximumMultiplyAccumulates else {
            throw .tooMuchWork(multiplyAccumulates: total, limit: options.maximumMultiplyAccumulates)
        }
    }

    // MARK: - Operators

    mutating func lower(_ op: Operator) throws(InterpreterError) {
        let code = model.operatorCode(of: op)
        let context = OperatorContext(builder: self, op: op, code: code)
        // Every input must exist before this operator runs.
        for input in op.inputs where input >= 0 {
            let isConstant = !model.buffers[graph.tensors[input].buffer].isEmpty
            if !(isConstant || produced.contains(input) || constants[input] != nil || rawConstants[input] != nil) {
                throw .notTopologicallySorted(index: op.index, operator: code.name, tensor: input,
                                              name: graph.tensors[input].name)
            }
        }
        for output in op.outputs where produced.contains(output) || constants[output] != nil {
            throw context.invalid("tensor \(output) '\(graph.tensors[output].name)' is written twice")
        }
        // The operators `Interpreter.foldedConstants(in:)` reports as folded (`Interpreter.foldsConstant`).
        switch code.builtinCode {
        case .dequantize: try foldDequantize(context)
        case .densify: try foldDensify(context)
        default:
            defer { applyInferredShapes() }
            if try foldIntegers(context) { return }
            for node in try context.lower() {
                nodes.append(node)
                produced.insert(node.output)
            }
        }
    }

    /// Writes the shapes the last operator inferred for its dynamic outputs into `graph`, where the next
    /// operators read their inputs' shapes.
    mutating func applyInferredShapes() {
        for (tensor, shape) in inferredShapes.drain() { graph.tensors[tensor].shape = shape }
    }

    // MARK: - Constant folding

    /// DEQUANTIZE of a constant (float16 weights, or int8/uint8 with scale and zero point) becomes a float32
    /// constant at load time.
    mutating func foldDequantize(_ c: OperatorContext) throws(InterpreterError) {
        try c.expectCounts(inputs: 1, outputs: 1)
        let input = c.op.inputs[0], output = c.op.outputs[0]
        try c.requireFloat32(output)
        let t = graph.tensors[input]
        guard let bytes = try rawBytes(of: input) else {
            throw .unsupportedOption(index: c.op.index, operator: c.code.name,
                                     option: "DEQUANTIZE of a non-constant tensor \(input) '\(t.name)'")
        }
        let count = t.elementCount
        guard [.float16, .int8, .uint8, .float32].contains(bytes.type), let elementSize = bytes.type.byteSize else {
            throw .unsupportedTensorType(index: c.op.index, operator: c.code.name, tensor: input, name: t.name, type: t.type.name)
        }
        // Allocate only after the buffer size is checked (a corrupt shape may claim up to 2^40 elements) and the
        // float32 result is within the constant budget.
        guard bytes.bytes.count == count * elementSize else {
            throw c.constantSize(input, expected: count * elementSize, actual: bytes.bytes.count)
        }
        try constantBudget.charge(count * MemoryLayout<Float>.size)
        var values: [Float]
        switch bytes.type {
        case .float16:
            values = [Float](repeating: 0, count: count)
            bytes.bytes.withUnsafeBytes { raw in
                values.withUnsafeMutableBufferPointer { out in
                    if count > 0 { convertFloat16ToFloat32(raw.baseAddress!, count: count, into: out.baseAddress!) }
                }
            }
        case .int8, .uint8:
            values = try c.dequantizeAffine(tensor: t, bytes: bytes.bytes, signed: bytes.type == .int8)
        default:
            values = bytes.bytes.withUnsafeBytes { raw in (0..<count).map { raw.loadUnaligned(fromByteOffset: 4 * $0, as: Float.self) } }
        }
        guard graph.tensors[output].shape == t.shape else {
            throw .shapeMismatch(index: c.op.index, operator: c.code.name, tensor: output,
                                 name: graph.tensors[output].name, expected: t.shape, actual: graph.tensors[output].shape)
        }
        constants[output] = values
    }

    /// DENSIFY of a sparse constant becomes a dense constant of the same type at load time.
    mutating func foldDensify(_ c: OperatorContext) throws(InterpreterError) {
        try c.expectCounts(inputs: 1, outputs: 1)
        let input = c.op.inputs[0], output = c.op.outputs[0]
        let t = graph.tensors[input]
        guard let sparsity = t.sparsity, !model.buffers[t.buffer].isEmpty else {
            throw .unsupportedOption(index: c.op.index, operator: c.code.name,
                                     option: "DENSIFY of tensor \(input) '\(t.name)', which is not a sparse constant")
        }
        guard let elementSize = t.type.byteSize, t.type == .float32 || t.type == .float16 || t.type == .int8 else {
            throw .unsupportedTensorType(index: c.op.index, operator: c.code.name, tensor: input, name: t.name, type: t.type.name)
        }
        let out = graph.tensors[output]
        guard out.type == t.type, out.shape == t.shape else {
            throw .shapeMismatch(index: c.op.index, operator: c.code.name, tensor: output, name: out.name,
                                 expected: t.shape, actual: out.shape)
        }
        // A sparse constant may claim a dense size far beyond what its few stored values justify: bound the
        // dense buffer by the arena limit and by 64 bytes per byte of model file before allocating it.
        let denseBytes = out.elementCount.multipliedReportingOverflow(by: elementSize)
        let limit = min(options.maximumArenaBytes, max(16 << 20, 64 * model.fileSize))
        guard !denseBytes.overflow, denseBytes.partialValue <= limit else {
            throw .invalidSparsity(tensor: input, name: t.name,
                                   reason: "dense shape \(t.shape) needs \(denseBytes.partialValue) bytes, more than the limit of \(limit)")
        }
        try constantBudget.charge(denseBytes.partialValue)
        let densifier = Densifier(shape: t.shape, sparsity: sparsity, elementSize: elementSize)
        let dense: [UInt8]
        do { dense = try densifier.densify(values: model.bytes(of: t.buffer)) } catch {
            guard case let .invalid(reason) = error else { fatalError() }
            throw .invalidSparsity(tensor: input, name: t.name, reason: reason)
        }
        if t.type == .float32 {
            constants[output] = dense.withUnsafeBytes { raw in (0..<out.elementCount).map { raw.loadUnaligned(fromByteOffset: 4 * $0, as: Float.self) } }
        } else {
            rawConstants[output] = (t.type, dense)
        }
    }

    /// The bytes of a constant tensor (from the file, or folded), with its type; nil if not constant. Each
    /// call is a copy for the reading operator, charged to `constantBudget` first.
    func rawBytes(of tensor: Int) throws(InterpreterError) -> (type: TensorType, bytes: [UInt8])? {
        if let folded = rawConstants[tensor] {
            try constantBudget.charge(folded.bytes.count)
            return folded
        }
        if let floats = constants[tensor] {
            try constantBudget.charge(floats.count * MemoryLayout<Float>.size)
            return (.float32, floats.withUnsafeBytes { Array($0) })
        }
        let t = graph.tensors[tensor]
        guard !model.buffers[t.buffer].isEmpty else { return nil }
        if t.sparsity != nil {
            throw .invalidConstant(tensor: tensor, name: t.name, reason: "sparse tensor used without DENSIFY")
        }
        try constantBudget.charge(model.buffers[t.buffer].range.count)
        return (t.type, Array(model.bytes(of: t.buffer)))
    }
}
