import BlazeKernels
import BlazeTFLite
import Foundation

/// Runs a TFLite model on this library's own kernels.
///
/// The lifecycle mirrors TensorFlowLiteSwift's: create the interpreter (which reads and verifies the
/// model, checks every operator and shape, folds constant weights, packs each kernel's weights and plans
/// one arena for all activations), copy data into the inputs, `invoke()`, read the outputs. Unlike
/// TensorFlowLiteSwift, inputs and outputs are accessed in place (`withInput(at:_:)`,
/// `withOutput(at:_:)`), so a frame costs no allocation: `invoke()` never allocates.
///
/// ```swift
/// let interpreter = try Interpreter(modelPath: "Models/face_detection_short_range.tflite")
/// try interpreter.copy(pixels, toInputAt: 0)          // 1x128x128x3 floats in [-1, 1]
/// interpreter.invoke()
/// let scores = try interpreter.outputArray(named: "classificators")  // 896 logits
/// ```
///
/// Thread safety: an interpreter is not thread-safe (its arena is reused by every `invoke()`) and not
/// `Sendable`: use one interpreter per thread, or guard one with a lock as `ModelSession` does. The `Model` it
/// was made from can be shared, and interpreters of their own on one model run side by side, each with its
/// worker threads (`Options.threadCount`).
public final class Interpreter {
    /// The model being run.
    public let model: Model
    /// The options the interpreter was created with.
    public let options: Options
    /// The model's inputs, in order.
    public let inputs: [TensorInfo]
    /// The model's outputs, in order.
    public let outputs: [TensorInfo]
    /// Bytes of the activation arena.
    public let arenaByteCount: Int
    /// Multiply-accumulates of the convolutions in one `invoke()`.
    public let multiplyAccumulates: Int

    let plannedSteps: [PlannedStep]
    private let steps: [BoundStep]
    /// Stretches of `steps` run as side-by-side chains (none with one thread).
    let sections: [ConcurrentSection]
    /// `sections` in the form `invoke()` runs them.
    private let schedule: SectionSchedule
    /// The worker threads (nil with `threadCount` 1).
    private let pool: WorkerPool?
    private let arena: UnsafeMutableRawPointer
    private var constantMemory: [UnsafeMutableBufferPointer<Float>]
    /// Each input's and output's memory in the arena, in `inputs` and `outputs` order (Interpreter+Tensors.swift).
    let inputPointers: [UnsafeMutablePointer<Float>]
    let outputPointers: [UnsafeMutablePointer<Float>]
    /// Per step, how repeated rows pass through it (empty unless `reuseRepeatedRows` applies: one thread).
    private let rowPlan: [StepRows]
    /// Per graph input, its rows and floats per row when it is a batch of one in NHWC, else nil.
    private let inputRowLayouts: [(rows: Int, rowFloats: Int)?]
    /// The bands of each graph input, then of each step's output, during an `invoke()`.
    private let rowBands: UnsafeMutablePointer<RowBands>

    /// Rows of step outputs that the last `invoke()` copied from an identical row instead of computing them
    /// (`Options.reuseRepeatedRows`); 0 when no input had bands of repeated rows.
    public private(set) var repeatedRowsInLastInvoke = 0

    /// Loads the model file at `modelPath`.
    /// - Parameters:
    ///   - modelPath: the `.tflite` file; read once and verified (see `Model.init(path:maximumFileSize:)`).
    ///   - options: threads, kernel variant, load-time limits and fusions.
    /// - Throws: `InterpreterError.invalidModel` when the file is missing or malformed, another
    ///   `InterpreterError` when the model uses something this interpreter does not support.
    public convenience init(modelPath: String, options: Options = Options()) throws(InterpreterError) {
        let model: Model
        do { model = try Model(path: modelPath) } catch { throw .invalidModel(error) }
        try self.init(model: model, options: options)
    }

