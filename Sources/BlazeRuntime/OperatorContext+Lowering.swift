import BlazeKernels
import BlazeTFLite

extension OperatorContext {
    /// Creates the kernels for this operator after checking its inputs, options and shapes: one step, or one per
    /// output for SPLIT, SPLIT_V and UNPACK. An operator the engine lacks is `unsupportedOperator` before anything
    /// else is checked.
    func lower() throws(InterpreterError) -> [GraphNode] {
        do {
            let lowering = try self.lowering()
            for output in op.outputs { try requireFloat32(output) }
            return try lowering()
        } catch let error as InterpreterError {
            throw error
        } catch let error as KernelError {
            throw kernelFailure(error)
        } catch {
            throw invalid("\(error)")
        }
    }

    /// The lowering of this operator's code.
    private func lowering() throws(InterpreterError) -> () throws -> [GraphNode] {
        func one(_ lower: @escaping () throws -> GraphNode) -> () throws -> [GraphNode] { { [try lower()] } }
        let rank = op.inputs.filter { $0 >= 0 }.map { graph.tensors[$0].shape.count }.max() ?? 0
        switch code.builtinCode {
        case .split, .splitV, .unpack: return lowerSplit
        case .add where rank > 4, .mul where rank > 4: return one(lowerBinary)
        case .sub, .div, .minimum, .maximum, .squaredDifference: return one(lowerBinary)
        case .exp, .log, .sqrt, .rsqrt, .tanh, .neg, .abs, .gelu, .leakyRelu: return one(lowerUnary)
        case .fullyConnected: return one(lowerFullyConnected)
        case .softmax: return one(lowerSoftmax)
        case .transpose: return one(lowerTranspose)
        case .slice: return one(lowerSlice)
        case .pack: return one(lowerPack)
        case .squeeze, .expandDims: return one(lowerReshaping)
        case .gather: return one(lowerGather)
        case .mirrorPad: return one(lowerMirrorPad)
        case .resizeNearestNeighbor: return one(lowerResizeNearest)
        case .batchMatMul: return one(lowerBatchMatMul)
        case .sum, .reduceMax, .reduceMin, .reduceProd: return one(lowerReduce)
        case .mean where rank > 4: return one(lowerReduce)
        case .conv2D: return one(lowerConv)
        case .depthwiseConv2D: return one(lowerDepthwise)
        case .add: return one(lowerAdd)
        case .mul: return one(lowerMul)
        case .relu, .relu6, .reluN1To1: return one(lowerActivation)
        case .prelu: return one(lowerPReLU)
        case .pad: return one(lowerPad)
        case .maxPool2D, .averagePool2D: return one(lowerPool)
        case .reshape: return one(lowerReshape)
        case .concatenation: return one(lowerConcatenation)
        case .resizeBilinear: return one(lowerResizeBilinear)
        case .depthToSpace: return one(lowerDepthToSpace)
        case .stridedSlice: return one(lowerStridedSlice)
        case .logistic, .hardSwish: return one(lowerNonlinearity)
        case .mean: return one(lowerMean)
        case .custom: return one(lowerCustom)
        default:
            throw InterpreterError.unsupportedOperator(index: op.index, name: code.name, version: code.version)
        }
    }

    /// The options of this operator, or the defaults when the file omits the table.
    func options<T>(_ extract: (BuiltinOptions) -> T?) throws(InterpreterError) -> T {
        guard let value = extract(op.options) else {
            throw invalid("missing or wrong builtin options (\(op.options))")
        }
        return value
    }

    private func lowerConv() throws -> GraphNode {
        let (o, input, filter, inShape, filterShape) = try convolutionOperands {
            if case let .conv2D(o) = $0 { o } else { nil }
        }
        if filterShape.c != inShape.c {
            if filterShape.c == 1, inShape.c > 1, filterShape.n % inShape.c == 0 {
                return try lowerChannelwiseConv(o, input: input, filter: filter, inShape: inShape, filterShape: filterShape)
            }
            if filterShape.c > 0, inShape.c % filterShape.c == 0 {
                throw unsupported("grouped convolution (\(inShape.c) input channels, filter has \(filterShape.c))")
            }
            throw InterpreterError.shapeMismatch(index: op.index, operator: code.name, tensor: filter,
                                                 name: graph.tensors[filter].name,
                                                 expected: [filterShape.n, filterShape.h, filterShape.w, inShape.c],
                                                 actual: graph.tensors[filter].shape)
        }
        let (weights, bias) = try convolutionWeights(filter: filter)
        let recipe = try ConvolutionRecipe(
            inputShape: inShape, filterShape: filterShape, filter: weights, bias: bias,
            strideH: o.strideH, strideW: o.strideW, dilationH: o.dilationH, dilationW: o.dilationW,
            padding: padding(o.padding), activation: try activation(o.activation), variant: variant)
        try expectOutput(op.outputs[0], recipe.outputShape)
        return node(.convolution(recipe), inputs: [input],
                    summary: "\(filterShape.h)x\(filterShape.w)/\(o.strideH) \(inShape.c)->\(filterShape.n) \(o.padding == .same ? "SAME" : "VALID")\(o.dilationH > 1 || o.dilationW > 1 ? " dilation \(o.dilationH)x\(o.dilationW)" : "") \(o.activation)")
    }

