import BlazeKernels
import BlazeTFLite

/// Operators that move data without arithmetic: PACK, SQUEEZE, EXPAND_DIMS, GATHER, MIRROR_PAD and
/// RESIZE_NEAREST_NEIGHBOR.
extension OperatorContext {
    /// PACK: inputs of one shape stacked along a new axis (a concatenation of the inputs with that axis of 1).
    func lowerPack() throws -> GraphNode {
        let (count, axisValue) = try options { if case let .pack(n, a) = $0 { (n, a) } else { nil } }
        guard count == op.inputs.count, count > 0 else { throw invalid("values_count \(count) for \(op.inputs.count) inputs") }
        try expectCounts(inputs: count...count, outputs: 1)
        for input in op.inputs { try requireFloat32(input) }
        let shape = graph.tensors[op.inputs[0]].shape
        for input in op.inputs where graph.tensors[input].shape != shape {
            throw invalid("inputs have shapes \(shape) and \(graph.tensors[input].shape)")
        }
        let x = try dimensions(op.inputs[0])
        let axis: Int
        do { axis = try x.normalized(axis: axisValue, extra: 1) } catch { throw invalid(error.description) }
        var expanded = shape
        expanded.insert(1, at: axis)
        var expected = shape
        expected.insert(count, at: axis)
        try expectOutput(op.outputs[0], dimensions: expected)
        let (kernel, _) = try concatenation([[Int]](repeating: expanded, count: count), axis: axis, activation: .none)
        return step(kernel, inputs: op.inputs, summary: "axis \(axis), \(count) inputs")
    }

    /// The concatenation of tensors of `shapes` along `axis`, and the output's dimensions. Shapes of rank above 4
    /// are viewed as `[outer, axis, inner]` (the same layout), after checking that they agree off the axis.
    func concatenation(_ shapes: [[Int]], axis: Int, activation: FusedActivation) throws -> (Concatenation, [Int]) {
        let rank = shapes[0].count
        guard rank >= 1, rank <= TensorDimensions.maximumRank else {
            throw invalid("rank \(rank) is not supported (1...\(TensorDimensions.maximumRank))")
        }
        guard rank > 4 else {
            let kernel = try Concatenation(inputShapes: shapes, axis: axis, activation: activation, variant: variant)
            return (kernel, kernel.outputDimensions)
        }
        for shape in shapes {
            guard shape.count == rank, shape.indices.allSatisfy({ $0 == axis || shape[$0] == shapes[0][$0] }) else {
                throw invalid("inputs of shapes \(shapes[0]) and \(shape) differ off axis \(axis)")
            }
            _ = try TensorDimensions(shape, role: "input")
        }
        let (outer, inner) = (shapes[0][..<axis].reduce(1, *), shapes[0][(axis + 1)...].reduce(1, *))
        let kernel = try Concatenation(inputShapes: shapes.map { [outer, $0[axis], inner] }, axis: 1,
                                       activation: activation, variant: variant)
        var dimensions = shapes[0]
        dimensions[axis] = shapes.reduce(0) { $0 + $1[axis] }
        return (kernel, dimensions)
    }

    /// SQUEEZE and EXPAND_DIMS: the data unchanged under a new shape, checked against the options or the axis.
    func lowerReshaping() throws -> GraphNode {
        let input = op.inputs.first ?? -1
        try expectCounts(inputs: code.builtinCode == .squeeze ? 1...1 : 2...2, outputs: 1)
        try requireFloat32(input)
        let shape = graph.tensors[input].shape
        var expected: [Int]
        if code.builtinCode == .squeeze {
            let dims = try options { if case let .squeeze(d) = $0 { d } else if case .none = $0 { [] } else { nil } }
            var removed = Set<Int>()
            for d in dims {
                guard d >= -shape.count, d < shape.count, shape[d < 0 ? d + shape.count : d] == 1 else {
                    throw invalid("squeeze_dims \(dims) do not name dimensions of size 1 in \(shape)")
                }
                removed.insert(d < 0 ? d + shape.count : d)
            }
            expected = shape.indices.filter { dims.isEmpty ? shape[$0] != 1 : !removed.contains($0) }.map { shape[$0] }
        } else {
            let axis = try constantScalar(op.inputs[1], role: "axis")
            guard axis >= -shape.count - 1, axis <= shape.count else {
                throw invalid("axis \(axis) is outside rank \(shape.count + 1)")
            }
            expected = shape
            expected.insert(1, at: axis < 0 ? axis + shape.count + 1 : axis)
        }
        try expectOutput(op.outputs[0], dimensions: expected)
        return step(Copy(count: try dimensions(input).count), inputs: [input], summary: "\(shape) -> \(expected)")
    }

