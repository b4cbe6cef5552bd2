import BlazeRuntime
import BlazeTestSupport
import Foundation
import Testing

/// `inspect` of a valid model that the interpreter cannot run.
@Suite struct InspectUnsupportedTests {
    @Test("inspect prints the structure of a model it cannot run, then the reason, and exits 1")
    func unsupportedOperator() async throws {
        var bytes = try TestResources.modelBytes("face_detection_short_range.tflite")
        try ModelPatch.replaceOperatorCode(in: &bytes, from: 19, to: 25)  // RELU -> SOFTMAX
        let scratch = try TemporaryDirectory()
        let path = scratch.path("softmax.tflite")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let expected = try #require(throws: InterpreterError.self) { try Interpreter(modelPath: path) }

        let result = try await CommandLineTool.run(["inspect", path])
        #expect(result.status == 1, "\(result)")
        for phrase in ["SOFTMAX", "CONV_2D", "[1, 128, 128, 3]", "regressors", "weight bytes:", "cannot run"] {
            #expect(result.standardOutput.contains(phrase), "missing '\(phrase)' in \(result)")
        }
        #expect(result.standardError.hasPrefix("error: "), "\(result)")
        #expect(result.standardError.contains(expected.description), "\(result)")
        #expect(result.standardError.contains("not supported"), "\(result)")
    }
}
