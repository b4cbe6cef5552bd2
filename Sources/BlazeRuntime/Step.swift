import BlazeKernels
import BlazeTFLite

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
    /// MAX_POOL_2D (optional) + PAD + ADD of a BlazeBlock shortcut, fused at load time.
    case residual(ResidualAdd)
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
    /// Other operators this step also runs (a fused activation, a BlazeBlock shortcut's PAD and
    /// MAX_POOL_2D, a folded PAD), by operator index.
    var fusedOperators: [Int] = []
}

extension StepKernel {
    /// Independent pieces of the kernel's output (see `Pieces`); 1 for kernels that are not split.
    var pieceCount: Int {
        switch self {
        case .conv(let k): return k.pieceCount
        case .depthwise(let k): return k.pieceCount
        case .add(let k): return k.pieceCount
        case .activation(let k): return k.pieceCount
        case .prelu(let k): return k.pieceCount
        case .pad(let k): return k.pieceCount
        case .maxPool(let k): return k.pieceCount
        case .residual(let k): return k.pieceCount
        case .averagePool, .copy, .concatenation, .resizeBilinear, .depthToSpace: return 1
        }
    }
}

/// A step with its tensors resolved to memory.
struct BoundStep: @unchecked Sendable {
    var kernel: StepKernel
    var inputs: [UnsafePointer<Float>]
    var output: UnsafeMutablePointer<Float>
    /// `kernel.pieceCount`.
    var pieceCount: Int
    /// Chunks the step is split into, claimed by the pool's threads (1: run whole on the calling thread).
    var parts: Int
    /// The other operand of an ADD fused into a convolution (`Conv2D.hasResidual`), or nil.
    let residual: UnsafePointer<Float>?

    init(kernel: StepKernel, inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>, parts: Int) {
        self.kernel = kernel
        self.inputs = inputs
        self.output = output
        self.pieceCount = kernel.pieceCount
        self.parts = max(min(parts, pieceCount), 1)
        if case .conv(let k) = kernel, k.hasResidual { residual = inputs[1] } else { residual = nil }
    }

    /// Runs part `part` of `parts`: the pieces `Pieces.range(part:of:count:)` of the kernel. Performs no
    /// heap allocation.
    @inline(__always)
    func run(part: Int, of parts: Int) {
        let pieces = Pieces.range(part: part, of: parts, count: pieceCount)
        switch kernel {
        case .conv(let k): k.run(input: inputs[0], residual: residual, output: output, pieces: pieces)
        case .depthwise(let k): k.run(input: inputs[0], output: output, pieces: pieces)
        case .add(let k): k.run(lhs: inputs[0], rhs: inputs[1], output: output, pieces: pieces)
        case .activation(let k): k.run(input: inputs[0], output: output, pieces: pieces)
        case .prelu(let k): k.run(input: inputs[0], output: output, pieces: pieces)
        case .pad(let k): k.run(input: inputs[0], output: output, pieces: pieces)
        case .maxPool(let k): k.run(input: inputs[0], output: output, pieces: pieces)
        case .residual(let k): k.run(shortcut: inputs[0], main: inputs[1], output: output, pieces: pieces)
        default: if part == 0 { run() }
        }
    }

    /// Runs the kernel. Performs no heap allocation.
    @inline(__always)
    func run() {
        switch kernel {
        case .conv(let k): k.run(input: inputs[0], residual: residual, output: output, pieces: 0..<pieceCount)
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
        case .residual(let k): k.run(shortcut: inputs[0], main: inputs[1], output: output)
        }
    }
}

extension Interpreter {
    /// Estimated nanoseconds below which a step runs whole on the calling thread: waking the workers and
    /// waiting for them costs about a microsecond, so splitting smaller steps gains nothing.
    static let minimumSplitNanoseconds = 3_000

    /// Most chunks per thread of a split step: more than one, so that a thread that is late (not yet awake,
    /// or descheduled by a busy machine) leaves its share to the others instead of holding up the step.
    static let chunksPerThread = 4

    /// Estimated nanoseconds of work per chunk below which a step gets fewer chunks: each claim costs a
    /// compare-and-swap on a shared cache line.
    static let nanosecondsPerChunk = 4_000

    /// How many chunks step `step` is split into for the pool's threads to claim: 1 when its estimated
    /// duration (about 20 multiply-accumulates and 4 output floats per nanosecond on one core) is below
    /// `minimumSplitNanoseconds`; otherwise one per `nanosecondsPerChunk` of work, from `threads` to
    /// `threads × chunksPerThread`, and never more than the kernel's pieces.
    static func parts(for step: PlannedStep, threads: Int, graph: SubGraph) -> Int {
        let outputs = graph.tensors[step.output].elementCount
        let nanoseconds = step.multiplyAccumulates / 20 + outputs / 4
        guard nanoseconds >= minimumSplitNanoseconds else { return 1 }
        let chunks = min(max(nanoseconds / nanosecondsPerChunk, threads), threads * chunksPerThread)
        return max(min(chunks, step.kernel.pieceCount, WorkerPool.maximumParts), 1)
    }
}
