import BlazeKernels

/// One step of the plan between lowering and kernel creation: what it computes, before any weights are
/// packed. The fusion passes (`GraphBuilder+Fusion.swift`) rewrite these nodes — an activation, PRELU,
/// HARD_SWISH, SiLU or residual ADD becomes a stage of the producer's `Epilogue`, a PAD its explicit
/// padding — and `GraphBuilder.build()` then creates each kernel once (`planned()`).
struct GraphNode {
    /// What a node computes: the operations the fusion passes rewrite, each with the parameters its kernel
    /// is built from, and any other kernel, built at lowering.
    enum Operation {
        /// CONV_2D, DEPTHWISE_CONV_2D (a CONV_2D of one input channel per group too) or FULLY_CONNECTED.
        case convolution(ConvolutionRecipe)
        /// A same-shape or broadcast ADD (rank ≤ 4).
        case add(Add)
        /// A BlazeBlock shortcut (`fuseResiduals`).
        case shortcut(ResidualAdd)
        case pad(Pad)
        case maxPool(MaxPool2D)
        case prelu(PReLU)
        /// RELU, RELU6 or RELU_N1_TO_1 on its own.
        case activation(Activation)
        /// LOGISTIC, HARD_SWISH, or SiLU (`fuseSiLU`).
        case nonlinearity(Nonlinearity)
        case mul(Mul)
        /// Any other operator's kernel.
        case kernel(any StepKernel)
    }

    var operatorIndex: Int
    var operatorName: String
    var operation: Operation
    var inputs: [Int]
    var output: Int
    /// A one-line description of the parameters, for `blazeface inspect`.
    var summary: String
    /// Other operators this node also runs, by operator index (see `PlannedStep.fusedOperators`).
    var fusedOperators: [Int] = []

    /// Elements of the output.
    var outputCount: Int? {
        switch operation {
        case .convolution(let r): return r.outputShape.count
        case .add(let k): return k.outputShape.count
        case .shortcut(let k): return k.outputShape.count
        default: return nil
        }
    }

    /// The step with its kernel: built here for a convolution (its weights packed) and for the cheap kernels
    /// the passes rebuilt.
    /// - Throws: `KernelError` from a kernel's creation.
    func planned() throws(KernelError) -> PlannedStep {
        let kernel: any StepKernel
        switch operation {
        case .convolution(let recipe): kernel = try recipe.build()
        case .add(let k): kernel = k
        case .shortcut(let k): kernel = k
        case .pad(let k): kernel = k
        case .maxPool(let k): kernel = k
        case .prelu(let k): kernel = k
        case .activation(let k): kernel = k
        case .nonlinearity(let k): kernel = k
        case .mul(let k): kernel = k
        case .kernel(let k): kernel = k
        }
        return PlannedStep(operatorIndex: operatorIndex, operatorName: operatorName, kernel: kernel, inputs: inputs,
                           output: output, summary: summary, fusedOperators: fusedOperators)
    }
}

/// A convolution as lowering checked it, its weights not yet packed: a `Conv2D` (`depthMultiplier` nil) or
/// `DepthwiseConv2D`, whose padding and epilogue the fusion passes may still change.
struct ConvolutionRecipe {
    var inputShape: Shape4
    let filterShape: Shape4
    let filter: [Float]
    let bias: [Float]?
    /// Nil for CONV_2D; the depth multiplier of a depthwise convolution.
    let depthMultiplier: Int?
    let strideH, strideW, dilationH, dilationW: Int
    var padding: Padding
    var epilogue: Epilogue
    let variant: KernelVariant
    /// The output shape, computed as the kernel will.
    let outputShape: Shape4
    /// The epilogue stages (and explicit padding) the kernel's implementation runs.
    let capabilities: Epilogue.Capabilities