    /// Loads a model from the bytes of a `.tflite` file.
    /// - Parameters:
    ///   - modelData: the whole `.tflite` file; copied once into aligned storage.
    ///   - options: threads, kernel variant, load-time limits and fusions.
    /// - Throws: `InterpreterError.invalidModel` when the bytes are malformed, another `InterpreterError` when the
    ///   model uses something this interpreter does not support or exceeds a limit of `options`.
    public convenience init(modelData: Data, options: Options = Options()) throws(InterpreterError) {
        // `Data.withUnsafeBytes` rethrows untyped errors, so the typed error travels out in a `Result`.
        let loaded = modelData.withUnsafeBytes { bytes in Result { () throws(TFLiteError) in try Model(bytes: bytes) } }
        let model: Model
        switch loaded {
        case .success(let value): model = value
        case .failure(let error): throw .invalidModel(error)
        }
        try self.init(model: model, options: options)
    }

    /// Prepares an already-read model.
    /// - Parameters:
    ///   - model: a verified model; shared, not copied (its weights are read in place or packed).
    ///   - options: threads, kernel variant, load-time limits and fusions.
    /// - Throws: `InterpreterError.invalidOptions` for options out of range; another `InterpreterError` when the
    ///   model uses an operator, type or shape this interpreter does not support, is not topologically sorted, or
    ///   exceeds a limit of `options`.
    public init(model: Model, options: Options = Options()) throws(InterpreterError) {
        guard (1...Options.maximumThreadCount).contains(options.threadCount) else {
            throw .invalidOptions("threadCount \(options.threadCount) must be from 1 to \(Options.maximumThreadCount)")
        }
        self.model = model
        self.options = options
        // The workers first: nothing else is allocated yet if they cannot start.
        do { pool = options.threadCount > 1 ? try WorkerPool(threadCount: options.threadCount) : nil } catch {
            throw .invalidOptions("threadCount \(options.threadCount): a worker thread could not be started "
                + "(pthread_create error \(error.code))")
        }
        var builder = GraphBuilder(model: model, options: options)
        try builder.build()
        let graph = builder.graph
        plannedSteps = builder.steps
        multiplyAccumulates = plannedSteps.reduce(0) { $0 + $1.multiplyAccumulates }
        let threads = options.threadCount
        let sections = options.runBranchesConcurrently
            ? Interpreter.concurrentSections(steps: plannedSteps, threads: threads, graph: graph) : []
        self.sections = sections
        schedule = SectionSchedule(sections: sections, stepCount: plannedSteps.count, threads: threads)

        // Memory: lifetimes, one arena for the activations, memory of their own for constants read as ones.
        let lifetimes = Interpreter.lifetimes(
            of: plannedSteps, graph: graph, constants: builder.constants, sections: sections)
        let requests = try Interpreter.arenaRequests(lifetimes, graph: graph, limit: options.maximumArenaBytes)
        let allocated = try Interpreter.allocateArena(for: requests, limit: options.maximumArenaBytes)
        var locations = allocated.locations
        do {
            constantMemory = try Interpreter.placeConstantInputs(of: plannedSteps, builder: builder, locations: &locations)
        } catch {
            allocated.arena.deallocate()  // nothing else owns it yet: a failed load must not leak it
            throw error
        }
        (arena, arenaByteCount) = (allocated.arena, allocated.byteCount)

        // Binding: the steps, the graph's inputs and outputs.
        steps = Interpreter.bindSteps(plannedSteps, locations: locations, threads: threads, graph: graph)
        func info(_ index: Int) -> TensorInfo {
            let t = graph.tensors[index]
            return TensorInfo(name: t.name, shape: t.shape, dataType: t.type, tensorIndex: index)
        }
        inputs = graph.inputs.map(info)
        outputs = graph.outputs.map(info)
        inputPointers = graph.inputs.map { locations[$0]! }
        let boundOutputs = Interpreter.bindOutputs(graph: graph, constants: builder.constants, locations: locations)
        outputPointers = boundOutputs.pointers
        constantMemory += boundOutputs.memory

        // Repeated rows, followed on the calling thread only.
        inputRowLayouts = Interpreter.inputRowLayouts(graph: graph)
        rowPlan = Interpreter.repeatedRowsPlan(
            steps: plannedSteps, graph: graph, options: options, inputRowLayouts: inputRowLayouts)
        rowBands = .allocate(capacity: graph.inputs.count + plannedSteps.count)
        rowBands.initialize(repeating: .none, count: graph.inputs.count + plannedSteps.count)
    }

