import BlazeImageIO
import BlazeTestSupport
import Foundation
import Testing

/// `blazeface landmarks` end to end: the JSON contract, MediaPipe's FaceMesh with `--detector short-range`,
/// the three models, annotation and failures.
@Suite struct LandmarksTests {
    static let models = DetectTests.models

    /// The faces of one image of `landmarks --json` output.
    static func faces(_ image: [String: Any]) throws -> [[String: Any]] {
        try #require(image["faces"] as? [[String: Any]], "no faces in \(image)")
    }

    /// A face's landmarks as `[x, y, z]` triples.
    static func landmarks(_ face: [String: Any]) throws -> [[Double]] {
        try #require(face["landmarks"] as? [[Double]])
    }

    /// A golden picture of Tests/Goldens/mediapipe/face_mesh.json written as a PNG file into `folder`.
    static func goldenPicture(_ name: String, in folder: TemporaryDirectory) throws -> String {
        let rgb = try FaceMeshGoldens.picture(name)
        let path = folder.path(name + ".png")
        try PNGEncoder.write(ImageBuffer(width: rgb.width, height: rgb.height, pixelFormat: .rgb8, pixels: rgb.pixels),
                             to: path)
        return path
    }

    @Test("--json follows the contract, reports each image, and fails at the end for a bad one")
    func jsonContract() async throws {
        let scratch = try TemporaryDirectory()
        let corrupt = scratch.path("corrupt.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]).write(to: URL(fileURLWithPath: corrupt))
        let astronaut = try DetectTests.sample("astronaut.png"), coffee = try DetectTests.sample("coffee.png")
        let result = try await CommandLineTool.run(
            ["landmarks", astronaut, corrupt, coffee, "--json", "--models-dir", Self.models, "--threads", "2"])
        #expect(result.status == 1, "\(result)")
        let images = try DetectTests.images(result.standardOutput)
        #expect(images.map { $0["path"] as? String } == [astronaut, corrupt, coffee])

        let first = images[0]
        #expect(Set(first.keys) == ["path", "width", "height", "faces"])
        #expect(first["width"] as? Int == 512 && first["height"] as? Int == 512)
        let faces = try Self.faces(first)
        #expect(faces.count == 1)
        let face = try #require(faces.first)
        #expect(Set(face.keys) == ["box", "score", "presence", "landmarks"])
        let box = try #require(face["box"] as? [String: Double])
        #expect(Set(box.keys) == ["x", "y", "width", "height"])
        let (x, y, width, height) = (box["x"] ?? .nan, box["y"] ?? .nan, box["width"] ?? .nan, box["height"] ?? .nan)
        #expect(width > 80 && width < 130 && height > 80 && height < 130, "\(box)")
        let score = try #require(face["score"] as? Double), presence = try #require(face["presence"] as? Double)
        #expect(score > 0.6 && score <= 1, "the full-range detection's score")
        #expect(presence > 0.99 && presence <= 1)

        let points = try Self.landmarks(face)
        #expect(points.count == 478)
        #expect(points.allSatisfy { $0.count == 3 && $0.allSatisfy(\.isFinite) })
        let nose = points[1]
        #expect(nose[0] > x && nose[0] < x + width && nose[1] > y && nose[1] < y + height, "nose tip \(nose) in \(box)")
        #expect(points[33][0] < points[263][0], "the subject's right eye corner is on the viewer's left")
        #expect(points[468][0] < points[473][0], "the subject's right iris is on the viewer's left")

        #expect(images[1]["faces"] == nil)
        #expect((images[1]["error"] as? String)?.isEmpty == false)
        #expect(try Self.faces(images[2]).isEmpty)
    }

    @Test("--detector short-range is MediaPipe's FaceMesh: the same faces, points within 0.5% of the eye distance",
          arguments: [("astronaut", "attention", "refined"), ("astronaut", "mesh", "plain"),
                      ("astronaut_group_1280x720", "attention", "refined")])
    func mediaPipeFaceMesh(picture: String, model: String, mode: String) async throws {
        let scratch = try TemporaryDirectory()
        let path = try Self.goldenPicture(picture, in: scratch)
        let golden = try FaceMeshGoldens.load()
        let goldenMode = try #require(FaceMeshGoldens.Mode(rawValue: mode))
        let expected = try golden.result(goldenMode, picture).faces.filter { $0.landmarks != nil }
        let result = try await CommandLineTool.run(["landmarks", path, "--json", "--detector", "short-range",
                                                    "--model", model, "--models-dir", Self.models])
        #expect(result.status == 0, "\(result)")
        let image = try #require(try DetectTests.images(result.standardOutput).first)
        let faces = try Self.faces(image)
        let width = Double(try #require(image["width"] as? Int)), height = Double(try #require(image["height"] as? Int))
        #expect(faces.count == expected.count && !expected.isEmpty)
        for (face, reference) in zip(faces, expected) {
            let ours = try Self.landmarks(face)
            let theirs = try #require(reference.landmarks).map { [$0[0] * width, $0[1] * height, $0[2] * width] }
            #expect(ours.count == goldenMode.landmarkCount && theirs.count == ours.count)
            let eyes = hypot(theirs[33][0] - theirs[263][0], theirs[33][1] - theirs[263][1])
            let mean = zip(ours, theirs).map { hypot($0[0] - $1[0], $0[1] - $1[1]) }.reduce(0, +) / Double(ours.count)
            #expect(mean / eyes < 0.005, "NME \(mean / eyes)")
            #expect(abs((face["presence"] as? Double ?? .nan) - reference.presence) < 0.01)
            #expect(abs((face["score"] as? Double ?? .nan) - reference.detection.score) < 0.002)
        }
    }

    @Test("each model gives its number of points, in the JSON and in the text output",
          arguments: [("attention", 478), ("mesh", 468), ("mesh-iris", 478)])
    func models(model: String, count: Int) async throws {
        let astronaut = try DetectTests.sample("astronaut.png")
        let json = try await CommandLineTool.run(["landmarks", astronaut, "--json", "--model", model, "--models-dir", Self.models])
        #expect(json.status == 0, "\(json)")
        let faces = try Self.faces(try #require(try DetectTests.images(json.standardOutput).first))
        #expect(try faces.map { try Self.landmarks($0).count } == [count])
        let text = try await CommandLineTool.run(["landmarks", astronaut, "--model", model, "--models-dir", Self.models])
        #expect(text.status == 0, "\(text)")
        #expect(text.standardOutput.contains("astronaut.png  512x512  1 face"), "\(text)")
        #expect(text.standardOutput.contains("\(count) points  nose tip ("), "\(text)")
        #expect(text.standardOutput.contains("left iris (") == (count == 478), "\(text)")
    }

    @Test("the default detector finds more faces of a group picture than short-range; --max-faces keeps the best")
    func detectorsAndMaximum() async throws {
        let scratch = try TemporaryDirectory()
        let path = try Self.goldenPicture("astronaut_group_1280x720", in: scratch)
        func count(_ extra: [String]) async throws -> [Double] {
            let result = try await CommandLineTool.run(["landmarks", path, "--json", "--model", "mesh",
                                                        "--models-dir", Self.models] + extra)
            #expect(result.status == 0, "\(result)")
            return try Self.faces(try #require(try DetectTests.images(result.standardOutput).first))
                .map { $0["score"] as? Double ?? .nan }
        }
        let all = try await count([]), short = try await count(["--detector", "short-range"])
        let best = try await count(["--max-faces", "1"])
        #expect(all.count >= short.count && short.count == 3, "full-range \(all), short-range \(short)")
        #expect(best.count == 1 && best.first == all.max())
    }

    @Test("--annotate writes a PNG of the upright image with the mesh drawn on the face only")
    func annotation() async throws {
        let scratch = try TemporaryDirectory()
        let astronaut = try DetectTests.sample("astronaut.png"), output = scratch.path("annotated")
        let result = try await CommandLineTool.run(["landmarks", astronaut, "--annotate", output, "--models-dir", Self.models])
        #expect(result.status == 0, "\(result)")
        let drawn = try ImageDecoder.decode(contentsOf: output + "/astronaut.png").uprightRGB()
        let original = try ImageDecoder.decode(contentsOf: astronaut).uprightRGB()
        #expect(drawn.width == original.width && drawn.height == original.height)
        var changed = 0, changedFarAway = 0
        for y in 0..<drawn.height {
            for x in 0..<drawn.width {
                let i = (y * drawn.width + x) * 3
                guard drawn.pixels[i..<i + 3] != original.pixels[i..<i + 3] else { continue }
                changed += 1
                if y > 300 || x < 100 || x > 400 { changedFarAway += 1 }  // the face region is about 150...300, 40...200
            }
        }
        #expect(changed > 5000, "the mesh covers the face")
        #expect(changedFarAway == 0)
    }

    @Test("bad arguments are usage errors (status 64), a missing model is a failure (status 1)", arguments: [
        (["--max-faces", "0"], "--max-faces", Int32(64)),
        (["--model", "bogus"], "bogus", 64),
        (["--detector", "face-mesh"], "face-mesh", 64),
        (["--threads", "0"], "--threads", 64),
        (["--models-dir", "/nonexistent-folder"], "Models/fetch.sh", 1),
    ])
    func badArguments(extra: [String], phrase: String, status: Int32) async throws {
        let result = try await CommandLineTool.run(["landmarks", try DetectTests.sample("astronaut.png")] + extra)
        #expect(result.status == status, "\(result)")
        #expect(result.standardError.contains(phrase), "\(result)")
    }
}
