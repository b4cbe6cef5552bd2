import BlazeTestSupport
import Foundation
import BlazeTFLite
import Testing


/// The verifying reader on malformed files: each defect must be reported as the exact `TFLiteError`
/// case, naming the field path, and never crash or run away.
@Suite("Reader errors")
struct ReaderTests {
    /// The error `Model(bytes:)` throws for `bytes`, or nil if it loads.
    static func error(_ bytes: [UInt8]) -> TFLiteError? {
        do {
            _ = try Model(bytes: bytes)
            return nil
        } catch {
            return error  // typed: `Model.init` throws only TFLiteError
        }
    }

    static func patched<T: FixedWidthInteger>(_ b: FlatBufferBuilder, _ value: T, at position: Int) -> [UInt8] {
        var b = b
        b.patch(value, at: position)
        return b.bytes
    }

    // MARK: The hand-built model itself

    @Test("the hand-built model loads, and flatc reads it the same way")
    func tinyModelLoads() throws {
        let b = FlatBufferBuilder.file(TinyModel.model())
        let model = try Model(bytes: b.bytes)
        #expect(model.version == 3)
        #expect(model.description == "hand-built")
        #expect(model.operatorCodes.map(\.builtinCode) == [.add])
        #expect(model.buffers.count == 2 && model.buffers[1].count == 16)
        let graph = model.mainSubgraph
        #expect(graph.name == "main")
        #expect(graph.tensors.map(\.name) == ["a", "b", "sum"])
        #expect(graph.tensors.map(\.shape) == [[1, 4], [1, 4], [1, 4]])
        #expect(graph.tensors.map(\.buffer) == [0, 1, 0])
        #expect(graph.inputs == [0] && graph.outputs == [2])
        #expect(graph.operators.count == 1)
        #expect(graph.operators[0].inputs == [0, 1] && graph.operators[0].outputs == [2])
        #expect(graph.operators[0].options == .add(activation: .none))
        let weights = model.bytes(of: 1)
        #expect((0..<4).map { weights.loadUnaligned(fromByteOffset: 4 * $0, as: Float.self) } == [1, 2, 3, 4])

        // The builder writes real FlatBuffers: flatc dumps the file with the same contents.
        let directory = try Flatc.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tiny.tflite")
        try Data(b.bytes).write(to: path)
        let json = try Flatc.dump(modelAt: path.path)
        let subgraph = try #require((json["subgraphs"] as? [[String: Any]])?.first)
        #expect((subgraph["tensors"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["a", "b", "sum"])
        #expect(json["description"] as? String == "hand-built")
        // And so does Model(path:).
        let fromPath = try Model(path: path.path)
        #expect(fromPath.subgraphs == model.subgraphs && fromPath.buffers == model.buffers)
    }

    // MARK: Header

    @Test("an empty or 7-byte file is fileTooSmall")
    func tooSmall() {
        #expect(Self.error([]) == .fileTooSmall(size: 0))
        #expect(Self.error([UInt8](repeating: 0, count: 7)) == .fileTooSmall(size: 7))
    }

    @Test("a wrong file identifier is reported with the bytes found")
    func wrongIdentifier() {
        #expect(Self.error([8, 0, 0, 0] + Array("ABCD".utf8)) == .wrongIdentifier(found: "ABCD"))
        #expect(Self.error([8, 0, 0, 0, 0x10, 0x54, 0x46, 0xFF]) == .wrongIdentifier(found: "\\x10TF\\xff"))
        let tfl2 = FlatBufferBuilder.file(TinyModel.model(), identifier: "TFL2")
        let error = Self.error(tfl2.bytes)
        #expect(error == .wrongIdentifier(found: "TFL2"))
        #expect(error?.description.contains("'TFL2'") == true)
        // Eight seeded random bytes: rejected by the identifier, whatever they are.
        var state: UInt64 = 0x1234_5678
        for _ in 0..<50 {
            let bytes = (0..<8).map { _ -> UInt8 in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return UInt8(truncatingIfNeeded: state >> 56)
            }
            guard Array(bytes[4..<8]) != Array("TFL3".utf8) else { continue }
            guard case .wrongIdentifier = Self.error(bytes) else {
                Issue.record("random bytes \(bytes): \(String(describing: Self.error(bytes)))")
                continue
            }
        }
    }

    // MARK: Offsets and vtables