    deinit {
        rowBands.deallocate()
        arena.deallocate()
        for memory in constantMemory { memory.deallocate() }
    }

    // MARK: - Running

    /// Runs the model on the current inputs. Performs no heap allocation and cannot fail: every check was
    /// made when the interpreter was created.
    public func invoke() {
        // Index loop over the buffer: a `for step in steps` iterator allocates in unoptimized builds.
        steps.withUnsafeBufferPointer { buffer in
            guard let pool else {
                if !rowPlan.isEmpty && findRepeatedInputRows() {
                    runReusingRepeatedRows(buffer)
                    return
                }
                repeatedRowsInLastInvoke = 0
                for i in 0..<buffer.count { buffer[i].run() }
                return
            }
            var i = 0
            while i < buffer.count {
                let end = schedule.sectionEnd(startingAt: i)
                if end > i {
                    schedule.run(sectionStartingAt: i, steps: buffer, on: pool)
                    i = end
                } else {
                    Interpreter.run(buffer, i, on: pool)
                    i += 1
                }
            }
        }
    }

    /// Finds the bands of repeated rows of each graph input (`rowBands`); whether there are any.
    private func findRepeatedInputRows() -> Bool {
        var found = false
        for j in 0..<inputPointers.count {
            guard let layout = inputRowLayouts[j] else { rowBands[j] = .none; continue }
            rowBands[j] = RowBands.scan(inputPointers[j], rows: layout.rows, rowFloats: layout.rowFloats)
            found = found || !rowBands[j].isEmpty
        }
        return found
    }

    /// Runs the steps on the calling thread, following the inputs' repeated rows: a step whose output has
    /// bands of rows that repeat (each a function of identical input rows) computes only their first rows.
    private func runReusingRepeatedRows(_ buffer: UnsafeBufferPointer<BoundStep>) {
        let firstStepSlot = inputPointers.count
        var copied = 0
        rowPlan.withUnsafeBufferPointer { plan in
            for i in 0..<buffer.count {
                let p = plan[i]
                var bands = RowBands.none
                if p.inputCount > 0 && p.sources.0 >= 0 {
                    bands = rowBands[p.sources.0].through(p.windows.0, outputRows: p.outputRows)
                    if p.inputCount > 1 {
                        bands = p.sources.1 >= 0
                            ? bands.intersection(rowBands[p.sources.1].through(p.windows.1, outputRows: p.outputRows))
                            : .none
                    }
                }
                rowBands[firstStepSlot + i] = bands
                if bands.isEmpty || !p.runsRows {
                    buffer[i].run()
                } else {
                    buffer[i].run(skipping: bands, rows: p.outputRows, rowFloats: p.rowFloats)
                    copied += bands.repeatedRowCount
                }
            }
        }
        repeatedRowsInLastInvoke = copied
    }

    /// Runs step `index` of `steps`, split across the pool's threads when it was planned so.
    @inline(__always)
    private static func run(_ steps: UnsafeBufferPointer<BoundStep>, _ index: Int, on pool: WorkerPool) {
        let parts = steps[index].parts
        if parts <= 1 {
            steps[index].run()
            return
        }
        let context = UnsafeMutableRawPointer(mutating: steps.baseAddress! + index)
        steps[index].threadStarts.withUnsafeBufferPointer { starts in
            pool.run(parts: parts, threadStarts: starts.baseAddress, job: { context, part, _ in
                context!.assumingMemoryBound(to: BoundStep.self).pointee.run(part: part)
            }, context: context)
        }
    }

    /// Number of steps `invoke()` runs.
    var stepCount: Int { steps.count }

    /// Threads step `index` is split across.
    func stepThreads(_ index: Int) -> Int { steps[index].parts > 1 ? options.threadCount : 1 }

    /// Runs step `index` alone (for profiling), on the pool's threads when it is split; a step of a
    /// concurrent section runs whole on the calling thread, as it does in its lane.
    @inline(__always)
    func runStep(_ index: Int) {
        steps.withUnsafeBufferPointer { buffer in
            if let pool, !schedule.isInSection(index) { Interpreter.run(buffer, index, on: pool) } else { buffer[index].run() }
        }
    }
}