    /// A CONV_2D with one group per input channel (a filter of one input channel; Keras 3 writes ConvNeXt's
    /// depthwise layers so) is a DEPTHWISE_CONV_2D: its `[out, h, w, 1]` filter is transposed to `[1, h, w, out]`.
    private func lowerChannelwiseConv(
        _ o: Conv2DOptions, input: Int, filter: Int, inShape: Shape4, filterShape: Shape4
    ) throws -> GraphNode {
        let (weights, bias) = try convolutionWeights(filter: filter)
        let (outputs, taps) = (filterShape.n, filterShape.h * filterShape.w)
        var depthwise = [Float](repeating: 0, count: weights.count)
        for out in 0..<outputs { for tap in 0..<taps { depthwise[tap * outputs + out] = weights[out * taps + tap] } }
        let recipe = try ConvolutionRecipe(
            inputShape: inShape, filterShape: Shape4(n: 1, h: filterShape.h, w: filterShape.w, c: outputs),
            filter: depthwise, bias: bias, depthMultiplier: outputs / inShape.c,
            strideH: o.strideH, strideW: o.strideW, dilationH: o.dilationH, dilationW: o.dilationW,
            padding: padding(o.padding), activation: try activation(o.activation), variant: variant)
        try expectOutput(op.outputs[0], recipe.outputShape)
        return node(.convolution(recipe), inputs: [input],
                    summary: "\(filterShape.h)x\(filterShape.w)/\(o.strideH) \(inShape.c) groups of 1 channel (depthwise) \(o.activation)")
    }

    private func lowerDepthwise() throws -> GraphNode {
        let (o, input, filter, inShape, filterShape) = try convolutionOperands {
            if case let .depthwiseConv2D(o) = $0 { o } else { nil }
        }
        let multiplier = filterShape.c / inShape.c
        guard multiplier > 0, filterShape.c == inShape.c * multiplier else {
            throw invalid("filter has \(filterShape.c) channels, not a multiple of the input's \(inShape.c)")
        }
        if o.depthMultiplier != 0 && o.depthMultiplier != multiplier {
            throw invalid("depth_multiplier \(o.depthMultiplier) disagrees with the filter (\(multiplier))")
        }
        let (weights, bias) = try convolutionWeights(filter: filter)
        let recipe = try ConvolutionRecipe(
            inputShape: inShape, filterShape: filterShape, filter: weights, bias: bias, depthMultiplier: multiplier,
            strideH: o.strideH, strideW: o.strideW, dilationH: o.dilationH, dilationW: o.dilationW,
            padding: padding(o.padding), activation: try activation(o.activation), variant: variant)
        try expectOutput(op.outputs[0], recipe.outputShape)
        return node(.convolution(recipe), inputs: [input],
                    summary: "\(filterShape.h)x\(filterShape.w)/\(o.strideH) x\(multiplier) \(inShape.c) ch \(o.padding == .same ? "SAME" : "VALID") \(o.activation)")
    }

    /// A convolution's (CONV_2D, DEPTHWISE_CONV_2D) options and operands, checked in this order: the input and
    /// output counts (input 2, the bias, optional), the options, a float32 input, the input's and the filter's
    /// 4-D shapes.
    private func convolutionOperands<Options>(
        _ extract: (BuiltinOptions) -> Options?
    ) throws(InterpreterError) -> (options: Options, input: Int, filter: Int, inShape: Shape4, filterShape: Shape4) {
        try expectCounts(inputs: 2...3, outputs: 1, optional: [2])
        let o = try options(extract)
        let input = op.inputs[0], filter = op.inputs[1]
        try requireFloat32(input)
        let inShape = try shape4(input)
        let filterShape = try shape4(filter)
        guard graph.tensors[filter].shape.count == 4 else { throw invalid("filter must have rank 4") }
        return (o, input, filter, inShape, filterShape)
    }

    /// A convolution's constant filter and its bias (input 2) when it has one, as floats.
    private func convolutionWeights(filter: Int) throws(InterpreterError) -> (filter: [Float], bias: [Float]?) {
        let weights = try constantFloats(filter, role: "filter")
        let bias = op.inputs.count > 2 && op.inputs[2] >= 0 ? try constantFloats(op.inputs[2], role: "bias") : nil
        return (weights, bias)
    }

