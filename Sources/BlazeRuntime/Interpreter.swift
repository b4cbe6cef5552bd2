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
    private let inputPointers: [UnsafeMutablePointer<Float>]
    private let outputPointers: [UnsafeMutablePointer<Float>]
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

    // MARK: - Inputs

    /// Name, shape and type of input `index`.
    /// - Parameter index: the input's position, `0 ..< inputs.count`.
    /// - Returns: `inputs[index]`.
    /// - Throws: `InterpreterError.invalidTensorIndex` unless `0 <= index < inputs.count`.
    public func input(at index: Int) throws(InterpreterError) -> TensorInfo {
        guard inputs.indices.contains(index) else { throw .invalidTensorIndex(index: index, maxIndex: inputs.count - 1) }
        return inputs[index]
    }

    /// The index of the first input whose tensor is called `name` in the model (as `blazeface inspect`
    /// lists them).
    /// - Parameter name: the tensor's name in the model, such as `input`.
    /// - Returns: a position in `inputs`.
    /// - Throws: `InterpreterError.unknownInputName`, naming the inputs there are.
    public func inputIndex(named name: String) throws(InterpreterError) -> Int {
        guard let index = inputs.firstIndex(where: { $0.name == name }) else {
            throw .unknownInputName(name, available: inputs.map(\.name))
        }
        return index
    }

    /// Name, shape and type of the first input whose tensor is called `name` in the model.
    /// - Parameter name: the tensor's name in the model.
    /// - Returns: its name, shape and type.
    /// - Throws: `InterpreterError.unknownInputName`, naming the inputs there are.
    public func input(named name: String) throws(InterpreterError) -> TensorInfo {
        inputs[try inputIndex(named: name)]
    }

    /// Gives `body` the memory of input `index` to fill in place (float32, the input's shape, C order).
    ///
    /// Errors are `body`'s own, passed through untouched and typed: a body that throws nothing makes this
    /// call throw nothing. That leaves no room for an interpreter error in the same call, so `index` must be
    /// valid, as for an array subscript (a bad one stops the program). An index from outside the program is
    /// checked first with `input(at:)`, and a name is resolved (once, not per frame) with
    /// `inputIndex(named:)`; both throw `InterpreterError`.
    /// - Parameters:
    ///   - index: the input's position, `0 ..< inputs.count`.
    ///   - body: reads or writes the input's `inputs[index].elementCount` floats; the memory is valid only during
    ///     the call.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws, and nothing else.
    /// - Precondition: `0 <= index < inputs.count`.
    public func withInput<R, E: Error>(
        at index: Int, _ body: (UnsafeMutableBufferPointer<Float>) throws(E) -> R
    ) throws(E) -> R {
        precondition(inputs.indices.contains(index), "input index \(index) out of range 0..<\(inputs.count)")
        return try body(UnsafeMutableBufferPointer(start: inputPointers[index], count: inputs[index].elementCount))
    }

    /// Copies float32 values into input `index`.
    /// - Parameters:
    ///   - values: exactly `inputs[index].elementCount` floats, in the input's C order.
    ///   - index: the input's position.
    /// - Throws: `InterpreterError.invalidTensorIndex` for a bad `index`; `InterpreterError.invalidDataCount`
    ///   unless `values` has exactly the input's element count.
    public func copy(_ values: UnsafeBufferPointer<Float>, toInputAt index: Int) throws(InterpreterError) {
        let info = try input(at: index)
        guard values.count == info.elementCount else {
            throw .invalidDataCount(index: index, expected: info.byteCount, actual: values.count * 4)
        }
        if let base = values.baseAddress { inputPointers[index].update(from: base, count: values.count) }
    }

    /// Copies float32 values into input `index`.
    /// - Parameters:
    ///   - values: exactly `inputs[index].elementCount` floats, in the input's C order.
    ///   - index: the input's position.
    /// - Throws: `InterpreterError.invalidTensorIndex` for a bad `index`; `InterpreterError.invalidDataCount`
    ///   unless `values` has exactly the input's element count.
    public func copy(_ values: [Float], toInputAt index: Int) throws(InterpreterError) {
        try values.withUnsafeBufferPointer { (buffer) throws(InterpreterError) in try copy(buffer, toInputAt: index) }
    }

    /// Copies raw bytes (float32, little-endian, C order) into input `index`, as TensorFlowLiteSwift's
    /// `copy(_:toInputAt:)` does.
    /// - Parameters:
    ///   - data: exactly `inputs[index].byteCount` bytes.
    ///   - index: the input's position.
    /// - Throws: `InterpreterError.invalidTensorIndex` for a bad `index`; `InterpreterError.invalidDataCount`
    ///   unless `data` has exactly the input's byte count.
    public func copy(_ data: Data, toInputAt index: Int) throws(InterpreterError) {
        let info = try input(at: index)
        guard data.count == info.byteCount else {
            throw .invalidDataCount(index: index, expected: info.byteCount, actual: data.count)
        }
        data.withUnsafeBytes { raw in
            if let base = raw.baseAddress { UnsafeMutableRawPointer(inputPointers[index]).copyMemory(from: base, byteCount: data.count) }
        }
    }

    // MARK: - Outputs

    /// Name, shape and type of output `index`.
    /// - Parameter index: the output's position, `0 ..< outputs.count`.
    /// - Returns: `outputs[index]`.
    /// - Throws: `InterpreterError.invalidTensorIndex` unless `0 <= index < outputs.count`.
    public func output(at index: Int) throws(InterpreterError) -> TensorInfo {
        guard outputs.indices.contains(index) else { throw .invalidTensorIndex(index: index, maxIndex: outputs.count - 1) }
        return outputs[index]
    }

    /// The index of the first output whose tensor is called `name` in the model (as `blazeface inspect`
    /// lists them), for example `"classificators"` in the BlazeFace detectors.
    /// - Parameter name: the tensor's name in the model, such as `classificators`.
    /// - Returns: a position in `outputs`.
    /// - Throws: `InterpreterError.unknownOutputName`, naming the outputs there are.
    public func outputIndex(named name: String) throws(InterpreterError) -> Int {
        guard let index = outputs.firstIndex(where: { $0.name == name }) else {
            throw .unknownOutputName(name, available: outputs.map(\.name))
        }
        return index
    }

    /// Name, shape and type of the first output whose tensor is called `name` in the model.
    /// - Parameter name: the tensor's name in the model.
    /// - Returns: its name, shape and type.
    /// - Throws: `InterpreterError.unknownOutputName`, naming the outputs there are.
    public func output(named name: String) throws(InterpreterError) -> TensorInfo {
        outputs[try outputIndex(named: name)]
    }

    /// Gives `body` the memory of output `index` (float32, the output's shape, C order), valid until the next
    /// `invoke()`.
    ///
    /// As with `withInput(at:_:)`, errors are `body`'s own, passed through untouched and typed, and `index`
    /// must be valid; check one from outside with `output(at:)`, resolve a name once with
    /// `outputIndex(named:)`.
    /// - Parameters:
    ///   - index: the output's position, `0 ..< outputs.count`.
    ///   - body: reads the output's `outputs[index].elementCount` floats; the memory is valid only during the call.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws, and nothing else.
    /// - Precondition: `0 <= index < outputs.count`.
    public func withOutput<R, E: Error>(
        at index: Int, _ body: (UnsafeBufferPointer<Float>) throws(E) -> R
    ) throws(E) -> R {
        precondition(outputs.indices.contains(index), "output index \(index) out of range 0..<\(outputs.count)")
        return try body(UnsafeBufferPointer(start: outputPointers[index], count: outputs[index].elementCount))
    }

    /// Copies output `index` into `destination`, which must hold exactly the output's element count.
    /// - Parameters:
    ///   - index: the output's position.
    ///   - destination: exactly `outputs[index].elementCount` floats, written in the output's C order.
    /// - Throws: `InterpreterError.invalidTensorIndex` for a bad `index`;
    ///   `InterpreterError.invalidOutputDataCount` when `destination` has another size.
    public func copyOutput(at index: Int, into destination: UnsafeMutableBufferPointer<Float>) throws(InterpreterError) {
        let info = try output(at: index)
        guard destination.count == info.elementCount else {
            throw .invalidOutputDataCount(index: index, expected: info.byteCount, actual: destination.count * 4)
        }
        if let base = destination.baseAddress { base.update(from: outputPointers[index], count: info.elementCount) }
    }

    /// A copy of output `index` as an array (allocates; use `withOutput` or `copyOutput` per frame).
    /// - Parameter index: the output's position.
    /// - Returns: the output's `elementCount` floats, in C order, as of the last `invoke()`.
    /// - Throws: `InterpreterError.invalidTensorIndex` for a bad `index`.
    public func outputArray(at index: Int) throws(InterpreterError) -> [Float] {
        let info = try output(at: index)
        return Array(UnsafeBufferPointer(start: outputPointers[index], count: info.elementCount))
    }

    /// A copy of the first output whose tensor is called `name` (allocates).
    /// - Parameter name: the tensor's name in the model.
    /// - Returns: the output's floats, in C order, as of the last `invoke()`.
    /// - Throws: `InterpreterError.unknownOutputName`, naming the outputs there are.
    public func outputArray(named name: String) throws(InterpreterError) -> [Float] {
        try outputArray(at: try outputIndex(named: name))
    }
}
