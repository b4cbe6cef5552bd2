import BlazeKernels

/// One kernel of the execution plan, chosen and prepared at load time.
enum StepKernel: Sendable {
    case conv(Conv2D)
    case depthwise(DepthwiseConv2D)
    case add(Add)
    case activation(Activation)
    case prelu(PReLU)
    case pad(Pad)
    case maxPool(MaxPool2D)
    case averagePool(AveragePool2D)
    case copy(count: Int)
    case concatenation(Concatenation)
    case resizeBilinear(ResizeBilinear)
    case depthToSpace(DepthToSpace)
}

/// A step before memory is planned: the kernel and the tensors it reads and writes.
struct PlannedStep: Sendable {
    var operatorIndex: Int
    var operatorName: String
    var kernel: StepKernel
    var inputs: [Int]
    var output: Int
    /// Multiply-accumulates per run (0 for data movement and elementwise operators).
    var multiplyAccumulates: Int
    /// A one-line description of the parameters, for `blazeface inspect`.
    var summary: String
}

/// A step with its tensors resolved to memory.
struct BoundStep: @unchecked Sendable {
    var kernel: StepKernel
    var inputs: [UnsafePointer<Float>]
    var output: UnsafeMutablePointer<Float>

    /// Runs the kernel. Performs no heap allocation.
    @inline(__always)
    func run() {
        switch kernel {
        case .conv(let k): k.run(input: inputs[0], output: output)
        case .depthwise(let k): k.run(input: inputs[0], output: output)
        case .add(let k): k.run(lhs: inputs[0], rhs: inputs[1], output: output)
        case .activation(let k): k.run(input: inputs[0], output: output)
        case .prelu(let k): k.run(input: inputs[0], output: output)
        case .pad(let k): k.run(input: inputs[0], output: output)
        case .maxPool(let k): k.run(input: inputs[0], output: output)
        case .averagePool(let k): k.run(input: inputs[0], output: output)
        case .copy(let count): output.update(from: inputs[0], count: count)
        case .concatenation(let k):
            inputs.withUnsafeBufferPointer { k.run(inputs: $0, output: output) }
        case .resizeBilinear(let k): k.run(input: inputs[0], output: output)
        case .depthToSpace(let k): k.run(input: inputs[0], output: output)
        }
    }
}
