import BlazeRuntime
import BlazeTFLite

/// Everything `blazeface inspect` shows about a model: its structure as stored in the file, and the
/// interpreter's execution plan when the model can run (or why it cannot).
struct ModelReport: Encodable {
    /// A model input or output.
    struct Endpoint: Encodable {
        var position: Int
        var tensor: Int
        var name: String
        var shape: [Int]
        var type: String
    }

    /// One input or output tensor of an operator.
    struct Operand: Encodable {
        /// The tensor index, or nil for an omitted optional input (-1 in the file).
        var tensor: Int?
        /// What the operand is for (`w`, `b`, `alpha`, `paddings`, ...), when the operator has named roles.
        var role: String?
        var shape: [Int]
        var type: String
        /// `const` (data in the file), `folded` (a DEQUANTIZE/DENSIFY result computed at load time), or nil.
        var constness: String?
        /// Values of small integer constants (paddings, sizes, shapes), for display.
        var values: [Int]?
    }

    /// One operator, in execution order.
    struct OperatorEntry: Encodable {
        var index: Int
        var name: String
        var version: Int
        /// The operator's builtin options, in the schema's field order.
        var options: [OptionValue]
        var inputs: [Operand]
        var outputs: [Operand]
        /// The kernel the interpreter chose, or nil when the operator is folded or the model cannot run.
        var kernel: String?
        /// Multiply-accumulates per inference (convolutions), when the model can run.
        var multiplyAccumulates: Int?
        /// The operator whose step also runs this one (fused at load time), when the model can run.
        var fusedInto: Int?
    }

    /// One `name=value` option of an operator.
    struct OptionValue: Encodable {
        var name: String
        var value: String
    }

    /// How many operators of one type the model has.
    struct OperatorCount: Encodable {
        var name: String
        var count: Int
    }

    /// The interpreter's execution plan.
    struct Plan: Encodable {
        var steps: Int
        var arenaBytes: Int
        var multiplyAccumulates: Int
        /// DEQUANTIZE and DENSIFY operators computed once at load time instead of per inference.
        var foldedOperators: Int
        /// Operators run inside another operator's step (activations, shortcut PADs and pools, PADs folded
        /// into convolutions).
        var fusedOperators: Int
        /// How many steps use each kernel, most used first.
        var kernels: [OperatorCount]
    }

    var file: String
    var fileSize: Int
    var schemaVersion: UInt32
    var description: String?
    var subgraphCount: Int
    var tensorCount: Int
    var bufferCount: Int
    var inputs: [Endpoint]
    var outputs: [Endpoint]
    var operators: [OperatorEntry]
    var operatorCounts: [OperatorCount]
    /// Bytes of constant data (weights, biases, shapes) referenced by the main subgraph's tensors.
    var weightBytes: Int
    var sparseTensorCount: Int
    /// Present when the interpreter could prepare the model.
    var plan: Plan?
    /// Why the interpreter cannot run the model, when it cannot.
    var error: String?
    /// Every operator type the engine lacks, with the operators of that type, when the model cannot run.
    var missingOperators: [MissingOperator] = []

    /// An operator type the engine does not implement, and where the model uses it.
    struct MissingOperator: Encodable {
        var name: String
        var version: Int
        var operatorIndices: [Int]
    }
}

