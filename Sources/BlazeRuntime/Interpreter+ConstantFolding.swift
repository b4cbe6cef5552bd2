import BlazeTFLite

extension Interpreter {
    /// The tensors of `model`'s main subgraph that an interpreter computes once at load time rather than on every
    /// `invoke()`: the outputs of DEQUANTIZE and DENSIFY operators whose input is a constant, from the file or
    /// itself folded (float16 or int8 weights, sparse weights). This is the rule `Interpreter(model:options:)`
    /// applies when it lowers those operators; a report (`blazeface inspect`) can show it without loading the model.
    ///
    /// Cheap: one pass over the operators, reading no weights.
    /// - Parameter model: a verified model.
    /// - Returns: tensor indices.
    public static func foldedConstants(in model: Model) -> Set<Int> {
        let graph = model.mainSubgraph
        var folded = Set<Int>()
        for op in graph.operators where foldsConstant(model.operatorCode(of: op).builtinCode) {
            guard let input = op.inputs.first, input >= 0 else { continue }
            if !model.buffers[graph.tensors[input].buffer].isEmpty || folded.contains(input) {
                folded.formUnion(op.outputs)
            }
        }
        return folded
    }

    /// Whether operators of this code are folded into constants at load time when their input is constant.
    static func foldsConstant(_ code: BuiltinOperator) -> Bool { code == .dequantize || code == .densify }
}

extension Interpreter {
    /// An operator of a model that this engine does not implement.
    public struct UnsupportedOperator: Sendable, Equatable {
        /// The operator's index in the main subgraph.
        public var index: Int
        /// The schema's name (`FULLY_CONNECTED`, or a custom operator's code).
        public var name: String
        /// The operator code's version.
        public var version: Int
    }

    /// Every operator of `model`'s main subgraph that the engine lacks, not only the first one that
    /// `init(model:options:)` stops at: each operator is lowered on its own, and those refused as unsupported
    /// operators are listed (other defects are reported by `init`).
    ///
    /// - Parameter model: A model read by `Model(path:)` or `Model(bytes:)`.
    /// - Returns: The unsupported operators in execution order; empty when the engine has every one.
    public static func unsupportedOperators(in model: Model) -> [UnsupportedOperator] {
        let builder = GraphBuilder(model: model, options: Options())
        var missing: [UnsupportedOperator] = []
        for op in model.mainSubgraph.operators {
            let code = model.operatorCode(of: op)
            if foldsConstant(code.builtinCode) || code.builtinCode == .shape { continue }
            do { _ = try OperatorContext(builder: builder, op: op, code: code).lower() } catch {
                if case let .unsupportedOperator(index, name, version) = error {
                    missing.append(UnsupportedOperator(index: index, name: name, version: version))
                }
            }
        }
        return missing
    }
}
