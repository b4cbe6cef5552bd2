import BlazeImageIO
import BlazeTestSupport
import Foundation
import Testing

/// `blazeface detect` end to end: the JSON contract, the table, folders, annotation and failures.
@Suite struct DetectTests {
    static let models = TestResources.modelsDirectory.path

    static func sample(_ name: String) throws -> String {
        let path = TestResources.modelsDirectory.appendingPathComponent("samples/\(name)").path
        guard FileManager.default.fileExists(atPath: path) else {
            throw TestResources.Missing(description: "Models/samples/\(name) is missing: run Models/fetch.sh")
        }
        return path
    }

    /// Parses `detect --json` output into its images.
    static func images(_ output: String) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(output.utf8))
        let root = try #require(object as? [String: Any])
        return try #require(root["images"] as? [[String: Any]])
    }

    @Test("--json follows the contract, reports each image, and fails at the end for a bad one")
    func jsonContract() async throws {
        let scratch = try TemporaryDirectory()
        let corrupt = scratch.path("corrupt.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]).write(to: URL(fileURLWithPath: corrupt))
        let astronaut = try Self.sample("astronaut.png"), coffee = try Self.sample("coffee.png")
        let result = try await CommandLineTool.run(
            ["detect", astronaut, corrupt, coffee, "--json", "--model", "short-range", "--models-dir", Self.models,
             "--threads", "2"])
        #expect(result.status == 1, "\(result)")
        let images = try Self.images(result.standardOutput)
        #expect(images.map { $0["path"] as? String } == [astronaut, corrupt, coffee])

        // The astronaut: one face, as MediaPipe reports it (score 0.9217, box 177,82 95x95 in whole pixels).
        let first = images[0]
        #expect(first["width"] as? Int == 512 && first["height"] as? Int == 512)
        let faces = try #require(first["faces"] as? [[String: Any]])
        #expect(faces.count == 1)
        let face = try #require(faces.first)
        let score = try #require(face["score"] as? Double)
        #expect(abs(score - 0.9217) < 0.002)
        let box = try #require(face["box"] as? [String: Double])
        #expect(Int(box["x"] ?? 0) == 177 && Int(box["y"] ?? 0) == 82 && Int(box["width"] ?? 0) == 95)
        let keypoints = try #require(face["keypoints"] as? [[String: Any]])
        #expect(keypoints.compactMap { $0["type"] as? String } ==
                ["rightEye", "leftEye", "noseTip", "mouthCenter", "rightEarTragion", "leftEarTragion"])
        let rightEyeX = try #require(keypoints[0]["x"] as? Double), leftEyeX = try #require(keypoints[1]["x"] as? Double)
        #expect(rightEyeX < leftEyeX, "the subject's right eye is on the viewer's left")

        // The corrupt file has an error and no faces; the others went on.
        #expect(images[1]["faces"] == nil)
        #expect((images[1]["error"] as? String)?.isEmpty == false)
        #expect((images[2]["faces"] as? [Any])?.count == 0)
    }

    @Test("a folder is walked for JPEG and PNG files, annotated PNGs are written, progress goes to stderr")
    func folderAndAnnotation() async throws {
        let scratch = try TemporaryDirectory()
        let input = scratch.path("in"), nested = scratch.path("in/nested"), output = scratch.path("annotated")
        try FileManager.default.createDirectory(atPath: nested, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try Self.sample("astronaut.png"), toPath: input + "/astronaut.png")
        try FileManager.default.copyItem(atPath: try Self.sample("rocket.jpg"), toPath: nested + "/rocket.jpg")
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: input + "/notes.txt"))
        let result = try await CommandLineTool.run(
            ["detect", input, "--annotate", output, "--models-dir", Self.models, "--model", "full-range"])
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.contains("astronaut.png  512x512  1 face"), "\(result)")
        #expect(result.standardOutput.contains("rocket.jpg"), "\(result)")
        #expect(!result.standardOutput.contains("notes.txt"))
        #expect(result.standardError.contains("[2/2]"), "\(result)")
        for name in ["astronaut.png", "rocket.png"] {
            let data = try Data(contentsOf: URL(fileURLWithPath: output + "/" + name))
            #expect(Array(data.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "\(name) is not a PNG")
        }
    }

    @Test("the default detector is photo: the group photo's faces as full-range (short-range finds none), and a close-up's face, which full-range misses")
    func defaultModel() async throws {
        let group = try Self.sample("t1.jpg")
        let plain = try await CommandLineTool.run(["detect", group, "--json", "--models-dir", Self.models])
        let full = try await CommandLineTool.run(["detect", group, "--json", "--model", "full-range", "--models-dir", Self.models])
        let short = try await CommandLineTool.run(["detect", group, "--json", "--model", "short-range", "--models-dir", Self.models])
        #expect(plain.status == 0 && full.status == 0 && short.status == 0, "\(plain)\n\(short)")
        #expect(plain.standardOutput == full.standardOutput)
        #expect((try Self.images(plain.standardOutput)[0]["faces"] as? [Any])?.count == 5)
        #expect((try Self.images(short.standardOutput)[0]["faces"] as? [Any])?.count == 0)

        // A 112-pixel close-up of the obama sample's face (its square, 1.25 times the face).
        let scratch = try TemporaryDirectory()
        let square = try Samples.rgb("obama.jpg").cropped(x: 320..<666, y: 100..<446)
        let closeup = LargeSamples.resized(
            ImageBuffer(width: square.width, height: square.height, pixelFormat: .rgb8, pixels: square.pixels),
            width: 112, height: 112)
        try PNGEncoder.write(closeup, to: scratch.path("closeup.png"))
        let count = { (model: [String]) async throws -> Int? in
            let result = try await CommandLineTool.run(["detect", scratch.path("closeup.png"), "--json",
                                                        "--models-dir", Self.models] + model)
            return (try Self.images(result.standardOutput)[0]["faces"] as? [Any])?.count
        }
        #expect(try await count([]) == 1)
        #expect(try await count(["--model", "short-range"]) == 1)
        #expect(try await count(["--model", "full-range"]) == 0)
    }

    @Test("a model given by path behaves like the named model")
    func modelByPath() async throws {
        let astronaut = try Self.sample("astronaut.png")
        let named = try await CommandLineTool.run(["detect", astronaut, "--json", "--model", "full-range", "--models-dir", Self.models])
        let path = try TestResources.modelPath("face_detection_full_range.tflite")
        let byPath = try await CommandLineTool.run(["detect", astronaut, "--json", "--model", path])
        #expect(named.status == 0 && byPath.status == 0, "\(named)\n\(byPath)")
        #expect(named.standardOutput == byPath.standardOutput)
    }

    @Test("--max-macs and --max-operators: a detector file past them is refused, naming the limit; limits it fits change nothing")
    func modelLimits() async throws {
        let astronaut = try Self.sample("astronaut.png")
        let path = try TestResources.modelPath("face_detection_full_range.tflite")
        let refused = try await CommandLineTool.run(["detect", astronaut, "--model", path, "--max-macs", "1000000"])
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.standardError.contains("multiply-accumulates, more than the limit of 1000000"), "\(refused)")
        let operators = try await CommandLineTool.run(["detect", astronaut, "--model", path, "--max-operators", "20"])
        #expect(operators.status == 1 && operators.standardError.contains("operators, more than the limit of 20"),
                "\(operators)")
        let plain = try await CommandLineTool.run(["detect", astronaut, "--json", "--model", path])
        let fitting = try await CommandLineTool.run(["detect", astronaut, "--json", "--model", path,
                                                     "--max-macs", "2000000000", "--max-arena-bytes", "100000000"])
        #expect(plain.status == 0 && fitting.status == 0 && plain.standardOutput == fitting.standardOutput)
    }

    @Test("options change the result as documented")
    func options() async throws {
        let astronaut = try Self.sample("astronaut.png")
        let strict = try await CommandLineTool.run(["detect", astronaut, "--json", "--model", "short-range", "--min-score", "0.95",
                                                    "--models-dir", Self.models])
        #expect(strict.status == 0, "\(strict)")
        #expect((try Self.images(strict.standardOutput)[0]["faces"] as? [Any])?.count == 0)
        let hard = try await CommandLineTool.run(["detect", astronaut, "--json", "--nms", "hard", "--nms-iou", "0.5",
                                                  "--max-faces", "1", "--crop", "center", "--models-dir", Self.models])
        #expect(hard.status == 0, "\(hard)")
        #expect((try Self.images(hard.standardOutput)[0]["faces"] as? [Any])?.count == 1)
    }

    @Test("bad arguments and a missing model are clear errors", arguments: [
        (["--threads", "0"], "--threads"),
        (["--min-score", "2"], "--min-score"),
        (["--nms-iou", "-1"], "--nms-iou"),
        (["--nms", "fancy"], "fancy"),
        (["--max-faces", "0"], "--max-faces"),
        (["--models-dir", "/nonexistent-folder"], "Models/fetch.sh"),
    ])
    func badArguments(extra: [String], phrase: String) async throws {
        let result = try await CommandLineTool.run(["detect", try Self.sample("astronaut.png")] + extra)
        #expect(result.status != 0, "\(result)")
        #expect(result.standardError.contains(phrase), "\(result)")
    }

    @Test("a missing file is reported per image")
    func missingFile() async throws {
        let result = try await CommandLineTool.run(["detect", "/nonexistent/picture.jpg", "--json", "--models-dir", Self.models])
        #expect(result.status == 1, "\(result)")
        let images = try Self.images(result.standardOutput)
        #expect(images.count == 1 && images[0]["error"] != nil)
    }
}
