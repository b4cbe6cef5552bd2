import BlazeKernels
import BlazeTFLite

/// The general-purpose operators of the standard model zoo and of YOLO exports: matrix products, softmax,
/// data movement of any rank, broadcasting arithmetic, math functions and reductions.
extension OperatorContext {
    /// A tensor's dimensions, checked: rank ≤ 6, every dimension positive, and its floats within
    /// `Options.maximumArenaBytes`, before any kernel builds tables or plans from its size.
    func dimensions(_ tensor: Int) throws(InterpreterError) -> TensorDimensions {
        let t = graph.tensors[tensor]
        let dimensions: TensorDimensions
        do { dimensions = try TensorDimensions(t.shape, role: "tensor \(tensor) '\(t.name)'") } catch {
            throw invalid(error.description)
        }
        let bytes = dimensions.count.multipliedReportingOverflow(by: MemoryLayout<Float>.size)
        let limit = builder.options.maximumArenaBytes
        guard !bytes.overflow, bytes.partialValue <= limit else {
            throw .arenaTooLarge(bytes: bytes.overflow ? .max : bytes.partialValue, limit: limit)
        }
        return dimensions
    }

    /// Checks that the output tensor's declared shape is `expected` exactly; a dynamic tensor's placeholder
    /// shape is replaced by `expected` instead (`isDynamic`), when the signature's fixed dimensions agree.
    func expectOutput(_ tensor: Int, dimensions expected: [Int]) throws(InterpreterError) {
        let t = graph.tensors[tensor]
        if t.shape != expected, isDynamic(tensor), let signature = t.shapeSignature, signature.count == expected.count,
           zip(signature, expected).allSatisfy({ $0 == -1 || $0 == $1 }) {
            builder.inferredShapes.record(expected, for: tensor)
            return
        }
        guard t.shape == expected else {
            throw .shapeMismatch(index: op.index, operator: code.name, tensor: tensor, name: t.name,
                                 expected: expected, actual: t.shape)
        }
    }

    /// A scalar or one-element constant integer input (an axis).
    func constantScalar(_ tensor: Int, role: String) throws(InterpreterError) -> Int {
        let values = try constantInts(tensor, role: role)
        guard values.count == 1 else { throw invalid("\(role) has \(values.count) values, expected 1") }
        return values[0]
    }

    func lowerFullyConnected() throws -> GraphNode {
        try expectCounts(inputs: 2...3, outputs: 1, optional: [2])
        let o = try options { if case let .fullyConnected(o) = $0 { o } else if case .none = $0 { FullyConnectedOptions(activation: .none) } else { nil } }
        guard o.weightsFormat == 0 else { throw unsupported("weights_format \(o.weightsFormat) (shuffled int8 weights)") }
        let input = op.inputs[0], weights = op.inputs[1]
        try requireFloat32(input)
        let x = try dimensions(input)
        let w = graph.tensors[weights]
        guard w.shape.count == 2, w.shape[0] > 0, w.shape[1] > 0 else {
            throw invalid("weights have shape \(w.shape), expected [outputs, inputs]")
        }
        let (outputs, depth) = (w.shape[0], w.shape[1])
        guard x.count % depth == 0 else {
            throw invalid("input \(x) does not split into rows of the weights' \(depth) inputs")
        }
        let rows = x.count / depth
        let expected = o.keepNumDims ? Array(x.sizes.dropLast()) + [outputs] : [rows, outputs]
        if o.keepNumDims, x.sizes.last != depth {
            throw invalid("keep_num_dims needs the input's last dimension (\(x)) to be the weights' \(depth)")
        }
        try expectOutput(op.outputs[0], dimensions: expected)
        let filter = try constantFloats(weights, role: "weights")
        let bias = op.inputs.count > 2 && op.inputs[2] >= 0 ? try constantFloats(op.inputs[2], role: "bias") : nil
        // The product of the [rows, depth] input and the weights is a 1x1 convolution over a row of `rows` pixels.
        let recipe = try ConvolutionRecipe(
            inputShape: Shape4(n: 1, h: 1, w: rows, c: depth), filterShape: Shape4(n: outputs, h: 1, w: 1, c: depth),
            filter: filter, bias: bias, strideH: 1, strideW: 1, padding: .valid,
            activation: try activation(o.activation), variant: variant)
        return node(.convolution(recipe), inputs: [input], summary: "\(rows)x\(depth) -> \(outputs) \(o.activation)")
    }

    func lowerSoftmax() throws -> GraphNode {
        try expectCounts(inputs: 1, outputs: 1)
        let beta = try options { if case let .softmax(b) = $0 { b } else { nil } }
        try requireFloat32(op.inputs[0])
        let x = try dimensions(op.inputs[0])
        try expectOutput(op.outputs[0], dimensions: x.sizes)
        return step(try Softmax(x, beta: beta), inputs: [op.inputs[0]], summary: "beta \(beta)")
    }

