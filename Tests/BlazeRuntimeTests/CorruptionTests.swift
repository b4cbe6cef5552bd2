import BlazeModels
import BlazeRuntime
import BlazeTFLite
import BlazeTestSupport
import Foundation
import Testing


/// Corrupted variants of the six real models: every one must load or throw an `InterpreterError`, never
/// crash or hang, and a variant that loads must survive one `invoke()`.
///
/// The variants are reproducible (seeded). To chase a crash: `BLAZE_FUZZ_VERBOSE=1` prints each variant
/// before it runs, `BLAZE_FUZZ_ONLY=<n>` runs variant n alone, `BLAZE_FUZZ_INVOKES=<n>` invokes up to n
/// loaded variants per model (default 1; useful with `--sanitize=address`).
@Suite("Corrupted models")
struct CorruptionTests {
    enum Mutation: CustomStringConvertible {
        case truncate(Int)
        case flip([(position: Int, mask: UInt8)])
        case word(position: Int, value: UInt32)

        var description: String {
            switch self {
            case let .truncate(length): return "truncate to \(length)"
            case let .flip(flips): return "flip " + flips.map { "\($0.position)^0x\(String($0.mask, radix: 16))" }.joined(separator: ",")
            case let .word(position, value): return "word \(position) = 0x\(String(value, radix: 16))"
            }
        }

        /// Whether the mutation changes a byte in one of `ranges` (a truncation changes everything after it).
        func touches(_ ranges: [Range<Int>]) -> Bool {
            switch self {
            case .truncate: return true
            case let .flip(flips): return flips.contains { flip in ranges.contains { $0.contains(flip.position) } }
            case let .word(position, _): return ranges.contains { $0.overlaps(position..<(position + 4)) }
            }
        }

        func apply(to bytes: [UInt8]) -> [UInt8] {
            switch self {
            case let .truncate(length):
                return Array(bytes[0..<length])
            case let .flip(flips):
                var result = bytes
                for flip in flips { result[flip.position] ^= flip.mask }
                return result
            case let .word(position, value):
                var result = bytes
                for k in 0..<4 { result[position + k] = UInt8(truncatingIfNeeded: value >> (8 * k)) }
                return result
            }
        }
    }

    /// Where the flatbuffer's tables, vtables, vectors and strings are: every byte outside the weight
    /// buffers (which sit in the middle of these files). Corruption there exercises the reader; corruption
    /// of weights only changes numbers.
    struct Layout {
        var size: Int
        /// Sorted, disjoint byte ranges outside the buffers' data.
        var structure: [Range<Int>]
        var structureBytes: Int
        /// Small constant buffers (shapes, paddings, sizes): int32 values the interpreter trusts for shapes.
        var smallBuffers: [Range<Int>]

        init(model: Model) {
            size = model.fileSize
            let data = model.buffers.map(\.range).filter { !$0.isEmpty }.sorted { $0.lowerBound < $1.lowerBound }
            var structure: [Range<Int>] = []
            var cursor = 0
            for range in data {
                if range.lowerBound > cursor { structure.append(cursor..<range.lowerBound) }
                cursor = max(cursor, range.upperBound)
            }
            if cursor < size { structure.append(cursor..<size) }
            self.structure = structure
            structureBytes = structure.reduce(0) { $0 + $1.count }
            smallBuffers = data.filter { $0.count >= 4 && $0.count <= 64 }
        }

