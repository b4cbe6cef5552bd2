import BlazeImageIO
import BlazeTestSupport
import Foundation
import Testing

/// `blazeface segment` end to end: the mask files against MediaPipe's goldens, the JSON contract, background
/// replacement (white, a picture of another size), `--model automatic`, and failures.
@Suite struct SegmentTests {
    static let models = DetectTests.models

    /// MediaPipe 0.10.21's 8-bit mask of a golden picture (Tests/Goldens/mediapipe, byte = rint(mask · 255)).
    static func goldenMask(_ model: String, _ picture: String) throws -> DecodedImage {
        try ImageDecoder.decode(contentsOf: TestResources.goldensDirectory
            .appendingPathComponent("mediapipe/segmentation_\(model)_\(picture).png").path)
    }

    /// A picture of Tests/Goldens/mediapipe/segmentation.json, rebuilt from its recipe and written as PNG.
    static func goldenPicture(_ name: String, in folder: TemporaryDirectory) throws -> String {
        struct Pictures: Decodable { var images: [String: GoldenPicture] }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let url = TestResources.goldensDirectory.appendingPathComponent("mediapipe/segmentation.json")
        let spec = try #require(try decoder.decode(Pictures.self, from: Data(contentsOf: url)).images[name])
        let rgb = try spec.build(name: name)
        let path = folder.path(name + ".png")
        try PNGEncoder.write(ImageBuffer(width: rgb.width, height: rgb.height, pixelFormat: .rgb8, pixels: rgb.pixels), to: path)
        return path
    }

