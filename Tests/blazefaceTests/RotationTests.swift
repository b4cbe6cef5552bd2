import BlazeImageIO
import BlazeTestSupport
import Foundation
import Testing

/// `--try-rotations` on `detect`, `landmarks` and `analyze`: sideways pictures, and nothing changed without it.
@Suite struct RotationTests {
    static let models = TestResources.modelsDirectory.path

    /// Sample `name` with its pixels turned `quarterTurns` times 90° clockwise, written without EXIF into `folder`.
    static func turnedPicture(_ name: String, quarterTurns: Int, in folder: TemporaryDirectory) throws -> String {
        var image = try ImageDecoder.decode(contentsOf: try DetectTests.sample(name)).uprightRGB()
        image.orientation = ImageOrientation(quarterTurns: quarterTurns, mirrored: false)
        let path = folder.path("\(name)-turned-\(quarterTurns).png")
        try PNGEncoder.write(try image.uprightRGB(), to: path)
        return path
    }

    /// The faces of the first image of a `--json` document.
    static func faces(_ output: String) throws -> [[String: Any]] {
        try #require(try DetectTests.images(output).first?["faces"] as? [[String: Any]])
    }

    /// `object` with every `uprightRotation` key removed, at any depth.
    static func withoutRotation(_ object: Any) -> Any {
        if let dictionary = object as? [String: Any] {
            return dictionary.filter { $0.key != "uprightRotation" }.mapValues(withoutRotation)
        }
        if let array = object as? [Any] { return array.map(withoutRotation) }
        return object
    }

    static func json(_ output: String) throws -> NSDictionary {
        try #require(withoutRotation(try JSONSerialization.jsonObject(with: Data(output.utf8))) as? NSDictionary)
    }

    @Test("the group photo turned sideways: fewer faces without the flag, all five with it, each with its turn",
          arguments: [1, 3])
    func sidewaysGroupPhoto(quarterTurns: Int) async throws {
        let scratch = try TemporaryDirectory()
        let picture = try Self.turnedPicture("multi_face.jpg", quarterTurns: quarterTurns, in: scratch)
        let plain = try await CommandLineTool.run(["detect", picture, "--json", "--models-dir", Self.models])
        #expect(plain.status == 0, "\(plain)")
        #expect(try Self.faces(plain.standardOutput).count < 5)
        #expect(!plain.standardOutput.contains("uprightRotation"))
        let rotating = try await CommandLineTool.run(["detect", picture, "--json", "--try-rotations", "--models-dir", Self.models])
        #expect(rotating.status == 0, "\(rotating)")
        let faces = try Self.faces(rotating.standardOutput)
        #expect(faces.count == 5)
        #expect(faces.map { $0["uprightRotation"] as? Int } == Array(repeating: 360 - 90 * quarterTurns, count: faces.count))
        let table = try await CommandLineTool.run(["detect", picture, "--try-rotations", "--models-dir", Self.models])
        #expect(table.standardOutput.contains("5 faces"))
        #expect(table.standardOutput.contains("upright rotation \(360 - 90 * quarterTurns)°"))
    }

    @Test("landmarks and analyze on a sideways portrait report the turn, the mesh and the pose")
    func landmarksAndAnalyze() async throws {
        let scratch = try TemporaryDirectory()
        let picture = try Self.turnedPicture("astronaut.png", quarterTurns: 1, in: scratch)
        let landmarks = try await CommandLineTool.run(["landmarks", picture, "--json", "--try-rotations", "--models-dir", Self.models])
        #expect(landmarks.status == 0, "\(landmarks)")
        let meshes = try Self.faces(landmarks.standardOutput)
        #expect(meshes.count == 1)
        #expect(meshes.first?["uprightRotation"] as? Int == 270)
        #expect((meshes.first?["landmarks"] as? [Any])?.count == 478)
        let analyze = try await CommandLineTool.run(["analyze", picture, "--json", "--try-rotations", "--models-dir", Self.models])
        #expect(analyze.status == 0, "\(analyze)")
        let analyzed = try Self.faces(analyze.standardOutput)
        #expect(analyzed.count == 1)
        #expect(analyzed.first?["uprightRotation"] as? Int == 270)
        // The astronaut's head is nearly level (roll about -3°); turned 90° clockwise, about -93°.
        let roll = try #require((analyzed.first?["pose"] as? [String: Double])?["roll"])
        #expect(abs(roll + 93) < 8, "roll \(roll)")
    }

