import BlazeKernels
import BlazeRuntime
import BlazeTFLite
import BlazeTestSupport
import Foundation
import Testing

/// The tiny JSON models of Tests/Schema/models, built with flatc at test time, through the interpreter:
/// the valid ones against expected.json (confirmed with LiteRT), the invalid ones for their exact error.
@Suite("Test models through the interpreter")
struct TestModelTests {
    struct TensorData {
        var name: String
        var shape: [Int]
        var data: [Float]
    }

    static func tensors(_ list: Any?) throws -> [TensorData] {
        let entries = try #require(list as? [[String: Any]])
        return try entries.map { entry in
            TensorData(name: try #require(entry["name"] as? String),
                       shape: try #require((entry["shape"] as? [NSNumber])?.map(\.intValue)),
                       data: try #require((entry["data"] as? [NSNumber])?.map(\.floatValue)))
        }
    }

    /// Runs `interpreter` on the expected inputs of `name` and checks every output against expected.json.
    static func check(_ interpreter: Interpreter, model name: String, label: String) throws {
        let entry = try #require(try Flatc.expected()[name] as? [String: Any])
        let inputs = try tensors(entry["inputs"])
        let outputs = try tensors(entry["outputs"])
        let tolerance = try #require(entry["atol"] as? NSNumber).floatValue
        #expect(interpreter.inputs.map(\.name) == inputs.map(\.name), "\(label)")
        #expect(interpreter.outputs.map(\.name) == outputs.map(\.name), "\(label)")
        for input in inputs {
            let index = try #require(interpreter.inputs.firstIndex { $0.name == input.name })
            #expect(interpreter.inputs[index].shape == input.shape, "\(label): input \(input.name)")
            #expect(interpreter.inputs[index].dataType == .float32)
            try interpreter.copy(input.data, toInputAt: index)
        }
        interpreter.invoke()
        for output in outputs {
            let index = try #require(interpreter.outputs.firstIndex { $0.name == output.name })
            #expect(interpreter.outputs[index].shape == output.shape, "\(label): output \(output.name)")
            let ours = try interpreter.outputArray(at: index)
            try #require(ours.count == output.data.count, "\(label): output \(output.name)")
            let worst = zip(ours, output.data).map { abs($0 - $1) }.max() ?? 0
            #expect(worst <= tolerance, "\(label): output \(output.name) off by \(worst): \(ours) vs \(output.data)")
        }
        // A second run on the same inputs gives the same outputs (the arena is reused).
        let first = try outputs.indices.map { try interpreter.outputArray(at: $0) }
        interpreter.invoke()
        #expect(try outputs.indices.map { try interpreter.outputArray(at: $0) } == first, "\(label): second invoke")
    }

    static let validModels = ["conv_relu6", "add_broadcast", "fp16_dequantize_conv"]

    @Test("valid models match expected.json, loaded from a path and from data, with each kernel variant",
          arguments: validModels, [KernelVariant.automatic, .reference, .simd, .blas])
    func validModel(name: String, variant: KernelVariant) throws {
        let directory = try Flatc.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Flatc.buildTestModel(name, into: directory)
        let options = Interpreter.Options(kernelVariant: variant)
        try Self.check(try Interpreter(modelPath: path, options: options), model: name, label: "\(name) path \(variant)")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try Self.check(try Interpreter(modelData: data, options: options), model: name, label: "\(name) data \(variant)")
        try Self.check(try Interpreter(model: try Model(path: path), options: options), model: name,
                       label: "\(name) model \(variant)")
    }

    @Test("fp16_dequantize_conv folds its DEQUANTIZE into a float32 constant")
    func dequantizeIsFolded() throws {
        let interpreter = try Interpreter(modelData: try Flatc.testModelData("fp16_dequantize_conv"))
        #expect(interpreter.plan.map(\.operatorName) == ["CONV_2D"])
        #expect(interpreter.plan.first?.operatorIndex == 2)
        // 1x2x2 positions x 2 output channels x 3 input channels.
        #expect(interpreter.multiplyAccumulates == 24)
    }

    // MARK: Invalid models

    /// Loads a test model and returns the interpreter's error (nil, with an issue, if it loads).
    static func loadError(_ name: String, options: Interpreter.Options = .init()) throws -> InterpreterError? {
        let data = try Flatc.testModelData(name)
        do {
            _ = try Interpreter(modelData: data, options: options)
            Issue.record("\(name) loaded")
            return nil
        } catch {
            return error
        }
    }

    @Test("unsupported_op is unsupportedOperator naming CUMSUM")
    func unsupportedBuiltin() throws {
        let error = try Self.loadError("unsupported_op")
        #expect(error == .unsupportedOperator(index: 0, name: "CUMSUM", version: 1))
        #expect(error?.description.contains("operator 0") == true)
        #expect(error?.description.contains("CUMSUM") == true)
    }

    @Test("unsupported_custom_op is unsupportedOperator naming CUSTOM(MyOp)")
    func unsupportedCustom() throws {
        let error = try Self.loadError("unsupported_custom_op")
        guard case let .unsupportedOperator(index, name, _) = error else {
            Issue.record("expected unsupportedOperator, got \(String(describing: error))")
            return
        }
        #expect(index == 0)
        #expect(name == "CUSTOM(MyOp)")
        #expect(error?.description.contains("operator 0: CUSTOM(MyOp)") == true)
    }

    @Test("bad_shape is a shape error on operator 0, CONV_2D")
    func badShape() throws {
        let error = try Self.loadError("bad_shape")
        switch error {
        case let .shapeMismatch(index, op, _, _, _, _), let .invalidOperator(index, op, _):
            #expect(index == 0)
            #expect(op == "CONV_2D")
        default:
            Issue.record("expected shapeMismatch or invalidOperator, got \(String(describing: error))")
        }
        #expect(error?.description.contains("operator 0 (CONV_2D)") == true, "\(String(describing: error))")
    }

    @Test("bad_buffer_index is invalidModel(invalidValue) naming the tensor's buffer field")
    func badBufferIndex() throws {
        let error = try Self.loadError("bad_buffer_index")
        guard case let .invalidModel(.invalidValue(path, reason)) = error else {
            Issue.record("expected invalidModel(invalidValue), got \(String(describing: error))")
            return
        }
        #expect(path.hasSuffix(".buffer"))
        #expect(path == "model.subgraphs[0].tensors[1].buffer")
        #expect(reason.contains("7"))
        #expect(error?.description.contains("tensors[1].buffer") == true)
    }

    @Test("cycle is notTopologicallySorted at operator 0, tensor 2")
    func cycle() throws {
        let error = try Self.loadError("cycle")
        #expect(error == .notTopologicallySorted(index: 0, operator: "ADD", tensor: 2, name: "b"))
        #expect(error?.description.contains("operator 0 (ADD)") == true)
        #expect(error?.description.contains("tensor 2 'b'") == true)
    }

    @Test("a sparse constant whose dense form would need 40 GB is refused before allocation")
    func sparseBomb() throws {
        let error = try Self.loadError("sparse_bomb")
        guard case let .invalidSparsity(tensor, name, reason) = error else {
            Issue.record("expected invalidSparsity, got \(String(describing: error))")
            return
        }
        #expect(tensor == 0 && name == "sparse")
        #expect(reason.contains("more than the limit"), "\(reason)")
    }

    // MARK: API errors

    @Test("input and output indices out of range are invalidTensorIndex")
    func invalidIndex() throws {
        let interpreter = try Interpreter(modelData: try Flatc.testModelData("conv_relu6"))
        #expect(throws: InterpreterError.invalidTensorIndex(index: 5, maxIndex: 0)) { _ = try interpreter.input(at: 5) }
        #expect(throws: InterpreterError.invalidTensorIndex(index: -1, maxIndex: 0)) { _ = try interpreter.input(at: -1) }
        #expect(throws: InterpreterError.invalidTensorIndex(index: 1, maxIndex: 0)) { _ = try interpreter.output(at: 1) }
        #expect(throws: InterpreterError.invalidTensorIndex(index: 3, maxIndex: 0)) {
            try interpreter.copy([Float](repeating: 0, count: 50), toInputAt: 3)
        }
        #expect(throws: InterpreterError.invalidTensorIndex(index: 2, maxIndex: 0)) { _ = try interpreter.outputArray(at: 2) }
        #expect(throws: InterpreterError.invalidTensorIndex(index: 1, maxIndex: 0)) {
            try interpreter.copyOutput(at: 1, into: UnsafeMutableBufferPointer(start: nil, count: 0))
        }
        let error = InterpreterError.invalidTensorIndex(index: 5, maxIndex: 0)
        #expect(error.description.contains("5") && error.description.contains("maximum 0"))
    }

    @Test("copying the wrong amount of data is invalidDataCount")
    func invalidDataCount() throws {
        let interpreter = try Interpreter(modelData: try Flatc.testModelData("conv_relu6"))
        // The input is 1x5x5x2 floats: 200 bytes.
        #expect(throws: InterpreterError.invalidDataCount(index: 0, expected: 200, actual: 12)) {
            try interpreter.copy([1, 2, 3], toInputAt: 0)
        }
        #expect(throws: InterpreterError.invalidDataCount(index: 0, expected: 200, actual: 199)) {
            try interpreter.copy(Data(count: 199), toInputAt: 0)
        }
        #expect(throws: Never.self) { try interpreter.copy(Data(count: 200), toInputAt: 0) }
        var small = [Float](repeating: 0, count: 26)
        // The output is 1x3x3x3 floats: 108 bytes. Its error says "output", not "input".
        #expect(throws: InterpreterError.invalidOutputDataCount(index: 0, expected: 108, actual: 104)) {
            try small.withUnsafeMutableBufferPointer { try interpreter.copyOutput(at: 0, into: $0) }
        }
        let error = InterpreterError.invalidDataCount(index: 0, expected: 200, actual: 12)
        #expect(error.description == "input 0 needs 200 bytes, got 12")
        let outputError = InterpreterError.invalidOutputDataCount(index: 0, expected: 108, actual: 104)
        #expect(outputError.description == "output 0 has 108 bytes, the destination holds 104")
    }

    @Test("threadCount 0, negative or above the maximum is invalidOptions",
          arguments: [0, -2, Interpreter.Options.maximumThreadCount + 1, Int.max])
    func invalidOptions(threads: Int) throws {
        let error = try Self.loadError("conv_relu6", options: .init(threadCount: threads))
        guard case let .invalidOptions(reason) = error else {
            Issue.record("expected invalidOptions, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("threadCount \(threads)"))
        #expect(error?.description.contains("invalid interpreter options") == true)
    }

    @Test("a tiny maximumArenaBytes is arenaTooLarge")
    func arenaLimit() throws {
        let error = try Self.loadError("conv_relu6", options: .init(maximumArenaBytes: 64))
        guard case let .arenaTooLarge(bytes, limit) = error else {
            Issue.record("expected arenaTooLarge, got \(String(describing: error))")
            return
        }
        #expect(limit == 64)
        #expect(bytes > 64)
        #expect(error?.description.contains("limit of 64") == true)
        // The arena the model needs fits exactly.
        let interpreter = try Interpreter(modelData: try Flatc.testModelData("conv_relu6"))
        #expect(interpreter.arenaByteCount >= (50 + 27) * 4)
        #expect(throws: Never.self) {
            _ = try Interpreter(modelData: try Flatc.testModelData("conv_relu6"),
                                options: .init(maximumArenaBytes: interpreter.arenaByteCount))
        }
    }

    @Test("a tiny maximumMultiplyAccumulates is tooMuchWork")
    func workLimit() throws {
        // conv_relu6: 1x3x3x3 outputs, each 3x3x2 multiply-accumulates.
        let macs = 27 * 18
        let interpreter = try Interpreter(modelData: try Flatc.testModelData("conv_relu6"))
        #expect(interpreter.multiplyAccumulates == macs)
        let error = try Self.loadError("conv_relu6", options: .init(maximumMultiplyAccumulates: 100))
        #expect(error == .tooMuchWork(multiplyAccumulates: macs, limit: 100))
        #expect(error?.description.contains("\(macs) multiply-accumulates") == true)
        #expect(throws: Never.self) {
            _ = try Interpreter(modelData: try Flatc.testModelData("conv_relu6"),
                                options: .init(maximumMultiplyAccumulates: macs))
        }
    }

    @Test("the default work limit is 10^10 multiply-accumulates, 50x the largest face model")
    func defaultWorkLimit() throws {
        #expect(Interpreter.Options().maximumMultiplyAccumulates == 10_000_000_000)
        // Models this engine cannot run yet are other tests' concern.
        for file in TestResources.realModelFiles {
            guard let interpreter = try? Interpreter(modelPath: try TestResources.modelPath(file)) else { continue }
            #expect(interpreter.multiplyAccumulates * 50 <= Interpreter.Options().maximumMultiplyAccumulates, "\(file)")
        }
    }

    @Test("a missing model file is invalidModel(cannotOpen)")
    func missingFile() throws {
        let directory = try Flatc.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("none.tflite").path
        let error = #expect(throws: InterpreterError.self) { _ = try Interpreter(modelPath: path) }
        guard case let .invalidModel(.cannotOpen(reported, _)) = error else {
            Issue.record("expected invalidModel(cannotOpen), got \(String(describing: error))")
            return
        }
        #expect(reported == path)
        #expect(throws: InterpreterError.invalidModel(.fileTooSmall(size: 0))) { _ = try Interpreter(modelData: Data()) }
    }
}