        /// A position: mostly in the structure, some in the first 4 KiB and last 16 KiB, some uniform.
        func position(_ rng: inout SplitMix64, width: Int = 1) -> Int {
            let p: Int
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<70:
                var k = Int.random(in: 0..<structureBytes, using: &rng)
                var chosen = 0
                for range in structure {
                    if k < range.count { chosen = range.lowerBound + k; break }
                    k -= range.count
                }
                p = chosen
            case 70..<80: p = Int.random(in: 0..<min(4096, size), using: &rng)
            case 80..<90: p = Int.random(in: max(0, size - 16384)..<size, using: &rng)
            default: p = Int.random(in: 0..<size, using: &rng)
            }
            let aligned = width > 1 ? p / width * width : p
            return min(aligned, size - width)
        }
    }

    static func mutations(layout: Layout, seed: UInt64) -> [Mutation] {
        var rng = SplitMix64(seed: seed)
        let size = layout.size
        var result: [Mutation] = []
        // Truncations: every power of two, the last few bytes, random lengths.
        var length = 1
        while length < size { result.append(.truncate(length)); length *= 2 }
        result += [0, 4, 7, 8, size - 1, size - 4, size - 8].map { .truncate($0) }
        for _ in 0..<30 { result.append(.truncate(Int.random(in: 0..<size, using: &rng))) }
        // Single flipped bytes: half single bits, half random masks.
        for _ in 0..<75 {
            let mask = Bool.random(using: &rng) ? UInt8(1) << UInt8.random(in: 0..<8, using: &rng)
                                                : UInt8.random(in: 1...255, using: &rng)
            result.append(.flip([(layout.position(&rng), mask)]))
        }
        // Several flips at once.
        for _ in 0..<25 {
            let count = Int.random(in: 2...8, using: &rng)
            result.append(.flip((0..<count).map { _ in (layout.position(&rng), UInt8.random(in: 1...255, using: &rng)) }))
        }
        // Aligned words overwritten with boundary values: offsets and counts that point outside the file.
        func boundary(_ rng: inout SplitMix64) -> UInt32 {
            let s = UInt32(truncatingIfNeeded: size)
            let values: [UInt32] = [0, 0xFFFF_FFFF, 0x7FFF_FFFF, 0x8000_0000, s, s &- 4, s &+ 4, 1, 0xFFFF, 0x1_0000]
            return Int.random(in: 0..<4, using: &rng) == 0 ? UInt32.random(in: 0...UInt32.max, using: &rng)
                                                         : values.randomElement(using: &rng)!
        }
        for _ in 0..<40 {
            result.append(.word(position: layout.position(&rng, width: 4), value: boundary(&rng)))
        }
        // Small constant buffers (paddings, resize sizes, reshape shapes) with boundary values.
        if !layout.smallBuffers.isEmpty {
            for _ in 0..<8 {
                let range = layout.smallBuffers.randomElement(using: &rng)!
                let word = range.lowerBound + 4 * Int.random(in: 0..<(range.count / 4), using: &rng)
                let values: [UInt32] = [0, 0xFFFF_FFFF, 0x7FFF_FFFF, 0x8000_0000, 0x1_0000, 0x100_0000, 3, 1000]
                result.append(.word(position: word, value: values.randomElement(using: &rng)!))
            }
        }
        return result
    }

    /// The case name of an error, such as `outOfBounds` (for `invalidModel`, the reader's case).
    static func kind(_ error: InterpreterError) -> String {
        if case let .invalidModel(inner) = error {
            return Mirror(reflecting: inner).children.first?.label ?? "\(inner)"
        }
        return Mirror(reflecting: error).children.first?.label ?? "\(error)"
    }

    /// Most `invoke()` calls per model: a debug-build invoke of these models takes 1 to 7 seconds, and
    /// the variants that load are mostly harmless. `BLAZE_FUZZ_INVOKES=n` raises it (for sanitizer runs).
    static let maximumInvokes = ProcessInfo.processInfo.environment["BLAZE_FUZZ_INVOKES"].flatMap(Int.init) ?? 1

    /// The models, slowest first (the cases run in parallel).
    static let models = [ModelName.fullRangeSparse, .fullRange, .faceMeshFDLite, .back, .iris, .shortRange].map(\.fileName)

    @Test("corrupted variants load or throw InterpreterError, and invoke if they load", arguments: models)
    func corruptedVariants(file: String) throws {
        let original = try TestResources.modelBytes(file)
        let layout = Layout(model: try Model(bytes: original))
        let seed = UInt64(Self.models.firstIndex(of: file)! + 1) &* 0x1234_5678_9ABC_DEF1
        let mutations = Self.mutations(layout: layout, seed: seed)
        let environment = ProcessInfo.processInfo.environment
        let verbose = environment["BLAZE_FUZZ_VERBOSE"] != nil
        // BLAZE_FUZZ_ONLY=n runs variant n alone (of every model).
        let only = environment["BLAZE_FUZZ_ONLY"].flatMap(Int.init)
        let clock = ContinuousClock()
        let start = clock.now

        var loaded = 0, invoked = 0
        var rejected: [String: Int] = [:]
        var slowest: (time: Duration, mutation: String) = (.zero, "")
        var invokeTime = Duration.zero
        for (v, mutation) in mutations.enumerated() where only == nil || only == v {
            if verbose { print("\(file) #\(v): \(mutation)") }
            let bytes = Data(mutation.apply(to: original))
            let loadStart = clock.now
            var interpreter: Interpreter?
            do {
                // Every other variant with two threads: the fusion passes, the chunk planning and the worker
                // pool see the corrupt shapes too.
                interpreter = try Interpreter(modelData: bytes, options: .init(threadCount: v % 2 == 0 ? 1 : 2))
                loaded += 1
            } catch {
                // The initializers throw only InterpreterError (typed throws).
                rejected[Self.kind(error), default: 0] += 1
                if verbose { print("\(file) #\(v) rejected: \(error)") }
                #expect(!error.description.isEmpty)
            }
            // Loading or rejecting is bounded work: the reader has a work budget, and the interpreter
            // checks sizes before it allocates.
            let loadTime = clock.now - loadStart
            if loadTime > slowest.time { slowest = (loadTime, mutation.description) }
            if verbose { print("\(file) #\(v) \(interpreter == nil ? "rejected" : "loaded") in \(loadTime)") }

            // Invoke the variants whose corruption reached the tables (shapes, options, indices) rather
            // than only the weights. Any output, NaN included, is fine; a crash is not.
            guard let interpreter, invoked < Self.maximumInvokes, mutation.touches(layout.structure) else { continue }
            let invokeStart = clock.now
            for index in interpreter.inputs.indices {
                interpreter.withInput(at: index) { $0.update(repeating: 0) }
            }
            interpreter.invoke()
            for index in interpreter.outputs.indices {
                #expect(try interpreter.outputArray(at: index).count == interpreter.outputs[index].elementCount)
            }
            invoked += 1
            invokeTime += clock.now - invokeStart
        }
        let total = clock.now - start
        let summary = rejected.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let name = file.replacingOccurrences(of: "face_detection_", with: "").replacingOccurrences(of: ".tflite", with: "")
        print("\(name): \(mutations.count) variants, \(loaded) loaded (\(invoked) invoked), "
            + "\(rejected.values.reduce(0, +)) rejected (\(summary)) in \(total.formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 1)))); "
            + "slowest load \(slowest.time.formatted(.units(allowed: [.milliseconds]))) (\(slowest.mutation)); "
            + "invoke \(invokeTime.formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 1)))); "
            + "\(layout.structureBytes) of \(layout.size) bytes outside the weights")
        guard only == nil else { return }
        #expect(mutations.count >= 200)
        #expect(loaded + rejected.values.reduce(0, +) == mutations.count)
        #expect(slowest.time < .seconds(15), "\(file): \(slowest.mutation) took \(slowest.time) to load or reject")
    }

    // MARK: Regressions found by the fuzzer

    /// A `RESIZE_BILINEAR` size constant of 2^31 − 1 made the kernel allocate 32 GiB of coordinate tables
    /// before the output shape was checked (a crash). It must be a shape mismatch.
    @Test("a huge RESIZE_BILINEAR size is a shape mismatch, not an allocation",
          arguments: [ModelName.fullRange, .fullRangeSparse].map(\.fileName))
    func hugeResizeSize(file: String) throws {
        let original = try TestResources.modelBytes(file)
        let model = try Model(bytes: original)
        let graph = model.mainSubgraph
        let resizes = graph.operators.filter { model.operatorCode(of: $0).builtinCode == .resizeBilinear }
        try #require(!resizes.isEmpty)
        for op in resizes {
            let size = graph.tensors[op.inputs[1]]
            let range = model.buffers[size.buffer].range
            try #require(range.count == 8, "\(size.name): \(range)")
            for (word, value) in [(0, UInt32(0x7FFF_FFFF)), (1, 0x7FFF_FFFF), (0, 0x8000_0000), (1, 0)] {
                var bytes = original
                for k in 0..<4 { bytes[range.lowerBound + 4 * word + k] = UInt8(truncatingIfNeeded: value >> (8 * k)) }
                let error = #expect(throws: InterpreterError.self) { _ = try Interpreter(modelData: Data(bytes)) }
                guard case let .shapeMismatch(index, name, tensor, _, _, _) = error else {
                    Issue.record("\(file) operator \(op.index) size[\(word)] = \(value): \(String(describing: error))")
                    continue
                }
                #expect(index == op.index && name == "RESIZE_BILINEAR" && tensor == op.outputs[0])
            }
        }
    }

    /// A DEQUANTIZE input whose shape claims ~10^11 elements made the interpreter allocate (and zero) that
    /// many floats before comparing the shape with the buffer size: seconds of work and gigabytes for a
    /// 2^30-element shape, a crash beyond. It must be an invalid constant, at once.
    @Test("a DEQUANTIZE input with a huge shape is an invalid constant, quickly",
          arguments: TestResources.realModelFiles)
    func hugeDequantizeShape(file: String) throws {
        let original = try TestResources.modelBytes(file)
        let model = try Model(bytes: original)
        let graph = model.mainSubgraph
        // A model with an operator the interpreter cannot run yet is checked up to that operator (the
        // interpreter prepares operators in order and stops there).
        var runnable = graph.operators.count
        do { _ = try Interpreter(model: model) } catch {
            if case let .unsupportedOperator(index, _, _) = error { runnable = index }
        }
        // Where each tensor's shape vector is, by walking the (intact) flatbuffer: model.subgraphs[0]
        // .tensors[i].shape.
        func u32(_ p: Int) -> Int { (0..<4).reduce(0) { $0 | Int(original[p + $1]) << (8 * $1) } }
        func field(_ table: Int, _ id: Int) -> Int? {
            let vtable = table - Int(Int32(truncatingIfNeeded: u32(table)))
            let vtableSize = u32(vtable) & 0xFFFF
            guard 4 + 2 * id < vtableSize else { return nil }
            let offset = u32(vtable + 4 + 2 * id) & 0xFFFF
            return offset == 0 ? nil : table + offset
        }
        func follow(_ p: Int) -> Int { p + u32(p) }
        let subgraph = follow(follow(try #require(field(u32(0), 2))) + 4)
        let tensorsVector = follow(try #require(field(subgraph, 0)))
        try #require(u32(tensorsVector) == graph.tensors.count)
        let shapeVectors = (0..<graph.tensors.count).map { i in field(follow(tensorsVector + 4 + 4 * i), 0).map(follow) }
        var exercised = 0, candidates = 0
        for op in graph.operators where op.index < runnable && model.operatorCode(of: op).builtinCode == .dequantize {
            let t = graph.tensors[op.inputs[0]]
            guard !model.buffers[t.buffer].isEmpty, t.sparsity == nil, !t.shape.isEmpty else { continue }
            candidates += 1
            // A shape vector of this tensor alone (writers may share identical vectors).
            guard let vector = shapeVectors[t.index], shapeVectors.filter({ $0 == vector }).count == 1 else { continue }
            try #require(u32(vector) == t.shape.count && u32(vector + 4) == t.shape[0])
            var bytes = original
            let dim = vector + 4
            // As large as the reader allows (2^40 elements in all, at most 2^31 − 2^16 in one dimension).
            let rest = t.shape.dropFirst().reduce(1, *)
            let huge = Int32(min(0x7FFF_0000, (1 << 40) / max(rest, 1)))
            for k in 0..<4 { bytes[dim + k] = UInt8(truncatingIfNeeded: huge >> (8 * k)) }
            let clock = ContinuousClock()
            var error: InterpreterError?
            let elapsed = clock.measure {
                do { _ = try Interpreter(modelData: Data(bytes)) } catch let e { error = e as? InterpreterError }
            }
            guard case let .invalidConstant(tensor, _, reason) = error else {
                Issue.record("\(file) tensor \(t.index) '\(t.name)': \(String(describing: error))")
                continue
            }
            #expect(tensor == t.index)
            #expect(reason.contains("bytes"))
            #expect(elapsed < .seconds(5), "\(file) tensor \(t.index): \(elapsed)")
            exercised += 1
            if exercised == 3 { break }
        }
        print("huge DEQUANTIZE shape, \(file): \(exercised) of \(candidates) constant inputs checked")
        if candidates > 0 { #expect(exercised > 0, "\(file): no DEQUANTIZE input shape found in the file") }
    }
}
