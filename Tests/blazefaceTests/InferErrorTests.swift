import BlazeNPY
import BlazeTestSupport
import Foundation
import Testing

/// `blazeface infer` refuses bad inputs with a message that names the problem.
@Suite struct InferErrorTests {
    /// A scratch folder with the short-range model's input in several wrong forms.
    private final class Fixture {
        let scratch: TemporaryDirectory
        let model: String
        let good: String

        init() throws {
            scratch = try TemporaryDirectory()
            model = try TestResources.modelPath("face_detection_short_range.tflite")
            let count = 128 * 128 * 3
            let values = (0..<count).map { Float($0 % 255) / 127.5 - 1 }
            good = scratch.path("good.npy")
            try NPYArray(shape: [1, 128, 128, 3], floats: values).write(to: good)
            try NPYArray(shape: [1, 64, 64, 3], floats: Array(values[0..<(64 * 64 * 3)])).write(to: path("small.npy"))
            try NPYArray(shape: [1, 128, 3, 128], floats: values).write(to: path("transposed.npy"))
            let doubles = values.map { Double($0) }
            let bytes = doubles.withUnsafeBytes { Array($0) }
            try NPYArray(dtype: .float64, shape: [1, 128, 128, 3], bytes: bytes).write(to: path("double.npy"))
            try Data("this is not a numpy file\n".utf8).write(to: URL(fileURLWithPath: path("garbage.npy")))
            var truncated = NPYArray(shape: [1, 128, 128, 3], floats: values).fileBytes()
            truncated.removeLast(100)
            try Data(truncated).write(to: URL(fileURLWithPath: path("truncated.npy")))
        }

        func path(_ name: String) -> String { scratch.path(name) }
    }

    /// One bad invocation and a phrase its error message must contain.
    struct Case: CustomTestStringConvertible, Sendable {
        var label: String
        var arguments: @Sendable (_ good: String, _ scratch: String) -> [String]
        var phrases: [String]
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(label: "wrong shape", arguments: { _, dir in ["--input", "\(dir)/small.npy"] },
             phrases: ["small.npy", "shape mismatch", "[1, 64, 64, 3]", "[1, 128, 128, 3]"]),
        Case(label: "same size, other shape", arguments: { _, dir in ["--input", "\(dir)/transposed.npy"] },
             phrases: ["transposed.npy", "shape mismatch", "[1, 128, 3, 128]"]),
        Case(label: "float64", arguments: { _, dir in ["--input", "\(dir)/double.npy"] },
             phrases: ["double.npy", "dtype mismatch", "float64", "float32"]),
        Case(label: "not a .npy file", arguments: { _, dir in ["--input", "\(dir)/garbage.npy"] },
             phrases: ["garbage.npy", "not a .npy file"]),
        Case(label: "truncated .npy", arguments: { _, dir in ["--input", "\(dir)/truncated.npy"] },
             phrases: ["truncated.npy", "bytes"]),
        Case(label: "missing file", arguments: { _, dir in ["--input", "\(dir)/missing.npy"] },
             phrases: ["missing.npy", "no such file"]),
        Case(label: "too many inputs", arguments: { good, _ in ["--input", good, "--input", good] },
             phrases: ["wrong number of inputs", "1 input", "2 --input"]),
        Case(label: "no input", arguments: { _, _ in [] }, phrases: ["at least one --input"]),
        Case(label: "a model past --max-macs", arguments: { good, _ in ["--input", good, "--max-macs", "1000"] },
             phrases: ["face_detection_short_range.tflite", "multiply-accumulates", "more than the limit of 1000"]),
        Case(label: "a model past --max-operators", arguments: { good, _ in ["--input", good, "--max-operators", "10"] },
             phrases: ["operators, more than the limit of 10"]),
        Case(label: "a model past --max-arena-bytes", arguments: { good, _ in ["--input", good, "--max-arena-bytes", "4096"] },
             phrases: ["activations need", "more than the limit of 4096"]),
        Case(label: "a limit below 1", arguments: { good, _ in ["--input", good, "--max-constant-bytes", "0"] },
             phrases: ["--max-constant-bytes must be at least 1"]),
        Case(label: "zero threads", arguments: { good, _ in ["--input", good, "--threads", "0"] },
             phrases: ["--threads must be at least 1"]),
    ]

    @Test("infer reports bad inputs", arguments: cases)
    func badInvocation(_ c: Case) async throws {
        let fixture = try Fixture()
        let outputDirectory = fixture.path("out")
        let result = try await CommandLineTool.run(
            ["infer", fixture.model] + c.arguments(fixture.good, fixture.scratch.url.path) + ["--output-dir", outputDirectory])
        #expect(result.status != 0, "\(result)")
        for phrase in c.phrases {
            #expect(result.standardError.contains(phrase), "missing '\(phrase)' in \(result)")
        }
        #expect(!FileManager.default.fileExists(atPath: outputDirectory + "/output_0.npy"))
    }

    @Test("limits a model fits change nothing: the same outputs as without them")
    func limitsThatFit() async throws {
        let fixture = try Fixture()
        var outputs: [[Float]] = []
        for limits in [[], ["--max-macs", "100000000", "--max-arena-bytes", "16000000", "--max-operators", "200"]] {
            let folder = fixture.path("out\(outputs.count)")
            let result = try await CommandLineTool.run(["infer", fixture.model, "--input", fixture.good,
                                                        "--output-dir", folder, "--quiet"] + limits)
            #expect(result.status == 0, "\(result)")
            outputs.append(try NPYArray(path: folder + "/output_0.npy").floats())
        }
        #expect(outputs.count == 2 && !outputs[0].isEmpty && outputs[0] == outputs[1])
    }

    @Test("infer reports a file that is not a model")
    func notAModel() async throws {
        let fixture = try Fixture()
        let result = try await CommandLineTool.run(["infer", fixture.good, "--input", fixture.good, "--output-dir", fixture.path("out")])
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.hasPrefix("error: "), "\(result)")
        #expect(result.standardError.contains("not a TFLite model"), "\(result)")
    }
}
