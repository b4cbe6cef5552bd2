import BlazeImageIO
import BlazeTestSupport
import Foundation
import Testing

/// `blazeface crop` end to end: the tensor picture ImageToTensor makes of a region, the outlined region, errors.
@Suite struct CropTests {
    @Test("writes the tensor and the outlined region; the tensor has the requested size")
    func writesBothPictures() async throws {
        let scratch = try TemporaryDirectory()
        let astronaut = try DetectTests.sample("astronaut.png")
        let result = try await CommandLineTool.run(
            ["crop", astronaut, "--center", "224,125", "--size", "150", "--rotation", "25", "--tensor", "96x64",
             "--out", scratch.path("out")])
        #expect(result.status == 0, "\(result)")
        let tensor = try ImageDecoder.decode(contentsOf: scratch.path("out/astronaut-tensor.png"))
        #expect(tensor.width == 96 && tensor.height == 64 && tensor.pixelFormat == .rgb8)
        let region = try ImageDecoder.decode(contentsOf: scratch.path("out/astronaut-region.png"))
        #expect(region.width == 512 && region.height == 512)
        // The outline is drawn: the region picture differs from the sample, and the tensor is not blank.
        let original = try ImageDecoder.decode(contentsOf: astronaut).uprightRGB()
        #expect(region.pixels != original.pixels)
        #expect(Set(tensor.pixels).count > 100)
        // Letterbox with a zero border past the image's corner: the top-left of the tensor is black.
        let corner = try await CommandLineTool.run(
            ["crop", astronaut, "--center", "0,0", "--size", "100x50", "--tensor", "32x32", "--border", "zero",
             "--sampling", "detector", "--out", scratch.path("corner")])
        #expect(corner.status == 0, "\(corner)")
        let cornerTensor = try ImageDecoder.decode(contentsOf: scratch.path("corner/astronaut-tensor.png"))
        #expect(cornerTensor.pixels[0..<3] == [0, 0, 0])
    }

    @Test("bad arguments and unusable regions are clear errors", arguments: [
        (["--center", "10,10"], "--center and --size"),
        (["--tensor", "0x5"], "--tensor"),
        (["--size", "-4", "--center", "1,1"], "--size"),
        (["--center", "a,b", "--size", "4"], "--center"),
        (["--sampling", "detector", "--rotation", "10", "--center", "100,100", "--size", "50"], "unturned"),
    ])
    func errors(_ extra: [String], phrase: String) async throws {
        let scratch = try TemporaryDirectory()
        let astronaut = try DetectTests.sample("astronaut.png")
        let result = try await CommandLineTool.run(["crop", astronaut, "--out", scratch.path("out")] + extra)
        #expect(result.status != 0, "\(result)")
        #expect(result.standardError.contains(phrase), "\(result)")
    }

    @Test("an unreadable image is an error, exit status 1")
    func unreadable() async throws {
        let scratch = try TemporaryDirectory()
        let result = try await CommandLineTool.run(["crop", scratch.path("missing.png"), "--out", scratch.path("out")])
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.contains("missing.png"), "\(result)")
    }
}
