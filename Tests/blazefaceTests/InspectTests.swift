import BlazeRuntime
import BlazeTestSupport
import Foundation
import Testing

/// `blazeface inspect` end to end.
@Suite struct InspectTests {
    @Test("inspect shows the short-range model's structure, work and plan")
    func shortRange() async throws {
        let path = try TestResources.modelPath("face_detection_short_range.tflite")
        let result = try await CommandLineTool.run(["inspect", path])
        #expect(result.status == 0, "\(result)")
        #expect(result.standardError.isEmpty, "\(result)")
        let text = result.standardOutput
        for phrase in ["face_detection_short_range.tflite", "schema version: 3", "CONV_2D", "DEPTHWISE_CONV_2D",
                       "[1, 128, 128, 3]", "regressors", "classificators", "[1, 896, 16]", "padding=SAME",
                       "stride=2x2", "activation=", "new_shape=", "const", "folded", "weight bytes:",
                       "sparse tensors: 0", "Execution plan", "arena:", "kernels:", "30.8 M"] {
            #expect(text.contains(phrase), "missing '\(phrase)'")
        }

        // The exact MAC count is the interpreter's.
        let interpreter = try Interpreter(modelPath: path)
        let line = try #require(text.split(separator: "\n").first { $0.contains("multiply-accumulates per inference:") })
        let number = line.split(separator: ":").last?.split(separator: " ").first.map(String.init)
        #expect(number == String(interpreter.multiplyAccumulates), "\(line)")

        // Every operator is listed, in execution order, and the plan's counts agree with the interpreter's.
        let model = interpreter.model
        for op in model.mainSubgraph.operators {
            #expect(text.contains("#\(op.index) ") && text.contains(model.operatorCode(of: op).name))
        }
        #expect(text.contains("steps: \(interpreter.plan.count)"))
        let fused = interpreter.plan.reduce(0) { $0 + $1.fusedOperators.count }
        #expect(fused > 0)
        #expect(text.contains("fused into another operator's step: \(fused)"))
        #expect(text.contains("(constants and shape arithmetic): \(model.mainSubgraph.operators.count - interpreter.plan.count - fused)"))
        // Each fused operator names the step that runs it: the first residual ADD (#10) and its RELU (#11)
        // run in the epilogue of the 1x1 convolution before them (#9), and so do a channel-padded BlazeBlock
        // shortcut's PAD (#18) and ADD (#19) after #17; a pooled shortcut's MAX_POOL (#24) runs in ADD #29.
        #expect(text.contains("#10   ADD v1  activation=NONE  [fused into #9]"), "\(text.prefix(3000))")
        #expect(text.contains("#11   RELU v1  [fused into #9]"))
        #expect(text.contains("#18   PAD v1  [fused into #17]"))
        #expect(text.contains("#19   ADD v1  activation=NONE  [fused into #17]"))
        #expect(text.contains("[fused into #29]") && text.contains("ResidualAdd.pooled"))
        #expect(text.contains("operators: \(model.mainSubgraph.operators.count)"))
    }

    @Test("inspect --json is valid JSON with the same facts")
    func json() async throws {
        let path = try TestResources.modelPath("face_detection_full_range_sparse.tflite")
        let result = try await CommandLineTool.run(["inspect", "--json", path])
        #expect(result.status == 0, "\(result)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let interpreter = try Interpreter(modelPath: path)
        let plan = try #require(object["plan"] as? [String: Any])
        #expect(plan["multiplyAccumulates"] as? Int == interpreter.multiplyAccumulates)
        #expect(plan["steps"] as? Int == interpreter.plan.count)
        // The sparse model's 43 spatial PADs are folded into the convolutions that read them, and its
        // residual ADDs run in the 1x1 convolutions before them.
        let operators = try #require(object["operators"] as? [[String: Any]])
        let fused = operators.filter { $0["fusedInto"] is Int }
        #expect(plan["fusedOperators"] as? Int == fused.count)
        #expect(operators.filter { $0["name"] as? String == "PAD" }.allSatisfy { $0["fusedInto"] is Int })
        #expect(fused.filter { $0["name"] as? String == "PAD" }.count == 43)
        #expect(fused.contains { $0["name"] as? String == "ADD" })
        #expect(object["sparseTensorCount"] as? Int ?? 0 > 0)
        #expect((object["operators"] as? [Any])?.count == interpreter.model.mainSubgraph.operators.count)
    }

    @Test("inspect refuses a file that is not a model")
    func notAModel() async throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.path("fake.tflite")
        try Data("this is definitely not a flatbuffer".utf8).write(to: URL(fileURLWithPath: path))
        let result = try await CommandLineTool.run(["inspect", path])
        #expect(result.status == 1, "\(result)")
        #expect(result.standardOutput.isEmpty, "\(result)")
        #expect(result.standardError.hasPrefix("error: "), "\(result)")
        #expect(result.standardError.contains("not a TFLite model"), "\(result)")
        #expect(result.standardError.contains("TFL3"), "\(result)")
    }

    @Test("inspect reports a missing file")
    func missingFile() async throws {
        let result = try await CommandLineTool.run(["inspect", "/nonexistent/model.tflite"])
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.contains("cannot open model file"), "\(result)")
    }

    @Test("--version prints the version")
    func version() async throws {
        let result = try await CommandLineTool.run(["--version"])
        #expect(result.status == 0)
        #expect(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0")
    }
}
