import BlazeRuntime
import BlazeTestSupport
import Testing

/// Inputs and outputs by name, and in-place access whose errors are the body's own.
@Suite("Interpreter tensor access")
struct TensorAccessTests {
    /// The tensor names `blazeface inspect` shows for each model: (file, inputs, outputs).
    static let names: [(file: String, inputs: [String], outputs: [String])] = [
        ("face_detection_short_range.tflite", ["input"], ["regressors", "classificators"]),
        ("face_detection_full_range.tflite", ["input"], ["reshaped_regressor_face_4", "reshaped_classifier_face_4"]),
        ("face_detection_full_range_sparse.tflite", ["input_1"], ["Identity", "Identity_1"]),
        ("face_detection_back.tflite", ["input"], ["regressors", "classificators"]),
        ("face_landmark.tflite", ["input_1"], ["conv2d_20", "conv2d_30"]),
        ("iris_landmark.tflite", ["input_1"], ["output_eyes_contours_and_brows", "output_iris"]),
    ]

    @Test("inputs and outputs are found by their tensor names", arguments: names.indices)
    func lookupByName(entry: Int) throws {
        let (file, inputs, outputs) = Self.names[entry]
        let interpreter = try Interpreter(modelPath: try TestResources.modelPath(file))
        for (k, name) in inputs.enumerated() {
            #expect(try interpreter.inputIndex(named: name) == k, "\(file) input \(name)")
            #expect(try interpreter.input(named: name) == interpreter.input(at: k))
        }
        for (k, name) in outputs.enumerated() {
            #expect(try interpreter.outputIndex(named: name) == k, "\(file) output \(name)")
            #expect(try interpreter.output(named: name) == interpreter.output(at: k))
        }
    }

    @Test("an output read by name is the output read by index")
    func outputByName() throws {
        let interpreter = try Interpreter(modelPath: try TestResources.modelPath("face_detection_short_range.tflite"))
        interpreter.withInput(at: try interpreter.inputIndex(named: "input")) { input in
            for i in input.indices { input[i] = Float(i % 251) / 125.5 - 1 }
        }
        interpreter.invoke()
        let scores = try interpreter.outputIndex(named: "classificators")
        #expect(try interpreter.output(named: "classificators").shape == [1, 896, 1])
        let byIndex = try interpreter.outputArray(at: 1)
        #expect(try interpreter.outputArray(named: "classificators") == byIndex)
        #expect(interpreter.withOutput(at: scores) { Array($0) } == byIndex)
        #expect(byIndex.contains { $0 != 0 })
    }

    @Test("a missing name is a typed error naming the tensors there are")
    func missingName() throws {
        let interpreter = try Interpreter(modelPath: try TestResources.modelPath("face_detection_short_range.tflite"))
        #expect(throws: InterpreterError.unknownOutputName("scores", available: ["regressors", "classificators"])) {
            _ = try interpreter.outputIndex(named: "scores")
        }
        #expect(throws: InterpreterError.unknownOutputName("scores", available: ["regressors", "classificators"])) {
            _ = try interpreter.outputArray(named: "scores")
        }
        #expect(throws: InterpreterError.unknownInputName("image", available: ["input"])) {
            _ = try interpreter.input(named: "image")
        }
        let error = InterpreterError.unknownOutputName("scores", available: ["regressors", "classificators"])
        #expect(error.description == "the model has no output named 'scores'; its outputs are 'regressors', 'classificators'")
        #expect(InterpreterError.unknownInputName("image", available: ["input"]).description
            == "the model has no input named 'image'; its inputs are 'input'")
    }

    struct BodyError: Error, Equatable {
        var code: Int
    }

    @Test("withInput and withOutput pass the body's error through untouched, with its type")
    func bodyErrors() throws {
        let interpreter = try Interpreter(modelData: try Flatc.testModelData("conv_relu6"))
        // `catch` sees a BodyError statically: the calls throw exactly the body's error type.
        do throws(BodyError) {
            try interpreter.withInput(at: 0) { (_) throws(BodyError) in throw BodyError(code: 7) }
            Issue.record("withInput did not throw")
        } catch {
            #expect(error.code == 7)
        }
        do throws(BodyError) {
            try interpreter.withOutput(at: 0) { (_) throws(BodyError) in throw BodyError(code: 8) }
            Issue.record("withOutput did not throw")
        } catch {
            #expect(error.code == 8)
        }
        // A body that throws nothing makes the call non-throwing (no `try`), and its result comes back.
        let count = interpreter.withOutput(at: 0) { $0.count }
        #expect(count == 27)
    }

    @Test("withInput at a bad index stops the program (validate outside indices with input(at:))")
    func badIndexTraps() async {
        await #expect(processExitsWith: .failure) {
            let interpreter = try Interpreter(modelData: try Flatc.testModelData("conv_relu6"))
            interpreter.withInput(at: 1) { _ in }
        }
    }
}
