extension ModelReport {
    /// The human-readable report printed by `blazeface inspect`.
    var text: String {
        var lines: [String] = []
        lines.append("\(file): \(Format.bytes(fileSize))")
        lines.append("schema version: \(schemaVersion)")
        lines.append("description: \(description.map { "\"\($0)\"" } ?? "(none)")")
        lines.append("subgraphs: \(subgraphCount), tensors: \(tensorCount), buffers: \(bufferCount), operators: \(operators.count)")
        lines.append("")
        lines.append("Inputs")
        lines += endpointLines(inputs)
        lines.append("Outputs")
        lines += endpointLines(outputs)
        lines.append("")
        lines.append("Operators (execution order)")
        for op in operators { lines += operatorLines(op) }
        lines.append("")
        lines.append("Summary")
        lines.append("  tensors: \(tensorCount)")
        lines.append("  operators: \(operators.count)")
        let nameWidth = operatorCounts.map(\.name.count).max() ?? 0
        for count in operatorCounts { lines.append("    \(pad(count.name, nameWidth))  \(count.count)") }
        lines.append("  weight bytes: \(Format.bytes(weightBytes))")
        lines.append("  sparse tensors: \(sparseTensorCount)")
        if let plan {
            lines.append("  multiply-accumulates per inference: \(plan.multiplyAccumulates) (\(Format.scaled(plan.multiplyAccumulates)))")
            lines.append("")
            lines.append("Execution plan")
            lines.append("  steps: \(plan.steps)")
            lines.append("  folded at load time (constants and shape arithmetic): \(plan.foldedOperators)")
            lines.append("  fused into another operator's step: \(plan.fusedOperators)")
            lines.append("  arena: \(Format.bytes(plan.arenaBytes))")
            lines.append("  kernels:")
            let kernelWidth = plan.kernels.map(\.name.count).max() ?? 0
            for kernel in plan.kernels { lines.append("    \(pad(kernel.name, kernelWidth))  \(kernel.count)") }
        } else {
            lines.append("  multiply-accumulates per inference: unknown (the model cannot run)")
            lines.append("")
            lines.append("Execution plan: none, the interpreter cannot run this model (the reason is printed on standard error)")
            if !missingOperators.isEmpty {
                lines.append("")
                lines.append("Operators the engine lacks: \(missingOperators.count) type(s)")
                for missing in missingOperators {
                    let at = missing.operatorIndices.prefix(8).map { "#\($0)" }.joined(separator: ", ")
                    let more = missing.operatorIndices.count > 8 ? ", ..." : ""
                    lines.append("  \(missing.name) v\(missing.version): \(missing.operatorIndices.count) operator(s) (\(at)\(more))")
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    private func endpointLines(_ endpoints: [Endpoint]) -> [String] {
        guard !endpoints.isEmpty else { return ["  (none)"] }
        let nameWidth = endpoints.map(\.name.count).max() ?? 0
        let tensorWidth = endpoints.map { String($0.tensor).count }.max() ?? 0
        return endpoints.map { e in
            "  \(e.position)  tensor \(pad(String(e.tensor), tensorWidth))  \(pad(e.name, nameWidth))  \(Format.shape(e.shape))  \(e.type)"
        }
    }

    private func operatorLines(_ op: OperatorEntry) -> [String] {
        var head = "  \(pad("#\(op.index)", 5)) \(op.name) v\(op.version)"
        if !op.options.isEmpty { head += "  " + op.options.map { "\($0.name)=\($0.value)" }.joined(separator: " ") }
        if let kernel = op.kernel {
            head += "  [\(kernel)"
            if let macs = op.multiplyAccumulates, macs > 0 { head += ", \(macs) MACs (\(Format.scaled(macs)))" }
            head += "]"
        } else if let target = op.fusedInto {
            head += "  [fused into #\(target)]"
        } else if op.name == "DEQUANTIZE" || op.name == "DENSIFY",
                  op.outputs.allSatisfy({ $0.constness == "folded" }) {
            head += "  [folded at load time]"
        }
        let inputs = op.inputs.map(operandText).joined(separator: "  ")
        let outputs = op.outputs.map(operandText).joined(separator: "  ")
        return [head, "        \(inputs)  ->  \(outputs)"]
    }

    private func operandText(_ operand: Operand) -> String {
        let role = operand.role.map { "\($0): " } ?? ""
        guard let tensor = operand.tensor else { return role + "(none)" }
        var text = "\(role)t\(tensor) \(Format.shape(operand.shape))"
        if operand.type != "FLOAT32" { text += " \(operand.type)" }
        if let constness = operand.constness { text += " \(constness)" }
        if let values = operand.values { text += " = \(values)" }
        return text
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
