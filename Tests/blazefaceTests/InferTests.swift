import BlazeNPY
import BlazeTestSupport
import Foundation
import Testing

/// `blazeface infer` end to end: golden inputs in, outputs compared with LiteRT's.
@Suite struct InferTests {
    /// Runs `infer` on a golden case and checks every output file against LiteRT's output.
    private func check(model key: String, case caseName: String, quiet: Bool) async throws {
        let manifest = try GoldenManifest.load()
        let entry = try #require(manifest.models[key], "no \(key) in the golden manifest")
        let spec = try #require(entry.cases.first { $0.name == caseName }, "no \(caseName) case for \(key)")
        let golden = try GoldenCase(model: key, case: spec, entry: entry)
        let modelPath = try TestResources.modelPath(golden.modelFile)

        let scratch = try TemporaryDirectory()
        let inputPath = scratch.path("input.npy")
        try NPYArray(shape: golden.inputShape, floats: golden.input).write(to: inputPath)
        let outputDirectory = scratch.path("out/nested")  // does not exist yet: infer creates it
        var arguments = ["infer", modelPath, "--input", inputPath, "--output-dir", outputDirectory]
        if quiet { arguments.append("--quiet") }
        let result = try await CommandLineTool.run(arguments)
        #expect(result.status == 0, "\(result)")

        for (k, expected) in golden.expected.enumerated() {
            let ours = try NPYArray(path: "\(outputDirectory)/output_\(k).npy")
            #expect(ours.dtype == .float32)
            #expect(ours.shape == expected.shape, "output \(k) of \(key)")
            let error = goldenError(ours.floats(), expected.floats())
            #expect(error <= 1e-4, "\(key) \(caseName) output \(k): worst relative error \(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: "\(outputDirectory)/output_\(golden.expected.count).npy"))
        let lines = result.standardOutput.split(separator: "\n")
        if quiet {
            #expect(lines.isEmpty, "\(result)")
        } else {
            #expect(lines.count == golden.expected.count, "\(result)")
            for (k, spec) in entry.outputs.enumerated() where k < lines.count {
                #expect(lines[k].hasPrefix("output_\(k).npy"))
                #expect(lines[k].contains("[" + spec.shape.map(String.init).joined(separator: ", ") + "]"))
                #expect(lines[k].contains("min ") && lines[k].contains("max "))
            }
        }
    }

    @Test("infer matches LiteRT on the random golden input", arguments: GoldenManifest.modelKeys)
    func randomGolden(model: String) async throws {
        try await check(model: model, case: "random", quiet: model != "short_range")
    }

    @Test("infer matches LiteRT on the picture of a face")
    func imageGolden() async throws {
        try await check(model: "face_landmark", case: "image", quiet: false)
    }
}
