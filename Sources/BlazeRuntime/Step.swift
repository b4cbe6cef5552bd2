import BlazeKernels
import BlazeTFLite

/// TFLite's RESHAPE: the input's floats copied unchanged (the runtime's only kernel of its own).
struct Copy: UnaryStepKernel {
    /// Floats copied.
    var count: Int

    var planDescription: String { "copy" }

    func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        output.update(from: input, count: count)
    }
}

/// A step before memory is planned: the kernel and the tensors it reads and writes.
struct PlannedStep: Sendable {
    var operatorIndex: Int
    var operatorName: String
    var kernel: any StepKernel
    var inputs: [Int]
    var output: Int
    /// A one-line description of the parameters, for `blazeface inspect`.
    var summary: String
    /// Other operators this step also runs (a fused activation, a BlazeBlock shortcut's PAD and
    /// MAX_POOL_2D, a folded PAD), by operator index.
    var fusedOperators: [Int] = []
}

extension PlannedStep {
    /// Multiply-accumulates per run (0 for data movement and elementwise operators).
    var multiplyAccumulates: Int { kernel.multiplyAccumulates }
}

/// A step with its tensors resolved to memory.
struct BoundStep: @unchecked Sendable {
    var kernel: any StepKernel
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

    /// - Parameter plan: the step's chunks and each thread's share of them (`Interpreter.chunkPlan`); one
    ///   chunk, the whole step, when nil or not a valid split of the kernel's pieces.
    init(kernel: any StepKernel, inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>, plan: ChunkPlan? = nil) {
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
    }

    /// Runs chunk `part`: the pieces `chunkBounds[part] ..< chunkBounds[part + 1]` of the kernel. Performs no
    /// heap allocation.
    @inline(__always)
    func run(part: Int) {
        let pieces = chunkBounds.withUnsafeBufferPointer { $0[part]..<$0[part + 1] }
        kernel.run(inputs: inputs, output: output, pieces: pieces)
    }

    /// Runs the kernel. Performs no heap allocation.
    @inline(__always)
    func run() {
        kernel.run(inputs: inputs, output: output)
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
