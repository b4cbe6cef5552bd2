import BlazeKernels
import BlazeTFLite

// The planning phases of `Interpreter.init`, in the order it runs them after lowering the graph
// (`GraphBuilder`): liveness, arena requests, the arena, constants read as activations, binding the steps
// to memory, binding the graph's outputs, and the plan for repeated rows. Each phase is a function of what
// the ones before it produced.

/// When each activation tensor of a plan is alive, in step indices.
struct TensorLifetimes {
    /// Step that first writes each activation (-1 for graph inputs, which the caller writes).
    var first: [Int: Int] = [:]
    /// Step that last reads it (`Int.max` for graph inputs and outputs, which live for the whole run).
    var last: [Int: Int] = [:]
}

extension Interpreter {
    /// Liveness: the lifetime of every tensor that a step reads or writes, except constants. Graph inputs and
    /// outputs live for the whole run; whatever lives during one step of a concurrent section lives during
    /// all of it, since its steps run in any order.
    static func lifetimes(
        of steps: [PlannedStep], graph: SubGraph, constants: [Int: [Float]], sections: [ConcurrentSection]
    ) -> TensorLifetimes {
        var first: [Int: Int] = [:], last: [Int: Int] = [:]
        for input in graph.inputs { first[input] = -1; last[input] = Int.max }
        for (s, step) in steps.enumerated() {
            for input in step.inputs where constants[input] == nil {
                last[input] = max(last[input] ?? s, s)
            }
            if first[step.output] == nil { first[step.output] = s }
            last[step.output] = max(last[step.output] ?? s, s)
        }
        for output in graph.outputs where first[output] != nil { last[output] = Int.max }
        for section in sections {
            let (a, b) = (section.range.lowerBound, section.range.upperBound - 1)
            for (tensor, start) in first where start <= b && (last[tensor] ?? start) >= a {
                first[tensor] = min(start, a)
                last[tensor] = max(last[tensor] ?? start, b)
            }
        }
        return TensorLifetimes(first: first, last: last)
    }

    /// Arena requests: one per tensor with a lifetime (those written by a step, and the graph inputs), in
    /// tensor order, of its float32 bytes.
    /// - Throws: `InterpreterError.arenaTooLarge` as soon as the requests add up to more than `limit` bytes.
    static func arenaRequests(
        _ lifetimes: TensorLifetimes, graph: SubGraph, limit: Int
    ) throws(InterpreterError) -> [ArenaPlanner.Request] {
        var requests: [ArenaPlanner.Request] = []
        var total = 0
        for (tensor, start) in lifetimes.first.sorted(by: { $0.key < $1.key }) {
            let bytes = graph.tensors[tensor].elementCount * MemoryLayout<Float>.size
            total = total.addingReportingOverflow(bytes).partialValue
            guard total <= limit, total >= 0 else { throw .arenaTooLarge(bytes: total, limit: limit) }
            requests.append(.init(tensor: tensor, bytes: bytes, first: start, last: lifetimes.last[tensor] ?? start))
        }
        return requests
    }

    /// The arena: places the requests (`ArenaPlanner`) and allocates them zeroed in one 64-byte-aligned block
    /// (of at least 64 bytes), which the caller deallocates.
    /// - Returns: the block, its planned size, and the address of each requested tensor.
    /// - Throws: `InterpreterError.arenaTooLarge` when the plan needs more than `limit` bytes.
    static func allocateArena(
        for requests: [ArenaPlanner.Request], limit: Int
    ) throws(InterpreterError) -> (arena: UnsafeMutableRawPointer, byteCount: Int, locations: [Int: UnsafeMutablePointer<Float>]) {
        let (offsets, size) = ArenaPlanner.plan(requests)
        guard size <= limit else { throw .arenaTooLarge(bytes: size, limit: limit) }
        let arena = UnsafeMutableRawPointer.allocate(byteCount: max(size, 64), alignment: 64)
        arena.initializeMemory(as: UInt8.self, repeating: 0, count: max(size, 64))
        var locations: [Int: UnsafeMutablePointer<Float>] = [:]
        for (r, request) in requests.enumerated() {
            locations[request.tensor] = (arena + offsets[r]).assumingMemoryBound(to: Float.self)
        }
        return (arena, size, locations)
    }