    private func lowerAdd() throws -> GraphNode {
        try expectCounts(inputs: 2, outputs: 1)
        let function = try options { if case let .add(f) = $0 { f } else if case .none = $0 { ActivationFunction.none } else { nil } }
        for input in op.inputs { try requireFloat32(input) }
        let kernel = try Add(lhsShape: try shape4(op.inputs[0]), rhsShape: try shape4(op.inputs[1]),
                             epilogue: .clamp(try activation(function)), variant: variant)
        try expectOutput(op.outputs[0], kernel.outputShape)
        return node(.add(kernel), inputs: op.inputs, summary: "\(function)")
    }

    private func lowerActivation() throws -> GraphNode {
        try expectCounts(inputs: 1, outputs: 1)
        try requireFloat32(op.inputs[0])
        let function: FusedActivation = code.builtinCode == .relu ? .relu : code.builtinCode == .relu6 ? .relu6 : .reluN1To1
        let shape = try shape4(op.inputs[0])
        try expectOutput(op.outputs[0], shape)
        let kernel = try Activation(count: shape.count, function: function, variant: variant)
        return node(.activation(kernel), inputs: op.inputs, summary: "")
    }

    private func lowerPReLU() throws -> GraphNode {
        try expectCounts(inputs: 2, outputs: 1)
        try requireFloat32(op.inputs[0])
        let alpha = try constantFloats(op.inputs[1], role: "alpha")
        let kernel = try PReLU(inputShape: try shape4(op.inputs[0]), alphaShape: try shape4(op.inputs[1]), alpha: alpha,
                               variant: variant)
        try expectOutput(op.outputs[0], kernel.outputShape)
        return node(.prelu(kernel), inputs: [op.inputs[0]], summary: "alpha \(graph.tensors[op.inputs[1]].shape)")
    }

    private func lowerPool() throws -> GraphNode {
        try expectCounts(inputs: 1, outputs: 1)
        let o = try options { if case let .pool2D(o) = $0 { o } else { nil } }
        try requireFloat32(op.inputs[0])
        let inShape = try shape4(op.inputs[0])
        let function = try activation(o.activation)
        let summary = "\(o.filterHeight)x\(o.filterWidth)/\(o.strideH) \(o.padding == .same ? "SAME" : "VALID")"
        if code.builtinCode == .maxPool2D {
            let kernel = try MaxPool2D(inputShape: inShape, filterH: o.filterHeight, filterW: o.filterWidth,
                                       strideH: o.strideH, strideW: o.strideW, padding: padding(o.padding),
                                       activation: function, variant: variant)
            try expectOutput(op.outputs[0], kernel.outputShape)
            return node(.maxPool(kernel), inputs: op.inputs, summary: summary)
        }
        let kernel = try AveragePool2D(inputShape: inShape, filterH: o.filterHeight, filterW: o.filterWidth,
                                       strideH: o.strideH, strideW: o.strideW, padding: padding(o.padding),
                                       activation: function, variant: variant)
        try expectOutput(op.outputs[0], kernel.outputShape)
        return step(kernel, inputs: op.inputs, summary: summary)
    }

    private func lowerReshape() throws -> GraphNode {
        try expectCounts(inputs: 1...2, outputs: 1)
        let input = op.inputs[0], output = op.outputs[0]
        try requireFloat32(input)
        let inCount = graph.tensors[input].elementCount
        let outTensor = graph.tensors[output]
        // The output tensor's declared shape is authoritative; the requested shape (second input or
        // options, possibly with one -1) must agree with it.
        var requested: [Int]? = nil
        if op.inputs.count == 2 { requested = try constantInts(op.inputs[1], role: "shape") }
        else if case let .reshape(newShape) = op.options { requested = newShape }
        if let requested, !requested.isEmpty {
            // A hostile shape's product may overflow: multiply with a check.
            var known = 1
            for size in requested where size != -1 {
                let (product, overflow) = known.multipliedReportingOverflow(by: size)
                guard !overflow else { throw invalid("new shape \(requested) has more elements than an Int counts") }
                known = product
            }
            let wildcards = requested.filter { $0 == -1 }.count
            guard wildcards <= 1, requested.allSatisfy({ $0 >= -1 }), known > 0 || inCount == 0 else {
                throw invalid("invalid new shape \(requested)")
            }
            let resolved = requested.map { $0 == -1 ? inCount / max(known, 1) : $0 }
            guard (wildcards == 1 ? known * resolved[requested.firstIndex(of: -1)!] : known) == inCount else {
                throw InterpreterError.shapeMismatch(index: op.index, operator: code.name, tensor: output, name: outTensor.name,
                                                     expected: resolved, actual: outTensor.shape)
            }
            try expectOutput(output, dimensions: resolved)
            return step(Copy(count: inCount), inputs: [input], summary: "\(graph.tensors[input].shape) -> \(resolved)")
        }
        guard outTensor.elementCount == inCount else {
            throw invalid("output \(outTensor.shape) has \(outTensor.elementCount) elements, input \(graph.tensors[input].shape) has \(inCount)")
        }
        return step(Copy(count: inCount), inputs: [input], summary: "\(graph.tensors[input].shape) -> \(outTensor.shape)")
    }