    /// Checks the convolution as its kernel's `init` would (shapes, weight counts, strides, output size)
    /// without packing the filter.
    /// - Throws: `KernelError`, as the kernel's `init` does.
    init(
        inputShape: Shape4, filterShape: Shape4, filter: [Float], bias: [Float]?, depthMultiplier: Int? = nil,
        strideH: Int, strideW: Int, dilationH: Int = 1, dilationW: Int = 1, padding: Padding,
        activation: FusedActivation, variant: KernelVariant
    ) throws(KernelError) {
        let geometry: WindowGeometry
        if let depthMultiplier {
            geometry = try DepthwiseConv2D.geometry(
                inputShape: inputShape, filterShape: filterShape, filterCount: filter.count, biasCount: bias?.count,
                depthMultiplier: depthMultiplier, strideH: strideH, strideW: strideW, dilationH: dilationH,
                dilationW: dilationW, padding: padding)
            capabilities = DepthwiseConv2D.capabilities(
                depthMultiplier: depthMultiplier, dilationH: dilationH, dilationW: dilationW, variant: variant)
        } else {
            geometry = try Conv2D.geometry(
                inputShape: inputShape, filterShape: filterShape, filterCount: filter.count, biasCount: bias?.count,
                strideH: strideH, strideW: strideW, dilationH: dilationH, dilationW: dilationW, padding: padding)
            capabilities = Conv2D.capabilities(
                filterShape: filterShape, strideH: strideH, strideW: strideW, dilationH: dilationH,
                dilationW: dilationW, variant: variant)
        }
        (self.inputShape, self.filterShape, self.filter, self.bias) = (inputShape, filterShape, filter, bias)
        (self.depthMultiplier, self.strideH, self.strideW) = (depthMultiplier, strideH, strideW)
        (self.dilationH, self.dilationW, self.padding, self.variant) = (dilationH, dilationW, padding, variant)
        self.epilogue = .clamp(activation)
        let channels = depthMultiplier == nil ? filterShape.n : filterShape.c
        outputShape = Shape4(n: inputShape.n, h: geometry.outH, w: geometry.outW, c: channels)
    }

    /// Whether this is a DEPTHWISE_CONV_2D.
    var isDepthwise: Bool { depthMultiplier != nil }

    /// The kernel, its filter packed.
    /// - Throws: `KernelError` from the kernel's `init`.
    func build() throws(KernelError) -> any StepKernel {
        if let depthMultiplier {
            return try DepthwiseConv2D(
                inputShape: inputShape, filterShape: filterShape, filter: filter, bias: bias,
                depthMultiplier: depthMultiplier, strideH: strideH, strideW: strideW, dilationH: dilationH,
                dilationW: dilationW, padding: padding, epilogue: epilogue, variant: variant)
        }
        return try Conv2D(
            inputShape: inputShape, filterShape: filterShape, filter: filter, bias: bias, strideH: strideH,
            strideW: strideW, dilationH: dilationH, dilationW: dilationW, padding: padding, epilogue: epilogue,
            variant: variant)
    }

    /// This convolution reading `input` with the zero padding of a PAD (`top`, `bottom`, `left`, `right`)
    /// instead of the padded tensor, or nil when it cannot: not VALID, no explicit padding in its kernel, or
    /// a padding not smaller than the kernel or changing the output size.
    func with(paddingOf input: Shape4, top: Int, bottom: Int, left: Int, right: Int) -> ConvolutionRecipe? {
        guard padding == .valid, capabilities.contains(.explicitPadding), input.n == inputShape.n,
              input.c == inputShape.c, input.h + top + bottom == inputShape.h, input.w + left + right == inputShape.w,
              let folded = WindowGeometry(
                  inputH: input.h, inputW: input.w, kernelH: filterShape.h, kernelW: filterShape.w, strideH: strideH,
                  strideW: strideW, dilationH: dilationH, dilationW: dilationW, padTop: top, padBottom: bottom,
                  padLeft: left, padRight: right),
              folded.outH == outputShape.h, folded.outW == outputShape.w else { return nil }
        var copy = self
        copy.inputShape = input
        copy.padding = .explicit(top: top, bottom: bottom, left: left, right: right)
        return copy
    }

    /// This convolution with `epilogue`, or nil when its kernel cannot run it (a slope count not one per
    /// output channel included).
    func with(_ epilogue: Epilogue) -> ConvolutionRecipe? {
        guard capabilities.allow(epilogue), epilogue.slopes.map({ $0.count == outputShape.c }) ?? true else {
            return nil
        }
        var copy = self
        copy.epilogue = epilogue
        return copy
    }
}

extension Add {
    /// This ADD with `epilogue` instead of its own, or nil when its kernel cannot run it.
    func with(_ epilogue: Epilogue) -> Add? {
        try? Add(lhsShape: lhsShape, rhsShape: rhsShape, epilogue: epilogue, variant: variant,
                 instructionSet: instructionSet)
    }
}

extension ResidualAdd {
    /// This shortcut with `epilogue` instead of its own, or nil when its kernel cannot run it.
    func with(_ epilogue: Epilogue) -> ResidualAdd? {
        try? ResidualAdd(shortcutShape: shortcutShape, outputShape: outputShape, pooled: pooled,
                         poolActivation: poolActivation, shortcutFirst: shortcutFirst, epilogue: epilogue,
                         instructionSet: instructionSet)
    }
}
