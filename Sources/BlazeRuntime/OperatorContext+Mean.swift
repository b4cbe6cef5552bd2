import BlazeKernels
import BlazeTFLite

extension OperatorContext {
    /// MEAN: a float32 tensor of rank 1...4 and a constant int32/int64 list of axes (negative ones count from
    /// the end, repeats allowed), ReducerOptions' keep_dims. The output's declared shape must be the input's
    /// with the reduced axes of size 1 (keep_dims) or removed.
    func lowerMean() throws -> GraphNode {
        try expectCounts(inputs: 2, outputs: 1)
        let keepDims = try options { if case let .reducer(k) = $0 { k } else if case .none = $0 { false } else { nil } }
        try requireFloat32(op.inputs[0])
        let dimensions = graph.tensors[op.inputs[0]].shape
        let rank = dimensions.count
        guard (1...4).contains(rank) else { throw invalid("rank \(rank) is not supported (1...4)") }
        var axes = Set<Int>()
        for axis in try constantInts(op.inputs[1], role: "axes") {
            guard (-rank..<rank).contains(axis) else { throw invalid("axis \(axis) is outside rank \(rank)") }
            axes.insert(axis < 0 ? axis + rank : axis)
        }
        let kernel = try Mean(inputShape: try shape4(op.inputs[0]), axes: Set(axes.map { $0 + 4 - rank }),
                              variant: variant)
        let expected = dimensions.indices.compactMap { axes.contains($0) ? (keepDims ? 1 : nil) : dimensions[$0] }
        try expectOutput(op.outputs[0], dimensions: expected)
        return step(kernel, inputs: [op.inputs[0]],
                    summary: "axes \(axes.sorted())\(keepDims ? " keep_dims" : "")")
    }
}