    private func lowerConcatenation() throws -> GraphNode {
        guard op.inputs.count >= 1 else { throw invalid("has no inputs") }
        try expectCounts(inputs: op.inputs.count...op.inputs.count, outputs: 1)
        let o = try options { if case let .concatenation(o) = $0 { o } else { nil } }
        for input in op.inputs { try requireFloat32(input) }
        let shapes = op.inputs.map { graph.tensors[$0].shape }
        let rank = shapes[0].count
        let axis = o.axis < 0 ? o.axis + rank : o.axis
        guard axis >= 0, axis < rank else { throw invalid("axis \(o.axis) is outside rank \(rank)") }
        let (kernel, dimensions) = try concatenation(shapes, axis: axis, activation: try activation(o.activation))
        try expectOutput(op.outputs[0], dimensions: dimensions)
        return step(kernel, inputs: op.inputs, summary: "axis \(axis), \(op.inputs.count) inputs")
    }

    private func lowerResizeBilinear() throws -> GraphNode {
        try expectCounts(inputs: 2, outputs: 1)
        let o = try options { if case let .resizeBilinear(o) = $0 { o } else if case .none = $0 { ResizeBilinearOptions.default } else { nil } }
        try requireFloat32(op.inputs[0])
        guard graph.tensors[op.inputs[0]].shape.count == 4 else { throw invalid("input must have rank 4") }
        let size = try constantInts(op.inputs[1], role: "size")
        guard size.count == 2 else { throw invalid("size has \(size.count) values, expected 2") }
        if o.alignCorners && o.halfPixelCenters {
            throw unsupported("align_corners together with half_pixel_centers")
        }
        let inShape = try shape4(op.inputs[0])
        // Check the size against the declared output before the kernel builds tables of that size: a
        // corrupt size constant (up to 2^31) must be an error, not a huge allocation.
        try expectOutput(op.outputs[0], Shape4(n: inShape.n, h: size[0], w: size[1], c: inShape.c))
        let kernel = try ResizeBilinear(inputShape: inShape, outputHeight: size[0], outputWidth: size[1],
                                        alignCorners: o.alignCorners, halfPixelCenters: o.halfPixelCenters,
                                        variant: variant)
        try expectOutput(op.outputs[0], kernel.outputShape)
        return step(kernel, inputs: [op.inputs[0]],
                    summary: "\(inShape.h)x\(inShape.w) -> \(size[0])x\(size[1])\(o.alignCorners ? " align_corners" : "")\(o.halfPixelCenters ? " half_pixel_centers" : "")")
    }

    private func lowerDepthToSpace() throws -> GraphNode {
        try expectCounts(inputs: 1, outputs: 1)
        let blockSize = try options { if case let .depthToSpace(b) = $0 { b } else { nil } }
        try requireFloat32(op.inputs[0])
        guard graph.tensors[op.inputs[0]].shape.count == 4 else { throw invalid("input must have rank 4") }
        let kernel = try DepthToSpace(inputShape: try shape4(op.inputs[0]), blockSize: blockSize, variant: variant)
        try expectOutput(op.outputs[0], kernel.outputShape)
        return step(kernel, inputs: op.inputs, summary: "block \(blockSize)")
    }

    private func lowerPad() throws -> GraphNode {
        try expectCounts(inputs: 2...3, outputs: 1)
        try requireFloat32(op.inputs[0])
        let rank = graph.tensors[op.inputs[0]].shape.count
        guard rank >= 1, rank <= 4 else { throw invalid("rank \(rank) is not supported (1...4)") }
        let paddings = try constantInts(op.inputs[1], role: "paddings")
        guard paddings.count == 2 * rank else {
            throw invalid("paddings have \(paddings.count) values, expected \(2 * rank) for rank \(rank)")
        }
        var value: Float = 0
        if op.inputs.count == 3 {
            let values = try constantFloats(op.inputs[2], role: "constant value")
            guard values.count == 1 else { throw invalid("pad value must be a scalar") }
            value = values[0]
        }
        let pairs = (0..<rank).map { (before: paddings[2 * $0], after: paddings[2 * $0 + 1]) }
        let kernel = try Pad(inputShape: graph.tensors[op.inputs[0]].shape, paddings: pairs, constantValue: value,
                             variant: variant)
        try expectOutput(op.outputs[0], dimensions: kernel.outputDimensions)
        return node(.pad(kernel), inputs: [op.inputs[0]], summary: "\(paddings)")
    }
}