    /// Constants read by steps as activations (an ADD operand, a concatenated constant): each gets memory of
    /// its own holding its values, added to `locations`. The caller deallocates the returned buffers; on a
    /// throw, none is left allocated.
    /// - Throws: `InterpreterError.notTopologicallySorted` for an input that is neither written before it is
    ///   read nor a constant; `.constantsTooLarge` past `Options.maximumConstantBytes`.
    static func placeConstantInputs(
        of steps: [PlannedStep], builder: GraphBuilder, locations: inout [Int: UnsafeMutablePointer<Float>]
    ) throws(InterpreterError) -> [UnsafeMutableBufferPointer<Float>] {
        let graph = builder.graph
        var memory: [UnsafeMutableBufferPointer<Float>] = []
        for step in steps {
            for input in step.inputs where locations[input] == nil {
                let op = graph.operators[step.operatorIndex]
                let context = OperatorContext(builder: builder, op: op, code: builder.model.operatorCodes[op.opcodeIndex])
                var values: [Float] = []
                do throws(InterpreterError) {
                    if let folded = builder.constants[input] { values = folded } else {
                        values = try context.constantFloats(input, role: "input")
                    }
                } catch {
                    for buffer in memory { buffer.deallocate() }
                    if case .constantsTooLarge = error { throw error }
                    throw .notTopologicallySorted(index: step.operatorIndex, operator: step.operatorName, tensor: input,
                                                  name: graph.tensors[input].name)
                }
                let buffer = allocateFloats(values)
                memory.append(buffer)
                locations[input] = buffer.baseAddress!
            }
        }
        return memory
    }

    /// Binding: each step with its tensors' addresses and, with more than one thread, its split across the
    /// pool (`chunkPlan`).
    static func bindSteps(
        _ steps: [PlannedStep], locations: [Int: UnsafeMutablePointer<Float>], threads: Int, graph: SubGraph
    ) -> [BoundStep] {
        steps.map { step in
            let plan = threads > 1 ? chunkPlan(for: step, threads: threads, graph: graph) : nil
            return BoundStep(kernel: step.kernel, inputs: step.inputs.map { UnsafePointer(locations[$0]!) },
                             output: locations[step.output]!, plan: plan)
        }
    }

    /// The address of each graph output; one that is a constant (no step writes it) is served from memory of
    /// its own, returned for the caller to deallocate.
    static func bindOutputs(
        graph: SubGraph, constants: [Int: [Float]], locations: [Int: UnsafeMutablePointer<Float>]
    ) -> (pointers: [UnsafeMutablePointer<Float>], memory: [UnsafeMutableBufferPointer<Float>]) {
        var pointers: [UnsafeMutablePointer<Float>] = []
        var memory: [UnsafeMutableBufferPointer<Float>] = []
        for output in graph.outputs {
            if let pointer = locations[output] { pointers.append(pointer); continue }
            let buffer = allocateFloats(constants[output] ?? [])
            memory.append(buffer)
            pointers.append(buffer.baseAddress!)
        }
        return (pointers, memory)
    }

    /// Memory of its own holding `values` (at least one float), for the caller to deallocate.
    private static func allocateFloats(_ values: [Float]) -> UnsafeMutableBufferPointer<Float> {
        let memory = UnsafeMutableBufferPointer<Float>.allocate(capacity: max(values.count, 1))
        _ = memory.initialize(from: values)
        return memory
    }

    /// Per graph input, its rows and floats per row when it is a batch of one in NHWC with at least two rows
    /// (an input whose repeated rows are looked for), else nil.
    static func inputRowLayouts(graph: SubGraph) -> [(rows: Int, rowFloats: Int)?] {
        graph.inputs.map { index in
            let shape = graph.tensors[index].shape
            return shape.count == 4 && shape[0] == 1 && shape[1] >= 2 ? (shape[1], shape[2] * shape[3]) : nil
        }
    }

    /// The plan for repeated rows: per step, how the bands of its inputs pass to its output (each kernel's
    /// `rowLocality`), its input bands in slots (graph inputs first, then each step's output). Empty unless
    /// `reuseRepeatedRows` is on, there is one thread (with workers the steps run split as planned) and some
    /// input is looked for (`inputRowLayouts`).
    static func repeatedRowsPlan(
        steps: [PlannedStep], graph: SubGraph, options: Options, inputRowLayouts: [(rows: Int, rowFloats: Int)?]
    ) -> [StepRows] {
        guard options.reuseRepeatedRows && options.threadCount == 1 && inputRowLayouts.contains(where: { $0 != nil })
        else { return [] }
        var slot: [Int: Int] = [:]
        for (j, input) in graph.inputs.enumerated() where slot[input] == nil { slot[input] = j }
        var plan: [StepRows] = []
        for (i, step) in steps.enumerated() {
            plan.append(StepRows(step.kernel.rowLocality, slots: step.inputs.map { slot[$0] }))
            slot[step.output] = graph.inputs.count + i
        }
        return plan
    }
}