    /// Without the flag, every command's output has no `uprightRotation` and is the flag's output without it: the
    /// option changes nothing unless asked (the library runs the unchanged single detection when it is off).
    @Test("without --try-rotations the output is the same, without uprightRotation", arguments: ["detect", "landmarks", "analyze"])
    func unchangedWithoutFlag(command: String) async throws {
        let astronaut = try DetectTests.sample("astronaut.png")
        let off = try await CommandLineTool.run([command, astronaut, "--json", "--models-dir", Self.models])
        let on = try await CommandLineTool.run([command, astronaut, "--json", "--try-rotations", "--models-dir", Self.models])
        #expect(off.status == 0 && on.status == 0, "\(off)\n\(on)")
        #expect(!off.standardOutput.contains("uprightRotation"))
        #expect(on.standardOutput.contains("\"uprightRotation\" : 0"))
        #expect(try Self.json(off.standardOutput) == (try Self.json(on.standardOutput)))
        let offTable = try await CommandLineTool.run([command, astronaut, "--models-dir", Self.models])
        let onTable = try await CommandLineTool.run([command, astronaut, "--try-rotations", "--models-dir", Self.models])
        #expect(offTable.standardOutput == onTable.standardOutput.replacingOccurrences(of: "  upright rotation 0°", with: ""))
        #expect(!offTable.standardOutput.contains("upright"))
    }
}

extension RotationTests {
    /// A turned video (the astronaut turned by a quarter turn, no rotation metadata): with the flag, the detector
    /// finds her on the first frame and the tracker follows her with one ID; upside down, not without it.
    @Test("track --try-rotations follows a turned face", arguments: [ImageOrientation.right, .down, .left])
    func sidewaysVideo(turn: ImageOrientation) async throws {
        let scratch = try TemporaryDirectory()
        let astronaut = try Samples.astronaut()
        var buffer = ImageBuffer(width: astronaut.width, height: astronaut.height, pixelFormat: .rgb8,
                                 pixels: astronaut.pixels, orientation: turn)
        buffer = try buffer.uprightRGB()
        let turned = RGBImage(width: buffer.width, height: buffer.height, pixels: buffer.pixels)
        // The window around her face, wherever the turn put it.
        let (x, y) = turn == .right ? (180, 130) : turn == .down ? (120, 300) : (0, 200)
        let frames = (0..<6).map { TrackVideos.window(turned, x: x + 2 * $0, y: y) }
        let input = scratch.path("sideways.mp4")
        try TrackVideos.write(frames, to: input)
        let plain = try await CommandLineTool.run(["track", input, "--json-lines", "--models-dir", Self.models])
        #expect(plain.status == 0, "\(plain)")
        if turn == .down {
            // Upside down, the plain detector misses her (turned 90° in this small frame it finds her anyway).
            #expect(TrackVideos.ids(try TrackVideos.lines(plain.standardOutput)).allSatisfy(\.isEmpty), "\(plain)")
        }
        let rotating = try await CommandLineTool.run(["track", input, "--json-lines", "--try-rotations",
                                                      "--models-dir", Self.models])
        #expect(rotating.status == 0, "\(rotating)")
        let lines = try TrackVideos.lines(rotating.standardOutput)
        #expect(TrackVideos.ids(lines) == Array(repeating: [1], count: frames.count), "\(rotating)")
        // Each face reports the turn that makes it upright, as `detect --try-rotations` does for a picture.
        let turns = lines.flatMap { ($0["faces"] as? [[String: Any]] ?? []).map { $0["uprightRotation"] as? Int } }
        #expect(turns == Array(repeating: (360 - 90 * turn.quarterTurns) % 360, count: frames.count), "\(turns)")
        #expect(!plain.standardOutput.contains("uprightRotation"))
    }
}
