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
