import BlazeKernels
import BlazeTFLite

extension Interpreter {
    /// One step of the execution plan, for display (`blazeface inspect`) and profiling.
    public struct StepDescription: Sendable, Equatable {
        /// Index of the TFLite operator this step runs.
        public var operatorIndex: Int
        /// The operator's name, such as `CONV_2D`.
        public var operatorName: String
        /// The kernel and implementation chosen, such as `Conv2D.simd` or `copy`.
        public var kernel: String
        /// Tensor indices read (activations and constants used as activations).
        public var inputs: [Int]
        /// Tensor index written.
        public var output: Int
        /// Shape of the output tensor.
        public var outputShape: [Int]
        /// Multiply-accumulates per run (convolutions only).
        public var multiplyAccumulates: Int
        /// The operator's parameters in a few words.
        public var summary: String
        /// Threads the step is split across (1 when it runs whole on the calling thread: with
        /// `threadCount` 1, for kernels that are not split, and for steps too small to gain from it).
        public var threads: Int = 1
        /// Indices of other operators this step also runs, fused at load time: an activation, a BlazeBlock
        /// shortcut's PAD and MAX_POOL_2D, or a PAD folded into a convolution.
        public var fusedOperators: [Int] = []
        /// For a step of a stretch that runs as independent chains side by side (`runBranchesConcurrently`),
        /// the chain's lane: lane `l` runs on thread `l`, its steps whole and in order. Nil otherwise.
        public var lane: Int? = nil
    }

    /// The steps `invoke()` runs, in order. DEQUANTIZE and DENSIFY of weights are folded at load time and
    /// do not appear.
    public var plan: [StepDescription] {
        var lanes: [Int: Int] = [:]
        for section in sections {
            for (l, lane) in section.lanes.enumerated() { for s in lane { lanes[s] = l } }
        }
        return plannedSteps.indices.map { s in
            let step = plannedSteps[s]
            return StepDescription(
                operatorIndex: step.operatorIndex, operatorName: step.operatorName, kernel: step.kernel.planDescription,
                inputs: step.inputs, output: step.output, outputShape: model.mainSubgraph.tensors[step.output].shape,
                multiplyAccumulates: step.multiplyAccumulates, summary: step.summary,
                threads: lanes[s] == nil ? stepThreads(s) : 1, fusedOperators: step.fusedOperators, lane: lanes[s])
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Interpreter {
    /// Runs the model like `invoke()`, and adds each step's duration in nanoseconds to
    /// `nanoseconds[i]` (same order as `plan`; the buffer must hold at least `plan.count` values).
    /// For profiling (`blazeface-bench --per-op`); performs no heap allocation.
    /// - Parameter nanoseconds: one counter per step of `plan`, in its order; each gets the step's duration added.
    /// - Throws: `InterpreterError.invalidDataCount` when `nanoseconds` holds fewer values than `plan` has steps
    ///   (nothing runs then).
    public func invoke(addingStepNanosecondsTo nanoseconds: UnsafeMutableBufferPointer<UInt64>) throws(InterpreterError) {
        guard nanoseconds.count >= stepCount else {
            throw .invalidDataCount(index: 0, expected: stepCount, actual: nanoseconds.count)
        }
        var start = timespec(), end = timespec()
        for i in 0..<stepCount {
            clock_gettime(CLOCK_MONOTONIC, &start)
            runStep(i)
            clock_gettime(CLOCK_MONOTONIC, &end)
            let elapsed = (Int64(end.tv_sec) - Int64(start.tv_sec)) * 1_000_000_000 + (Int64(end.tv_nsec) - Int64(start.tv_nsec))
            nanoseconds[i] &+= UInt64(max(elapsed, 0))
        }
    }
}
