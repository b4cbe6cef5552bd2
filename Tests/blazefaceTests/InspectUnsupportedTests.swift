import BlazeRuntime
import BlazeTFLite
import BlazeTestSupport
import Foundation
import Testing

/// `inspect` of a valid model that the interpreter cannot run.
@Suite struct InspectUnsupportedTests {
    @Test("inspect prints the structure of a model it cannot run, then the reason, and exits 1")
    func unsupportedOperator() async throws {
        var bytes = try TestResources.modelBytes("face_detection_short_range.tflite")
        try ModelPatch.replaceOperatorCode(in: &bytes, from: 19, to: 56)  // RELU -> ARG_MAX
        let scratch = try TemporaryDirectory()
        let path = scratch.path("arg_max.tflite")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let expected = try #require(throws: InterpreterError.self) { try Interpreter(modelPath: path) }

        let result = try await CommandLineTool.run(["inspect", path])
        #expect(result.status == 1, "\(result)")
        for phrase in ["ARG_MAX", "CONV_2D", "[1, 128, 128, 3]", "regressors", "weight bytes:", "cannot run"] {
            #expect(result.standardOutput.contains(phrase), "missing '\(phrase)' in \(result)")
        }
        #expect(result.standardError.hasPrefix("error: "), "\(result)")
        #expect(result.standardError.contains(expected.description), "\(result)")
        #expect(result.standardError.contains("not supported"), "\(result)")
        // Every ARG_MAX is listed (the RELUs patched), not only the first one the interpreter stops at.
        let model = try Model(path: path)
        let count = model.mainSubgraph.operators.filter { model.operatorCode(of: $0).builtinCode.rawValue == 56 }.count
        #expect(count > 1)
        #expect(result.standardOutput.contains("Operators the engine lacks: 1 type(s)"), "\(result)")
        #expect(result.standardOutput.contains("ARG_MAX v1: \(count) operator(s)"), "\(result)")
    }
}
