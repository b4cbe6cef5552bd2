import BlazeImageIO
import BlazeTestSupport
import Foundation
import Testing

/// `blazeface analyze` end to end: the JSON contract, the framings' hints, a group photo, annotation and
/// failures.
@Suite struct AnalyzeTests {
    static let models = DetectTests.models

    static func faces(_ image: [String: Any]) throws -> [[String: Any]] {
        try #require(image["faces"] as? [[String: Any]], "no faces in \(image)")
    }

    static func hints(_ object: [String: Any]) throws -> [String] {
        try #require(object["hints"] as? [String], "no hints in \(object)")
    }

    @Test("--json follows the contract: pose, eyes, smile, quality and hints per face; noFace for a picture without one")
    func jsonContract() async throws {
        let scratch = try TemporaryDirectory()
        let corrupt = scratch.path("corrupt.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 1, 2, 3]).write(to: URL(fileURLWithPath: corrupt))
        let astronaut = try DetectTests.sample("astronaut.png"), coffee = try DetectTests.sample("coffee.png")
        let result = try await CommandLineTool.run(
            ["analyze", astronaut, corrupt, coffee, "--json", "--models-dir", Self.models, "--threads", "2"])
        #expect(result.status == 1, "\(result)")
        let images = try DetectTests.images(result.standardOutput)
        #expect(images.map { $0["path"] as? String } == [astronaut, corrupt, coffee])

        let first = images[0]
        #expect(Set(first.keys) == ["path", "width", "height", "hints", "faces"])
        #expect(try Self.hints(first).isEmpty, "the astronaut passes the selfie framing: \(first)")
        let face = try #require(try Self.faces(first).first)
        #expect(Set(face.keys) == ["box", "score", "pose", "leftEyeOpen", "rightEyeOpen", "smiling", "quality", "hints"])
        let box = try #require(face["box"] as? [String: Double])
        #expect(Set(box.keys) == ["x", "y", "width", "height"])
        let pose = try #require(face["pose"] as? [String: Double])
        #expect(Set(pose.keys) == ["pitch", "yaw", "roll"])
        // She looks slightly down (the camera is above her eyes), straight at it, with a small tilt.
        let pitch = pose["pitch"] ?? .nan, yaw = pose["yaw"] ?? .nan, roll = pose["roll"] ?? .nan
        #expect(pitch < -5 && pitch > -25 && abs(yaw) < 8 && abs(roll) < 8, "\(pose)")
        for key in ["leftEyeOpen", "rightEyeOpen", "smiling"] {
            let value = try #require(face[key] as? Double)
            #expect(value > 0.8 && value <= 1, "\(key) \(value): open eyes, a broad smile")
        }
        let quality = try #require(face["quality"] as? Double)
        #expect(quality > 0.5 && quality <= 1)
        #expect(try Self.hints(face).isEmpty)

        #expect(images[1]["faces"] == nil && (images[1]["error"] as? String)?.isEmpty == false)
        #expect(try Self.faces(images[2]).isEmpty)
        #expect(try Self.hints(images[2]) == ["noFace"])
    }

    @Test("--framing passport judges the same face too small and off centre in the whole 512x512 picture")
    func passportFraming() async throws {
        let astronaut = try DetectTests.sample("astronaut.png")
        let result = try await CommandLineTool.run(["analyze", astronaut, "--json", "--framing", "passport",
                                                    "--models-dir", Self.models])
        #expect(result.status == 0, "\(result)")
        let image = try #require(try DetectTests.images(result.standardOutput).first)
        let face = try #require(try Self.faces(image).first)
        #expect(try Self.hints(face) == ["tooSmall", "offCentre"])
        #expect(try Self.hints(image) == ["tooSmall", "offCentre"])
        #expect(try #require(face["quality"] as? Double) < 0.5)
    }

    @Test("a group photo: multipleFaces, and the winking face's closed eye")
    func groupPhoto() async throws {
        let group = try DetectTests.sample("t1.jpg")
        let result = try await CommandLineTool.run(["analyze", group, "--json", "--models-dir", Self.models])
        #expect(result.status == 0, "\(result)")
        let image = try #require(try DetectTests.images(result.standardOutput).first)
        let faces = try Self.faces(image)
        #expect(faces.count >= 4, "\(faces.count) faces")
        #expect(try Self.hints(image).first == "multipleFaces")
        // Tests/Goldens/labels/expressions.json: one man winks with his own left eye.
        let winks = faces.filter {
            ($0["leftEyeOpen"] as? Double ?? 1) < 0.5 && ($0["rightEyeOpen"] as? Double ?? 0) > 0.9
        }
        #expect(winks.count == 1, "\(faces.map { ($0["leftEyeOpen"] ?? "-", $0["rightEyeOpen"] ?? "-") })")
        #expect(try winks.allSatisfy { try Self.hints($0).contains("eyesClosed") })
    }

    @Test("--annotate draws the box, the axes and the label around the face only")
    func annotation() async throws {
        let scratch = try TemporaryDirectory()
        let astronaut = try DetectTests.sample("astronaut.png"), output = scratch.path("annotated")
        let result = try await CommandLineTool.run(["analyze", astronaut, "--annotate", output, "--models-dir", Self.models])
        #expect(result.status == 0, "\(result)")
        let drawn = try ImageDecoder.decode(contentsOf: output + "/astronaut.png").uprightRGB()
        let original = try ImageDecoder.decode(contentsOf: astronaut).uprightRGB()
        #expect(drawn.width == original.width && drawn.height == original.height)
        var changed = 0, changedFarAway = 0, red = 0, label = 0
        for y in 0..<drawn.height {
            for x in 0..<drawn.width {
                let i = (y * drawn.width + x) * 3
                guard drawn.pixels[i..<i + 3] != original.pixels[i..<i + 3] else { continue }
                changed += 1
                // The face's box is about (175...280, 70...175); the label hangs below it.
                if y < 40 || y > 280 || x < 150 || x > 400 { changedFarAway += 1 }
                if drawn.pixels[i] == 230, drawn.pixels[i + 1] == 40, drawn.pixels[i + 2] == 30 { red += 1 }
                if y > 175, drawn.pixels[i..<i + 3] == [255, 255, 255] { label += 1 }
            }
        }
        #expect(changed > 2000 && changedFarAway == 0, "\(changed) changed, \(changedFarAway) far away")
        #expect(red > 20, "the x axis")
        #expect(label > 200, "the label's text")
    }

    @Test("bad arguments are usage errors (status 64)", arguments: [
        (["--max-faces", "0"], "--max-faces"),
        (["--framing", "bogus"], "bogus"),
        (["--detector", "face-mesh"], "face-mesh"),
    ])
    func badArguments(extra: [String], phrase: String) async throws {
        let result = try await CommandLineTool.run(["analyze", try DetectTests.sample("astronaut.png")] + extra)
        #expect(result.status == 64, "\(result)")
        #expect(result.standardError.contains(phrase), "\(result)")
    }
}