    /// A PNG file's IHDR bit depth and colour type (0: grayscale, 2: RGB).
    static func pngHeader(_ path: String) throws -> (bitDepth: UInt8, colorType: UInt8) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        try #require(bytes.count > 26 && Array(bytes[12..<16]) == Array("IHDR".utf8))
        return (bytes[24], bytes[25])
    }

    /// The largest difference between two gray8 images of the same size.
    static func maxDifference(_ a: DecodedImage, _ b: DecodedImage) -> Int {
        zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? .max
    }

    @Test("--mask-dir writes DIR/<name>.png, 8-bit gray at the image's size, MediaPipe's mask within one level")
    func maskFiles() async throws {
        let scratch = try TemporaryDirectory()
        let astronaut = try DetectTests.sample("astronaut.png"), masks = scratch.path("masks")
        let result = try await CommandLineTool.run(["segment", astronaut, "--mask-dir", masks, "--models-dir", Self.models])
        #expect(result.status == 0, "\(result)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: masks) == ["astronaut.png"])
        let path = masks + "/astronaut.png"
        let header = try Self.pngHeader(path)
        #expect(header.bitDepth == 8 && header.colorType == 0, "8-bit grayscale: \(header)")
        let mask = try ImageDecoder.decode(contentsOf: path)
        #expect(mask.pixelFormat == .gray8 && mask.width == 512 && mask.height == 512)
        let golden = try Self.goldenMask("general", "astronaut")
        #expect(golden.width == 512 && golden.height == 512)
        #expect(Self.maxDifference(mask, golden) <= 1)
        #expect(result.standardOutput.contains("astronaut.png  512x512  general  54.5% person  mask \(path)"), "\(result)")
    }

    @Test("--json follows the contract; a corrupt image is reported on its own and the exit status is 1")
    func jsonContractAndCorruptImage() async throws {
        let scratch = try TemporaryDirectory()
        let corrupt = scratch.path("corrupt.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]).write(to: URL(fileURLWithPath: corrupt))
        let astronaut = try DetectTests.sample("astronaut.png"), coffee = try DetectTests.sample("coffee.png")
        let masks = scratch.path("masks"), out = scratch.path("out")
        let result = try await CommandLineTool.run(
            ["segment", astronaut, corrupt, coffee, "--json", "--mask-dir", masks, "--background", "#102030",
             "--out", out, "--models-dir", Self.models, "--threads", "2"])
        #expect(result.status == 1, "\(result)")
        let images = try DetectTests.images(result.standardOutput)
        #expect(images.map { $0["path"] as? String } == [astronaut, corrupt, coffee])

        let first = images[0]
        #expect(Set(first.keys) == ["path", "width", "height", "model", "personShare", "mask", "output"])
        #expect(first["width"] as? Int == 512 && first["height"] as? Int == 512 && first["model"] as? String == "general")
        let share = try #require(first["personShare"] as? Double)
        #expect(abs(share - 0.5446587) < 0.001, "MediaPipe's share of pixels above 0.5 is 0.5446587")
        #expect(first["mask"] as? String == masks + "/astronaut.png" && first["output"] as? String == out + "/astronaut.png")

        #expect(Set(images[1].keys) == ["path", "error"])
        #expect((images[1]["error"] as? String)?.isEmpty == false)
        #expect(images[2]["width"] as? Int == 600 && images[2]["height"] as? Int == 400)
        #expect(try FileManager.default.contentsOfDirectory(atPath: masks).sorted() == ["astronaut.png", "coffee.png"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["astronaut.png", "coffee.png"])
    }

    @Test("--background white: white where the mask is 0 (the corners), the image where it is 1")
    func whiteBackground() async throws {
        let scratch = try TemporaryDirectory()
        let astronaut = try DetectTests.sample("astronaut.png")
        let masks = scratch.path("masks"), out = scratch.path("out")
        let result = try await CommandLineTool.run(["segment", astronaut, "--mask-dir", masks, "--background", "white",
                                                    "--out", out, "--models-dir", Self.models])
        #expect(result.status == 0, "\(result)")
        let path = out + "/astronaut.png"
        let header = try Self.pngHeader(path)
        #expect(header.bitDepth == 8 && header.colorType == 2, "8-bit RGB: \(header)")
        let picture = try ImageDecoder.decode(contentsOf: path)
        let mask = try ImageDecoder.decode(contentsOf: masks + "/astronaut.png")
        let original = try ImageDecoder.decode(contentsOf: astronaut).uprightRGB()
        #expect(picture.pixelFormat == .rgb8 && picture.width == 512 && picture.height == 512)
        var background = 0, person = 0
        for i in 0..<512 * 512 {
            let rgb = Array(picture.pixels[3 * i..<3 * i + 3]), source = Array(original.pixels[3 * i..<3 * i + 3])
            if mask.pixels[i] == 0 {
                background += 1
                #expect(rgb == [255, 255, 255], "pixel \(i % 512), \(i / 512)")
            } else if mask.pixels[i] == 255 {
                person += 1
                #expect(zip(rgb, source).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "pixel \(i % 512), \(i / 512)")
            }
        }
        for (x, y) in [(0, 0), (511, 0)] {  // the bottom corners are her arm and the helmet
            #expect(mask.pixels[y * 512 + x] == 0, "corner (\(x), \(y)) is background")
        }
        #expect(background > 512 * 512 / 5 && person > 512 * 512 / 3, "\(background) background, \(person) person pixels")
    }

    @Test("a background picture of another size is scaled to cover the image (aspect kept, centred, cropped)")
    func pictureBackgroundCovers() async throws {
        let scratch = try TemporaryDirectory()
        // 200x100: red, then green from x = 50 to 149, then blue. Covering 512x512 scales it 5.12x and keeps
        // source columns 50...150: the visible background is green (the outermost 3 pixel columns on each side
        // blend in some red or blue: bilinear between pixel centres); a stretch would show red and blue.
        var stripes = [UInt8](repeating: 0, count: 200 * 100 * 3)
        for y in 0..<100 {
            for x in 0..<200 { stripes[(y * 200 + x) * 3 + (x < 50 ? 0 : x < 150 ? 1 : 2)] = 255 }
        }
        let backgroundPath = scratch.path("stripes.png")
        try PNGEncoder.write(ImageBuffer(width: 200, height: 100, pixelFormat: .rgb8, pixels: stripes), to: backgroundPath)
        let astronaut = try DetectTests.sample("astronaut.png")
        let masks = scratch.path("masks"), out = scratch.path("out")
        let result = try await CommandLineTool.run(["segment", astronaut, "--mask-dir", masks, "--background", backgroundPath,
                                                    "--out", out, "--models-dir", Self.models])
        #expect(result.status == 0, "\(result)")
        let picture = try ImageDecoder.decode(contentsOf: out + "/astronaut.png")
        let mask = try ImageDecoder.decode(contentsOf: masks + "/astronaut.png")
        #expect(picture.width == 512 && picture.height == 512)
        var checked = 0
        for y in 0..<512 {
            for x in 3..<509 where mask.pixels[y * 512 + x] == 0 {
                checked += 1
                let rgb = Array(picture.pixels[(y * 512 + x) * 3..<(y * 512 + x) * 3 + 3])
                #expect(rgb == [0, 255, 0], "pixel \(x), \(y)")
            }
        }
        #expect(checked > 512 * 512 / 5)
    }

    @Test("--model automatic picks landscape for a 16:9 frame and general for a square picture; landscape's mask is MediaPipe's")
    func automaticModel() async throws {
        let scratch = try TemporaryDirectory()
        let wide = try Self.goldenPicture("astronaut_wide_1280x720", in: scratch)
        let astronaut = try DetectTests.sample("astronaut.png"), masks = scratch.path("masks")
        let result = try await CommandLineTool.run(["segment", wide, astronaut, "--model", "automatic", "--json",
                                                    "--mask-dir", masks, "--models-dir", Self.models])
        #expect(result.status == 0, "\(result)")
        let images = try DetectTests.images(result.standardOutput)
        #expect(images.map { $0["model"] as? String } == ["landscape", "general"])
        let mask = try ImageDecoder.decode(contentsOf: masks + "/astronaut_wide_1280x720.png")
        #expect(mask.width == 1280 && mask.height == 720)
        #expect(Self.maxDifference(mask, try Self.goldenMask("landscape", "astronaut_wide_1280x720")) <= 1)
    }

    @Test("an EXIF-mirrored file is segmented upright: the mask is MediaPipe's of the mirrored picture, the output upright")
    func exifOrientation() async throws {
        let scratch = try TemporaryDirectory()
        let astronaut = try ImageDecoder.decode(contentsOf: try DetectTests.sample("astronaut.png")).uprightRGB()
        var mirrored = astronaut
        mirrored.orientation = .upMirrored  // the stored pixels as they are; an eXIf chunk says "mirror them"
        let path = scratch.path("mirrored.png")
        try PNGEncoder.write(mirrored, to: path)
        let masks = scratch.path("masks"), out = scratch.path("out")
        let result = try await CommandLineTool.run(["segment", path, "--mask-dir", masks, "--background", "black",
                                                    "--out", out, "--models-dir", Self.models])
        #expect(result.status == 0, "\(result)")
        let mask = try ImageDecoder.decode(contentsOf: masks + "/mirrored.png")
        #expect(Self.maxDifference(mask, try Self.goldenMask("general", "astronaut_mirror")) <= 1)
        let picture = try ImageDecoder.decode(contentsOf: out + "/mirrored.png")
        #expect(picture.orientation == .up)
        for (x, y) in [(300, 300), (256, 120)] {  // her suit, her face
            #expect(mask.pixels[y * 512 + x] == 255, "pixel \(x), \(y) is the person's")
            let upright = Array(picture.pixels[(y * 512 + x) * 3..<(y * 512 + x) * 3 + 3])
            let source = Array(astronaut.pixels[(y * 512 + 511 - x) * 3..<(y * 512 + 511 - x) * 3 + 3])
            #expect(zip(upright, source).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "pixel \(x), \(y)")
        }
    }

    @Test("bad arguments are usage errors (status 64), a missing model is a failure (status 1)", arguments: [
        (["--background", "white"], "--out", Int32(64)),
        (["--out", "/nonexistent-out"], "--background", 64),
        (["--background", "#12345", "--out", "/nonexistent-out"], "#12345", 64),
        (["--background", "#12345G", "--out", "/nonexistent-out"], "#12345G", 64),
        (["--background", "#1234567", "--out", "/nonexistent-out"], "#1234567", 64),
        (["--background", "red", "--out", "/nonexistent-out"], "red", 64),
        (["--background", "blur:-1", "--out", "/nonexistent-out"], "blur:-1", 64),
        (["--background", "white", "--out", "/nonexistent-out", "--mask-dir", "/nonexistent-out/."], "different folders", 64),
        (["--model", "bogus"], "bogus", 64),
        (["--threads", "0"], "--threads", 64),
        (["--models-dir", "/nonexistent-folder"], "Models/fetch.sh", 1),
    ])
    func badArguments(extra: [String], phrase: String, status: Int32) async throws {
        let result = try await CommandLineTool.run(["segment", try DetectTests.sample("astronaut.png")] + extra)
        #expect(result.status == status, "\(result)")
        #expect(result.standardError.contains(phrase), "\(result)")
    }

    @Test("a background file that is not a picture ends the command before any image, naming the file")
    func badBackgroundPicture() async throws {
        let scratch = try TemporaryDirectory()
        let bogus = scratch.path("bogus.png"), out = scratch.path("out")
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: bogus))
        let result = try await CommandLineTool.run(["segment", try DetectTests.sample("astronaut.png"), "--background", bogus,
                                                    "--out", out, "--models-dir", Self.models])
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.contains("--background") && result.standardError.contains(bogus), "\(result)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: out))?.isEmpty ?? true)
    }
}