    @Test("a root offset past the end is outOfBounds")
    func rootPastEnd() {
        let b = FlatBufferBuilder.file(TinyModel.model())
        let size = b.bytes.count
        #expect(Self.error(Self.patched(b, UInt32(size + 100), at: 0))
            == .outOfBounds(path: "model", offset: size + 100, length: 0, fileSize: size))
        #expect(Self.error(Self.patched(b, UInt32.max, at: 0))
            == .outOfBounds(path: "model", offset: Int(UInt32.max), length: 0, fileSize: size))
        // The last four bytes: the table's vtable offset fits, its vtable does not.
        #expect(Self.error(Self.patched(b, UInt32(size - 4), at: 0)) != nil)
    }

    @Test("a misaligned root table is misaligned")
    func misalignedRoot() {
        let b = FlatBufferBuilder.file(TinyModel.model())
        #expect(Self.error(Self.patched(b, UInt32(10), at: 0)) == .misaligned(path: "model", offset: 10, alignment: 4))
    }

    @Test("a vtable offset pointing outside the file is outOfBounds")
    func vtableOutside() throws {
        let b = FlatBufferBuilder.file(TinyModel.model())
        let root = Int(b.bytes[0]) | Int(b.bytes[1]) << 8
        // soffset = table - vtable: a large positive value puts the vtable before byte 0 ...
        let before = Self.error(Self.patched(b, Int32(root + 1000), at: root))
        #expect(before == .outOfBounds(path: "model (vtable)", offset: -1000, length: 4, fileSize: b.bytes.count))
        // ... a large negative one past the end.
        let after = Self.error(Self.patched(b, Int32(-b.bytes.count), at: root))
        #expect(after == .outOfBounds(path: "model (vtable)", offset: root + b.bytes.count, length: 4,
                                      fileSize: b.bytes.count))
        #expect(Self.error(Self.patched(b, Int32.min, at: root)) != nil)
        // A vtable of a nested table (a tensor), with its path.
        let labeled = FlatBufferBuilder.file(TinyModel.model(tensors: .vector([
            TinyModel.tensor(), .labeled("t1", TinyModel.tensor(buffer: 1)), TinyModel.tensor(),
        ])))
        let t1 = try #require(labeled.positions["t1"])
        guard case let .outOfBounds(path, _, _, _) = Self.error(Self.patched(labeled, Int32(t1 + 64), at: t1)) else {
            Issue.record("expected outOfBounds")
            return
        }
        #expect(path == "model.subgraphs[0].tensors[1] (vtable)")
    }

    @Test("a field offset past the table's size is invalidVTable")
    func fieldPastTable() throws {
        let b = FlatBufferBuilder.file(TinyModel.model(tensors: .vector([
            TinyModel.tensor(), .labeled("t1", TinyModel.tensor(buffer: 1)), TinyModel.tensor(),
        ])))
        let vtable = try #require(b.vtables["t1"])
        // Slot of field 2 (buffer): 4 + 2 * 2.
        let error = Self.error(Self.patched(b, UInt16(200), at: vtable + 8))
        guard case let .invalidVTable(path, offset, reason) = error else {
            Issue.record("expected invalidVTable, got \(String(describing: error))")
            return
        }
        #expect(path == "model.subgraphs[0].tensors[1].buffer")
        #expect(offset == vtable)
        #expect(reason.contains("+200"))
        // A field that fits its start but not its width (a 4-byte field 2 bytes before the end).
        let inline = Int(b.bytes[vtable + 2]) | Int(b.bytes[vtable + 3]) << 8
        guard case .invalidVTable = Self.error(Self.patched(b, UInt16(inline - 2), at: vtable + 8)) else {
            Issue.record("expected invalidVTable for a straddling field")
            return
        }
        // An odd vtable size, and a table size below 4.
        guard case .invalidVTable(_, _, let oddReason) = Self.error(Self.patched(b, UInt16(7), at: vtable)) else {
            Issue.record("expected invalidVTable for an odd vtable size")
            return
        }
        #expect(oddReason.contains("even"))
        guard case .invalidVTable(_, _, let smallReason) = Self.error(Self.patched(b, UInt16(2), at: vtable + 2)) else {
            Issue.record("expected invalidVTable for a 2-byte table")
            return
        }
        #expect(smallReason.contains("below 4"))
    }

    // MARK: Vectors and strings

    @Test("an absurd vector count is absurdCount")
    func absurdCount() throws {
        let b = FlatBufferBuilder.file(TinyModel.model(tensors: .labeled("tensors", .vector([
            TinyModel.tensor(), TinyModel.tensor(buffer: 1, name: .string("b"),
                                                  extra: [0: .ref(.labeled("shape", .int32s([1, 4])))]),
            TinyModel.tensor(),
        ]))))
        let tensors = try #require(b.positions["tensors"])
        let error = Self.error(Self.patched(b, UInt32(0x7FFF_FFFF), at: tensors))
        guard case let .absurdCount(path, count, limit) = error else {
            Issue.record("expected absurdCount, got \(String(describing: error))")
            return
        }
        #expect(path == "model.subgraphs[0].tensors")
        #expect(count == 0x7FFF_FFFF)
        #expect(limit < b.bytes.count / 4)
        // A count the file could hold but above the rank limit of a shape.
        let shape = try #require(b.positions["shape"])
        let rankError = Self.error(Self.patched(b, UInt32(17), at: shape))
        #expect(rankError == .absurdCount(path: "model.subgraphs[0].tensors[1].shape", count: 17, limit: 16))
        #expect(Self.error(Self.patched(b, UInt32.max, at: shape)).map { if case .absurdCount = $0 { true } else { false } } == true)
    }

    @Test("a string with invalid UTF-8 is invalidValue")
    func invalidUTF8() {
        let b = FlatBufferBuilder.file(TinyModel.model(tensors: .vector([
            TinyModel.tensor(name: .rawString([0x66, 0xFF, 0xFE, 0x6F])), TinyModel.tensor(buffer: 1), TinyModel.tensor(),
        ])))
        guard case let .invalidValue(path, reason) = Self.error(b.bytes) else {
            Issue.record("expected invalidValue, got \(String(describing: Self.error(b.bytes)))")
            return
        }
        #expect(path == "model.subgraphs[0].tensors[0].name")
        #expect(reason.contains("UTF-8"))
    }

    @Test("a string without its terminating zero is outOfBounds")
    func unterminatedString() throws {
        // The model's description is the last object written: make its count run to the file's end.
        let b = FlatBufferBuilder.file(TinyModel.model(modelExtra: [3: .ref(.labeled("description", .string("abc")))]))
        let description = try #require(b.positions["description"])
        let size = b.bytes.count
        // A count that makes the string end exactly at the end of the file, leaving no room for its zero.
        let error = Self.error(Self.patched(b, UInt32(size - description - 4), at: description))
        #expect(error == .outOfBounds(path: "model.description (terminator)", offset: size, length: 1, fileSize: size))
    }

    // MARK: Indices and values

    @Test("a tensor buffer index out of range is invalidValue naming the buffer field")
    func bufferIndexOutOfRange() {
        let b = FlatBufferBuilder.file(TinyModel.model(tensors: .vector([
            TinyModel.tensor(), TinyModel.tensor(buffer: 7), TinyModel.tensor(),
        ])))
        #expect(Self.error(b.bytes) == .invalidValue(path: "model.subgraphs[0].tensors[1].buffer",
                                                   reason: "buffer index 7 is outside 0..<2"))
    }

    @Test("a negative shape dimension is invalidValue naming the dimension")
    func negativeDimension() {
        let b = FlatBufferBuilder.file(TinyModel.model(tensors: .vector([
            TinyModel.tensor(shape: [1, -4]), TinyModel.tensor(buffer: 1), TinyModel.tensor(),
        ])))
        #expect(Self.error(b.bytes) == .invalidValue(path: "model.subgraphs[0].tensors[0].shape[1]",
                                                   reason: "negative dimension -4"))
    }

    @Test("a shape with too many elements is invalidValue")
    func hugeShape() {
        let b = FlatBufferBuilder.file(TinyModel.model(tensors: .vector([
            TinyModel.tensor(shape: [Int32.max, Int32.max, 4]), TinyModel.tensor(buffer: 1), TinyModel.tensor(),
        ])))
        guard case let .invalidValue(path, reason) = Self.error(b.bytes) else {
            Issue.record("expected invalidValue")
            return
        }
        #expect(path == "model.subgraphs[0].tensors[0].shape")
        #expect(reason.contains("too many elements"))
    }

    @Test("operator indices out of range are invalidValue")
    func operatorIndices() {
        let badTensor = FlatBufferBuilder.file(TinyModel.model(operators: .vector([TinyModel.addOperator(inputs: [0, 3])])))
        #expect(Self.error(badTensor.bytes) == .invalidValue(path: "model.subgraphs[0].operators[0].inputs[1]",
                                                           reason: "tensor index 3 is outside 0..<3"))
        let badOutput = FlatBufferBuilder.file(TinyModel.model(operators: .vector([TinyModel.addOperator(outputs: [-1])])))
        #expect(Self.error(badOutput.bytes) == .invalidValue(path: "model.subgraphs[0].operators[0].outputs[0]",
                                                           reason: "tensor index -1 is outside 0..<3"))
        // -1 is an omitted optional input, allowed.
        let omitted = FlatBufferBuilder.file(TinyModel.model(operators: .vector([TinyModel.addOperator(inputs: [0, 1, -1])])))
        #expect(Self.error(omitted.bytes) == nil)
        let badCode = FlatBufferBuilder.file(TinyModel.model(operators: .vector([TinyModel.addOperator(opcode: 1)])))
        #expect(Self.error(badCode.bytes) == .invalidValue(path: "model.subgraphs[0].operators[0].opcode_index",
                                                         reason: "operator code 1 is outside 0..<1"))
        let badInput = FlatBufferBuilder.file(TinyModel.model(subgraphExtra: [1: .ref(.int32s([5]))]))
        #expect(Self.error(badInput.bytes) == .invalidValue(path: "model.subgraphs[0].inputs[0]",
                                                          reason: "tensor index 5 is outside 0..<3"))
    }

    @Test("a model without subgraphs is missingField")
    func noSubgraphs() {
        let none = FlatBufferBuilder.file(.table([0: .uint32(3)]))
        #expect(Self.error(none.bytes) == .missingField(path: "model.subgraphs"))
        let empty = FlatBufferBuilder.file(.table([0: .uint32(3), 2: .ref(.vector([]))]))
        #expect(Self.error(empty.bytes) == .missingField(path: "model.subgraphs"))
    }

    @Test("metadata naming a missing buffer is invalidValue")
    func metadataBuffer() {
        let b = FlatBufferBuilder.file(TinyModel.model(modelExtra: [
            6: .ref(.vector([.table([0: .ref(.string("min_runtime_version")), 1: .uint32(9)])])),
        ]))
        #expect(Self.error(b.bytes) == .invalidValue(path: "model.metadata[0].buffer",
                                                   reason: "buffer index 9 is outside 0..<2"))
    }

    @Test("an external buffer outside the file is outOfBounds")
    func externalBuffer() {
        let b = FlatBufferBuilder.file(TinyModel.model(buffers: .vector([
            .table([:]), .table([1: .uint64(64), 2: .uint64(UInt64.max - 10)]),
        ])))
        guard case let .outOfBounds(path, _, _, _) = Self.error(b.bytes) else {
            Issue.record("expected outOfBounds, got \(String(describing: Self.error(b.bytes)))")
            return
        }
        #expect(path == "model.buffers[1].offset")
    }

    // MARK: Work bombs

    /// Small files whose tables all share one large vector or string: without a work budget, reading
    /// them would take gigabytes of allocations and minutes.
    static func bomb(_ index: Int) -> (name: String, pathPart: String, node: Node) {
        [
        ("tensors sharing a quantization scale vector", "quantization.scale",
         TinyModel.model(tensors: .repeated(20_000, TinyModel.tensor(extra: [
             4: .ref(.table([2: .ref(.floats([Float](repeating: 0.5, count: 50_000)))])),
         ])))),
        ("operators sharing an inputs vector", "inputs",
         TinyModel.model(operators: .repeated(20_000, TinyModel.addOperator(inputs: [Int32](repeating: 0, count: 50_000))))),
        ("tensors sharing a long name", "name",
         TinyModel.model(tensors: .repeated(20_000, TinyModel.tensor(name: .string(String(repeating: "x", count: 200_000)))))),
        ][index]
    }

    @Test("files that share one large vector many times are tooComplex, quickly", arguments: 0..<3)
    func workBomb(index: Int) {
        let bomb = Self.bomb(index)
        let b = FlatBufferBuilder.file(bomb.node)
        let clock = ContinuousClock()
        var error: TFLiteError?
        let elapsed = clock.measure { error = Self.error(b.bytes) }
        print("work bomb '\(bomb.name)': \(b.bytes.count) bytes rejected in \(elapsed)")
        guard case let .tooComplex(path) = error else {
            Issue.record("\(bomb.name): expected tooComplex, got \(String(describing: error))")
            return
        }
        #expect(path.contains(bomb.pathPart), "\(bomb.name): \(path)")
        // The budget allows 8 elements per byte (~2.3 million here: a few seconds in a debug build);
        // without it these files ask for 10^9 element reads and gigabytes of arrays.
        #expect(elapsed < .seconds(30), "\(bomb.name): \(elapsed) for a \(b.bytes.count)-byte file")
        #expect(error?.description.contains("work budget") == true)
    }

    // MARK: Files

    @Test("a missing file or a directory is cannotOpen")
    func cannotOpen() throws {
        let directory = try Flatc.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("missing.tflite").path
        let missingError = #expect(throws: TFLiteError.self) { _ = try Model(path: missing) }
        guard case let .cannotOpen(path, reason) = missingError else {
            Issue.record("expected cannotOpen, got \(String(describing: missingError))")
            return
        }
        #expect(path == missing && !reason.isEmpty)
        #expect(missingError?.description.contains(missing) == true)
        let directoryError = #expect(throws: TFLiteError.self) { _ = try Model(path: directory.path) }
        guard case let .cannotOpen(directoryPath, _) = directoryError else {
            Issue.record("expected cannotOpen, got \(String(describing: directoryError))")
            return
        }
        #expect(directoryPath == directory.path)
    }

    @Test("a file over maximumFileSize is cannotOpen before it is read")
    func fileSizeLimit() throws {
        let directory = try Flatc.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let b = FlatBufferBuilder.file(TinyModel.model())
        let path = directory.appendingPathComponent("tiny.tflite").path
        try Data(b.bytes).write(to: URL(fileURLWithPath: path))
        #expect(throws: TFLiteError.cannotOpen(
            path: path, reason: "file has \(b.bytes.count) bytes, more than the limit of 16")) {
            _ = try Model(path: path, maximumFileSize: 16)
        }
        #expect(throws: Never.self) { _ = try Model(path: path, maximumFileSize: b.bytes.count) }
        // A real model against a limit just below its size.
        let real = try TestResources.modelPath("face_detection_short_range.tflite")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: real)[.size] as? Int)
        let limitError = #expect(throws: TFLiteError.self) { _ = try Model(path: real, maximumFileSize: size - 1) }
        guard case let .cannotOpen(path, reason) = limitError else {
            Issue.record("expected cannotOpen, got \(String(describing: limitError))")
            return
        }
        #expect(path == real && reason.contains("more than the limit of \(size - 1)"))
        // An empty file opens and is then too small.
        let empty = directory.appendingPathComponent("empty.tflite").path
        try Data().write(to: URL(fileURLWithPath: empty))
        #expect(throws: TFLiteError.fileTooSmall(size: 0)) { _ = try Model(path: empty) }
    }

    // MARK: The test models, built with flatc

    @Test("the JSON test models load, except bad_buffer_index", arguments: Flatc.testModels)
    func testModels(name: String) throws {
        let directory = try Flatc.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Flatc.buildTestModel(name, into: directory)
        if name == "bad_buffer_index" {
            #expect(throws: TFLiteError.invalidValue(path: "model.subgraphs[0].tensors[1].buffer",
                                                     reason: "buffer index 7 is outside 0..<2")) {
                _ = try Model(path: path)
            }
            return
        }
        let model = try Model(path: path)
        #expect(model.version == 3)
        #expect(!model.mainSubgraph.operators.isEmpty)
        switch name {
        case "conv_relu6":
            // Only the 8-bit code is set: builtin_code reads as 0 and the effective code is CONV_2D.
            #expect(model.operatorCodes[0].builtinCode == .conv2D)
            #expect(model.operatorCodes[0].deprecatedBuiltinCode == 3)
            #expect(model.operatorCodes[0].builtinCodeField == 0)
        case "unsupported_op":
            #expect(model.operatorCodes[0].builtinCode.name == "CUMSUM")
            #expect(model.operatorCodes[0].deprecatedBuiltinCode == 127)
        case "unsupported_custom_op":
            #expect(model.operatorCodes[0].name == "CUSTOM(MyOp)")
            let op = model.mainSubgraph.operators[0]
            let range = try #require(op.customOptions)
            #expect(range.count == 4)
            #expect(model.bytes(in: range).count == 4)
        default:
            break
        }
        // The same bytes through Model(bytes:).
        let fromBytes = try Model(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(fromBytes.subgraphs == model.subgraphs)
        #expect(fromBytes.operatorCodes == model.operatorCodes)
    }

    @Test("Model(bytes:) and Model(path:) agree on the real models", arguments: TestResources.realModelFiles)
    func bytesAndPath(file: String) throws {
        let path = try TestResources.modelPath(file)
        let a = try Model(path: path)
        let b = try Model(bytes: try TestResources.modelBytes(file))
        #expect(a.subgraphs == b.subgraphs)
        #expect(a.operatorCodes == b.operatorCodes)
        #expect(a.buffers == b.buffers)
        #expect(a.metadata == b.metadata)
        for index in a.buffers.indices where !a.buffers[index].isEmpty {
            #expect(a.bytes(of: index).elementsEqual(b.bytes(of: index)))
        }
    }
}