extension ModelReport {
    /// Builds the report of `model`, read from the file `fileName`; `interpreter` is the model prepared for
    /// running, or the error that prevented it.
    init(fileName: String, model: Model, interpreter: Result<Interpreter, InterpreterError>) {
        let graph = model.mainSubgraph
        let steps = (try? interpreter.get())?.plan ?? []
        let stepsByOperator = Dictionary(steps.map { ($0.operatorIndex, $0) }, uniquingKeysWith: { first, _ in first })
        var fusedInto: [Int: Int] = [:]
        for step in steps { for fused in step.fusedOperators { fusedInto[fused] = step.operatorIndex } }
        let folded = Interpreter.foldedConstants(in: model)

        func endpoint(_ position: Int, _ index: Int) -> Endpoint {
            let t = graph.tensors[index]
            return Endpoint(position: position, tensor: index, name: t.name, shape: t.shape, type: t.type.name)
        }
        func operand(_ index: Int, role: String?) -> Operand {
            guard index >= 0 else { return Operand(tensor: nil, role: role, shape: [], type: "-", constness: nil) }
            let t = graph.tensors[index]
            let inFile = !model.buffers[t.buffer].isEmpty
            return Operand(tensor: index, role: role, shape: t.shape, type: t.type.name,
                           constness: inFile ? "const" : folded.contains(index) ? "folded" : nil,
                           values: inFile ? Self.smallIntegers(model, t) : nil)
        }

        var operators: [OperatorEntry] = []
        var counts: [String: Int] = [:]
        for op in graph.operators {
            let code = model.operatorCode(of: op)
            let roles = OperatorOptions.inputRoles(of: code.builtinCode)
            let step = stepsByOperator[op.index]
            operators.append(OperatorEntry(
                index: op.index, name: code.name, version: code.version,
                options: OperatorOptions.describe(op.options).map { OptionValue(name: $0.name, value: $0.value) },
                inputs: op.inputs.enumerated().map { operand($1, role: $0 < roles.count ? roles[$0] : nil) },
                outputs: op.outputs.map { operand($0, role: nil) },
                kernel: step?.kernel,
                multiplyAccumulates: step.map(\.multiplyAccumulates),
                fusedInto: fusedInto[op.index]))
            counts[code.name, default: 0] += 1
        }

        var weightBuffers = Set<Int>()
        for t in graph.tensors where !model.buffers[t.buffer].isEmpty { weightBuffers.insert(t.buffer) }

        self.file = fileName
        self.fileSize = model.fileSize
        self.schemaVersion = model.version
        self.description = model.description
        self.subgraphCount = model.subgraphs.count
        self.tensorCount = graph.tensors.count
        self.bufferCount = model.buffers.count
        self.inputs = graph.inputs.enumerated().map { endpoint($0, $1) }
        self.outputs = graph.outputs.enumerated().map { endpoint($0, $1) }
        self.operators = operators
        self.operatorCounts = Self.sortedCounts(counts)
        self.weightBytes = weightBuffers.reduce(0) { $0 + model.buffers[$1].count }
        self.sparseTensorCount = graph.tensors.filter { $0.sparsity != nil }.count
        switch interpreter {
        case let .success(interpreter):
            var kernels: [String: Int] = [:]
            for step in steps { kernels[step.kernel, default: 0] += 1 }
            plan = Plan(steps: steps.count, arenaBytes: interpreter.arenaByteCount,
                        multiplyAccumulates: interpreter.multiplyAccumulates,
                        foldedOperators: graph.operators.count - steps.count - fusedInto.count,
                        fusedOperators: fusedInto.count, kernels: Self.sortedCounts(kernels))
            error = nil
        case let .failure(failure):
            plan = nil
            error = failure.description
            var missing: [MissingOperator] = []
            for op in Interpreter.unsupportedOperators(in: model) {
                if let k = missing.firstIndex(where: { $0.name == op.name && $0.version == op.version }) {
                    missing[k].operatorIndices.append(op.index)
                } else {
                    missing.append(MissingOperator(name: op.name, version: op.version, operatorIndices: [op.index]))
                }
            }
            missingOperators = missing
        }
    }

    /// Counts sorted by count (descending), then name.
    private static func sortedCounts(_ counts: [String: Int]) -> [OperatorCount] {
        counts.map { OperatorCount(name: $0.key, count: $0.value) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.name < $1.name }
    }

    /// The values of a dense int32/int64 constant of at most 16 elements (paddings, sizes, shapes).
    private static func smallIntegers(_ model: Model, _ t: Tensor) -> [Int]? {
        guard t.sparsity == nil, t.elementCount <= 16, t.type == .int32 || t.type == .int64 else { return nil }
        let bytes = model.bytes(of: t.buffer)
        let size = t.type == .int32 ? 4 : 8
        guard bytes.count == t.elementCount * size else { return nil }
        return (0..<t.elementCount).map { i in
            t.type == .int32
                ? Int(Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4 * i, as: Int32.self)))
                : Int(Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8 * i, as: Int64.self)))
        }
    }
}