    /// GATHER with constant indices (`batch_dims` 0).
    func lowerGather() throws -> GraphNode {
        try expectCounts(inputs: 2, outputs: 1)
        let (axisValue, batchDims) = try options { if case let .gather(a, b) = $0 { (a, b) } else { nil } }
        guard batchDims == 0 else { throw unsupported("batch_dims \(batchDims)") }
        try requireFloat32(op.inputs[0])
        let x = try dimensions(op.inputs[0])
        let axis: Int
        do { axis = try x.normalized(axis: axisValue) } catch { throw invalid(error.description) }
        let indexShape = graph.tensors[op.inputs[1]].shape
        let indices = try constantInts(op.inputs[1], role: "indices")
        let kernel = try IndexedCopy.gather(x, axis: axis, indices: indices)
        try expectOutput(op.outputs[0], dimensions: Array(x.sizes[..<axis]) + indexShape + Array(x.sizes[(axis + 1)...]))
        return step(kernel, inputs: [op.inputs[0]], summary: "axis \(axis), \(indices.count) indices")
    }

    func lowerMirrorPad() throws -> GraphNode {
        try expectCounts(inputs: 2, outputs: 1)
        let mode = try options { if case let .mirrorPad(m) = $0 { m } else if case .none = $0 { MirrorPadMode.reflect } else { nil } }
        try requireFloat32(op.inputs[0])
        let x = try dimensions(op.inputs[0])
        let paddings = try constantInts(op.inputs[1], role: "paddings")
        guard paddings.count == 2 * x.rank else {
            throw invalid("paddings have \(paddings.count) values, expected \(2 * x.rank) for rank \(x.rank)")
        }
        let kernel = try IndexedCopy.mirrorPad(x, paddings: (0..<x.rank).map { (paddings[2 * $0], paddings[2 * $0 + 1]) },
                                               symmetric: mode == .symmetric)
        try expectOutput(op.outputs[0], dimensions: kernel.output.sizes)
        return step(kernel, inputs: [op.inputs[0]], summary: "\(mode) \(paddings)")
    }

    func lowerResizeNearest() throws -> GraphNode {
        try expectCounts(inputs: 2, outputs: 1)
        let o = try options { if case let .resizeNearestNeighbor(o) = $0 { o } else if case .none = $0 { ResizeBilinearOptions.default } else { nil } }
        try requireFloat32(op.inputs[0])
        let x = try dimensions(op.inputs[0])
        guard x.rank == 4 else { throw invalid("input \(x) must have rank 4") }
        let size = try constantInts(op.inputs[1], role: "size")
        guard size.count == 2 else { throw invalid("size has \(size.count) values, expected 2") }
        // The declared output first: a corrupt size must be an error, not a huge table.
        try expectOutput(op.outputs[0], dimensions: [x.sizes[0], size[0], size[1], x.sizes[3]])
        let kernel = try IndexedCopy.resizeNearest(x, height: size[0], width: size[1], alignCorners: o.alignCorners,
                                                   halfPixelCenters: o.halfPixelCenters)
        return step(kernel, inputs: [op.inputs[0]],
                    summary: "\(kernel.name)\(o.alignCorners ? " align_corners" : "")\(o.halfPixelCenters ? " half_pixel_centers" : "")")
    }
}
