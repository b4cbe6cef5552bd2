import BlazeFace
import BlazeImageIO
import BlazeTestSupport
import Foundation
import Testing

/// `detect`'s shrink-on-load (the default; `--full-decode` turns it off): large JPEGs decoded at 1/2 to 1/8, faces
/// reported in the full picture's pixels; pictures below 9 times the detector's input give exactly the output of a
/// full decode.
@Suite struct ShrinkOnLoadTests {
    static let models = DetectTests.models

    static func boxes(_ output: String) throws -> [[String: Double]] {
        try RotationTests.faces(output).compactMap { $0["box"] as? [String: Double] }
    }

    static func iou(_ a: [String: Double], _ b: [String: Double]) -> Double {
        let (ax, ay, aw, ah) = (a["x"] ?? 0, a["y"] ?? 0, a["width"] ?? 0, a["height"] ?? 0)
        let (bx, by, bw, bh) = (b["x"] ?? 0, b["y"] ?? 0, b["width"] ?? 0, b["height"] ?? 0)
        let w = max(0, min(ax + aw, bx + bw) - max(ax, bx)), h = max(0, min(ay + ah, by + bh) - max(ay, by))
        return w * h / (aw * ah + bw * bh - w * h)
    }

    @Test("pictures smaller than 9 x the input (the samples) give the full decode's output, byte for byte")
    func smallPicturesUnchanged() async throws {
        let paths = try ["astronaut.png", "t1.jpg", "multi_face.jpg"].map(DetectTests.sample)
        let full = try await CommandLineTool.run(["detect", "--json", "--full-decode", "--models-dir", Self.models] + paths)
        let shrunk = try await CommandLineTool.run(["detect", "--json", "--models-dir", Self.models] + paths)
        #expect(full.status == 0 && shrunk.status == 0)
        #expect(full.standardOutput == shrunk.standardOutput)
    }

    @Test("a 12 MP JPEG, upright and stored turned (EXIF 6 and 3): the same faces in the full picture's pixels",
          arguments: [ImageOrientation.up, .right, .down])
    func largePicture(orientation: ImageOrientation) async throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.path("obama-12mp.jpg")
        try Data(try LargeSamples.jpeg("obama.jpg", megapixels: 12, orientation: orientation))
            .write(to: URL(fileURLWithPath: path))
        let full = try await CommandLineTool.run(["detect", path, "--json", "--full-decode", "--models-dir", Self.models])
        let shrunk = try await CommandLineTool.run(["detect", path, "--json", "--models-dir", Self.models])
        #expect(full.status == 0 && shrunk.status == 0, "\(shrunk)")
        let a = try #require(try DetectTests.images(full.standardOutput).first)
        let b = try #require(try DetectTests.images(shrunk.standardOutput).first)
        #expect(a["width"] as? Int == b["width"] as? Int && a["height"] as? Int == b["height"] as? Int)
        #expect((a["width"] as? Int ?? 0) * (a["height"] as? Int ?? 0) > 11_000_000)
        // Decoded at 1/2 (4,000 pixels long, 2,000 >= 1,728): close, but not the full decode's bits.
        #expect(full.standardOutput != shrunk.standardOutput)
        let fullBoxes = try Self.boxes(full.standardOutput), shrunkBoxes = try Self.boxes(shrunk.standardOutput)
        #expect(fullBoxes.count == 1 && shrunkBoxes.count == 1)
        for (x, y) in zip(fullBoxes, shrunkBoxes) {
            #expect(Self.iou(x, y) >= 0.95, "\(x) \(y)")
        }
        // Keypoints land on the same spots of the full picture (within 1 % of its long side).
        let keypoints = { (output: String) throws -> [[String: Any]] in
            try #require(try RotationTests.faces(output).first?["keypoints"] as? [[String: Any]])
        }
        let side = Double(max(a["width"] as? Int ?? 0, a["height"] as? Int ?? 0))
        for (p, q) in zip(try keypoints(full.standardOutput), try keypoints(shrunk.standardOutput)) {
            let dx = (p["x"] as? Double ?? 0) - (q["x"] as? Double ?? 0), dy = (p["y"] as? Double ?? 0) - (q["y"] as? Double ?? 0)
            #expect((dx * dx + dy * dy).squareRoot() < 0.01 * side, "\(p) \(q)")
        }
    }

    @Test("the rule: 9 x the input; a 12 MP JPEG decodes at 1/2 for full-range, 1/2 for short-range (1,152)")
    func rule() throws {
        let full = try FaceDetector(model: .fullRange, modelsDirectory: Self.models)
        let short = try FaceDetector(model: .shortRange, modelsDirectory: Self.models)
        #expect(full.shrinkOnLoadLongSide == 1728 && short.shrinkOnLoadLongSide == 1152)
        let bytes = try LargeSamples.jpeg("obama.jpg", megapixels: 12)
        #expect(try ImageDecoder.decodeScaled(data: bytes, minimumLongSide: full.shrinkOnLoadLongSide).scaleDenominator == 2)
        #expect(try ImageDecoder.decodeScaled(data: bytes, minimumLongSide: short.shrinkOnLoadLongSide).scaleDenominator == 2)
    }

    @Test("--annotate decodes in full: its faces are --full-decode's, and it draws on the full picture")
    func annotateDecodesInFull() async throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.path("obama-12mp.jpg")
        try Data(try LargeSamples.jpeg("obama.jpg", megapixels: 12)).write(to: URL(fileURLWithPath: path))
        let annotated = try await CommandLineTool.run(["detect", path, "--json", "--annotate", scratch.path("out"),
                                                       "--models-dir", Self.models])
        let full = try await CommandLineTool.run(["detect", path, "--json", "--full-decode", "--models-dir", Self.models])
        #expect(annotated.status == 0 && annotated.standardOutput == full.standardOutput, "\(annotated)")
        let drawn = try ImageDecoder.decode(contentsOf: scratch.path("out/obama-12mp.png"))
        let info = try #require(try DetectTests.images(full.standardOutput).first)
        #expect(drawn.width == info["width"] as? Int && drawn.height == info["height"] as? Int)
    }
}