    func lowerTranspose() throws -> GraphNode {
        try expectCounts(inputs: 2, outputs: 1)
        try requireFloat32(op.inputs[0])
        let x = try dimensions(op.inputs[0])
        let permutation = try constantInts(op.inputs[1], role: "permutation")
        let kernel = try IndexedCopy.transpose(x, permutation: permutation)
        try expectOutput(op.outputs[0], dimensions: kernel.output.sizes)
        return step(kernel, inputs: [op.inputs[0]], summary: "\(x) perm \(permutation)")
    }

    /// SLICE: constant `begin` and `size` (-1: to the end).
    func lowerSlice() throws -> GraphNode {
        try expectCounts(inputs: 3, outputs: 1)
        try requireFloat32(op.inputs[0])
        let x = try dimensions(op.inputs[0])
        let begin = try constantInts(op.inputs[1], role: "begin"), size = try constantInts(op.inputs[2], role: "size")
        guard begin.count == x.rank, size.count == x.rank else {
            throw invalid("begin and size have \(begin.count) and \(size.count) values for rank \(x.rank)")
        }
        var axes: [StridedSlice.Axis] = []
        for axis in 0..<x.rank {
            let (start, dimension) = (begin[axis], x.sizes[axis])
            let count = size[axis] == -1 ? dimension - start : size[axis]
            guard start >= 0, count > 0, start + count <= dimension else {
                throw invalid("begin \(begin) and size \(size) reach outside \(x)")
            }
            axes.append(.init(start: start, stride: 1, count: count))
        }
        return try sliceStep(of: op.inputs[0], x, axes: axes, output: op.outputs[0], dropping: nil, summary: "begin \(begin) size \(size)")
    }

    /// One step copying `axes` of the input into `output` (STRIDED_SLICE's kernel), the axis `dropping` removed
    /// from the output's dimensions (UNPACK).
    func sliceStep(of input: Int, _ x: TensorDimensions, axes: [StridedSlice.Axis], output: Int, dropping: Int?,
                   summary: String) throws -> GraphNode {
        var dims = axes.map(\.count)
        if let dropping { dims.remove(at: dropping) }
        try expectOutput(output, dimensions: dims)
        let kernel = try StridedSlice(inputDimensions: x.sizes, axes: axes, outputDimensions: dims.isEmpty ? [1] : dims,
                                      variant: variant)
        return GraphNode(operatorIndex: op.index, operatorName: code.name, operation: .kernel(kernel), inputs: [input],
                         output: output, summary: summary)
    }

    /// SPLIT (axis, value), SPLIT_V (value, size_splits, axis) and UNPACK (value): one slicing step per output.
    func lowerSplit() throws -> [GraphNode] {
        let isSplit = code.builtinCode == .split, isUnpack = code.builtinCode == .unpack
        let count: Int, axisValue: Int
        if isUnpack {
            try expectCounts(inputs: 1...1, outputs: op.outputs.count)
            (count, axisValue) = try options { if case let .unpack(n, a) = $0 { (n, a) } else { nil } }
        } else {
            try expectCounts(inputs: isSplit ? 2...2 : 3...3, outputs: op.outputs.count)
            count = try options { if case let .split(n) = $0 { n } else { nil } }
            axisValue = try constantScalar(op.inputs[isSplit ? 0 : 2], role: "axis")
        }
        let value = op.inputs[isSplit ? 1 : 0]
        try requireFloat32(value)
        let x = try dimensions(value)
        let axis: Int
        do { axis = try x.normalized(axis: axisValue) } catch { throw invalid(error.description) }
        guard count == op.outputs.count, count > 0 else {
            throw invalid("\(op.outputs.count) outputs for \(count) parts")
        }
        let size = x.sizes[axis]
        var sizes: [Int]
        if isUnpack {
            guard size == count else { throw invalid("axis \(axis) of \(x) has \(size) entries, not \(count)") }
            sizes = [Int](repeating: 1, count: count)
        } else if isSplit {
            guard size % count == 0 else { throw invalid("axis \(axis) of \(x) (\(size)) does not split into \(count) equal parts") }
            sizes = [Int](repeating: size / count, count: count)
        } else {
            sizes = try constantInts(op.inputs[1], role: "size_splits")
            let unknown = sizes.indices.filter { sizes[$0] == -1 }
            guard sizes.count == count, unknown.count <= 1, sizes.allSatisfy({ $0 == -1 || $0 > 0 }) else {
                throw invalid("size_splits \(sizes) for \(count) outputs")
            }
            let known = sizes.filter { $0 > 0 }.reduce(0, +)
            if let u = unknown.first { sizes[u] = size - known }
            guard sizes.allSatisfy({ $0 > 0 }), sizes.reduce(0, +) == size else {
                throw invalid("size_splits \(sizes) do not add up to axis \(axis)'s \(size)")
            }
        }
        var steps: [GraphNode] = []
        var start = 0
        for (k, part) in sizes.enumerated() {
            var axes = x.sizes.map { StridedSlice.Axis(start: 0, stride: 1, count: $0) }
            axes[axis] = .init(start: start, stride: 1, count: part)
            steps.append(try sliceStep(of: value, x, axes: axes, output: op.outputs[k], dropping: isUnpack ? axis : nil,
                                       summary: "axis \(axis) [\(start)..<\(start + part)]"))
            start += part
        }
        return steps
    }
}
