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
    /// Chunk `c` is pieces `chunkBounds[c] ..< chunkBounds[c + 1]` (`parts + 1` ascending bounds from 0 to
    /// `pieceCount`; see `Interpreter.chunkPlan`).
    let chunkBounds: [Int]
    /// Thread `t` of the pool owns chunks `threadStarts[t] ..< threadStarts[t + 1]` (empty when not split).
    let threadStarts: [Int]
    /// The other operand of an ADD fused into a convolution (`Conv2D.hasResidual`), or nil.
    let residual: UnsafePointer<Float>?

    /// - Parameter plan: the step's chunks and each thread's share of them (`Interpreter.chunkPlan`); one
    ///   chunk, the whole step, when nil or not a valid split of the kernel's pieces.
    init(kernel: StepKernel, inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>, plan: ChunkPlan? = nil) {
        self.kernel = kernel
        self.inputs = inputs
        self.output = output
        let pieceCount = kernel.pieceCount
        self.pieceCount = pieceCount
        if let plan, plan.isValid(pieces: pieceCount) {
            chunkBounds = plan.bounds
            threadStarts = plan.threadStarts
        } else {
            chunkBounds = [0, pieceCount]
            threadStarts = []
        }
        self.parts = chunkBounds.count - 1
        if case .conv(let k) = kernel, k.hasResidual { residual = inputs[1] } else { residual = nil }
    }

    /// Runs chunk `part`: the pieces `chunkBounds[part] ..< chunkBounds[part + 1]` of the kernel. Performs no
    /// heap allocation.
    @inline(__always)
    func run(part: Int) {
        let pieces = chunkBounds.withUnsafeBufferPointer { $0[part]..<$0[part + 1] }
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

/// How a step is split for the worker pool: chunks of its pieces, and which thread owns which chunks.
struct ChunkPlan: Equatable, Sendable {
    /// Chunk `c` is pieces `bounds[c] ..< bounds[c + 1]`.
    var bounds: [Int]
    /// Thread `t` owns chunks `threadStarts[t] ..< threadStarts[t + 1]` (`threads + 1` chunk indices).
    var threadStarts: [Int]

    /// Whether the bounds ascend strictly from 0 to `pieces` in at least two chunks, and the thread starts
    /// ascend from chunk 0 to the last.
    func isValid(pieces: Int) -> Bool {
        bounds.count > 2 && bounds.count - 1 <= WorkerPool.maximumParts && bounds.first == 0 && bounds.last == pieces
            && zip(bounds, bounds.dropFirst()).allSatisfy { $0 < $1 }
            && threadStarts.first == 0 && threadStarts.last == bounds.count - 1
            && zip(threadStarts, threadStarts.dropFirst()).allSatisfy { $0 <= $1 }
    }
}

extension Interpreter {
    /// Estimated nanoseconds below which a step runs whole on the calling thread: waking the workers and
    /// waiting for them costs about a microsecond, so splitting smaller steps gains nothing.
    static let minimumSplitNanoseconds = 3_000

    /// Estimated nanoseconds of work below which a chunk is not made smaller.
    static let minimumChunkNanoseconds = 1_500

    /// How step `step` is split for the pool's threads, or nil when it runs whole on the calling thread.
    ///
    /// A step whose estimated duration (`estimatedNanoseconds`) is below `minimumSplitNanoseconds` is not
    /// split. Otherwise each thread gets a near-equal
    /// contiguous share of the pieces (the same rows of every layer, so the data it reads were mostly
    /// written by the same core), cut into chunks that halve towards the end of the share, down to
    /// `minimumChunkNanoseconds`: few claims at the start, and small chunks at the end, where a thread that
    /// has finished its share steals from the others, so that nobody waits long for the last chunk.
    static func chunkPlan(for step: PlannedStep, threads: Int, graph: SubGraph) -> ChunkPlan? {
        chunkPlan(pieces: step.kernel.pieceCount, nanoseconds: estimatedNanoseconds(step, graph: graph), threads: threads)
    }

    /// `chunkPlan(for:threads:graph:)` for a step of `pieces` pieces and an estimated `nanoseconds`.
    static func chunkPlan(pieces: Int, nanoseconds: Int, threads: Int) -> ChunkPlan? {
        guard threads > 1, pieces > 1, nanoseconds >= minimumSplitNanoseconds else { return nil }
        // Smallest chunk, in pieces (at least one); at most `maximumParts` chunks in all.
        let smallest = max((pieces * minimumChunkNanoseconds + nanoseconds - 1) / nanoseconds,
                           (pieces + WorkerPool.maximumParts / 32 - 1) / (WorkerPool.maximumParts / 32), 1)
        var bounds = [0]
        var threadStarts = [0]
        for thread in 0..<threads {
            var start = pieces * thread / threads
            let end = pieces * (thread + 1) / threads
            while start < end {
                let size = max((end - start + 1) / 2, smallest)
                start = min(start + size, end)
                bounds.append(start)
            }
            threadStarts.append(bounds.count - 1)
        }
        return ChunkPlan(bounds: bounds, threadStarts: threadStarts)
    }
}
