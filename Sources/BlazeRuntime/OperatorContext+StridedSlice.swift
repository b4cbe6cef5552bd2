import BlazeKernels
import BlazeTFLite

extension OperatorContext {
    /// STRIDED_SLICE: a float32 input of rank 1...5 and constant int32 begin, end and strides (rank 1, one
    /// entry each per spec position), TFLite's masks and offset flag (`StridedSlice.Masks`). The declared output
    /// shape must be the one the slice produces; mask combinations TFLite does not size consistently are
    /// `unsupportedOption`, and non-constant indices too.
    func lowerStridedSlice() throws -> GraphNode {
        try expectCounts(inputs: 4, outputs: 1)
        let o = try options { if case let .stridedSlice(o) = $0 { o } else if case .none = $0 { StridedSliceOptions() } else { nil } }
        let input = op.inputs[0], output = op.outputs[0]
        try requireFloat32(input)
        let rank = graph.tensors[input].shape.count
        guard (1...5).contains(rank) else { throw invalid("input rank \(rank) is not supported (1...5)") }
        var spec: [[Int]] = []
        for (k, role) in ["begin", "end", "strides"].enumerated() {
            let tensor = graph.tensors[op.inputs[k + 1]]
            guard tensor.shape.count == 1 else { throw invalid("\(role) has shape \(tensor.shape), expected rank 1") }
            let values = try constantInts(tensor.index, role: role)
            guard tensor.type == .int32 else {
                throw InterpreterError.unsupportedTensorType(index: op.index, operator: code.name, tensor: tensor.index,
                                                             name: tensor.name, type: tensor.type.name)
            }
            spec.append(values)
        }
        guard spec[1].count == spec[0].count, spec[2].count == spec[0].count else {
            throw invalid("begin, end and strides have \(spec[0].count), \(spec[1].count) and \(spec[2].count) entries")
        }
        let masks = StridedSlice.Masks(begin: o.beginMask, end: o.endMask, ellipsis: o.ellipsisMask,
                                       newAxis: o.newAxisMask, shrinkAxis: o.shrinkAxisMask, offset: o.offset)
        if let refused = masks.unsupportedCombination(entries: spec[0].count, rank: rank) { throw unsupported(refused) }
        let kernel = try StridedSlice(inputDimensions: graph.tensors[input].shape, begin: spec[0], end: spec[1],
                                      strides: spec[2], masks: masks, variant: variant)
        try expectOutput(output, dimensions: kernel.outputDimensions)
        let axes = kernel.axes.map { "\($0.start):\($0.stride):\($0.count)" }.joined(separator: ", ")
        return step(kernel, inputs: [input], summary: "\(graph.tensors[input].shape) -> \(kernel.outputDimensions) [start:stride:count \(axes)]")
    }
}
