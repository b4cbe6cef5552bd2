import BlazeImageIO
import BlazeTestSupport
import Foundation
import Testing

@Suite("Colour profiles to sRGB")
struct ColorProfileTests {
    @Test("Converted as LittleCMS does, or left alone", arguments: HEIFFixtures.manifest.profiles)
    func converts(_ fixture: HEIFFixtures.ProfileCase) throws {
        let data = try Fixtures.bytes(fixture.file)
        let stored = try HEIFFixtures.expectedPixels(fixture.stored)
        var raw = ImageDecodingOptions()
        raw.convertsToSRGB = false
        let asStored = try ImageDecoder.decode(data: data, options: raw)
        #expect(asStored.width == fixture.width && asStored.height == fixture.height)
        #expect(asStored.pixelFormat.rawValue == fixture.format)
        let storedDifference = maximumDifference(asStored.pixels, stored.pixels)
        #expect(storedDifference <= fixture.tolerance, "stored samples: largest difference \(storedDifference)")

        let image = try ImageDecoder.decode(data: data)
        if let srgb = fixture.srgb {
            let expected = try HEIFFixtures.expectedPixels(srgb)
            let difference = maximumDifference(image.pixels, expected.pixels)
            #expect(difference <= fixture.tolerance, "sRGB: largest difference \(difference)")
            #expect(image.pixels != asStored.pixels, "the profile was not applied")
        } else {
            // sRGB, malformed or incomplete profile: the samples as stored.
            #expect(image.pixels == asStored.pixels)
        }
        if image.pixelFormat == .rgba8 {  // alpha is copied, not converted
            let alpha = stride(from: 3, to: image.pixels.count, by: 4)
            #expect(alpha.allSatisfy { image.pixels[$0] == asStored.pixels[$0] })
        }
    }

    @Test func displayP3ColoursBecomeMoreSaturated() throws {
        // png_display_p3.png's blocks are P3 colours. P3's pure green is outside sRGB and clips to sRGB's green;
        // P3's (200, 120, 60) is sRGB's (213, 115, 42) (LittleCMS through Pillow's ImageCms); unconverted it
        // would stay (200, 120, 60).
        let image = try ImageDecoder.decode(contentsOf: Fixtures.path("png_display_p3.png"))
        func pixel(_ x: Int, _ y: Int) -> [Int] { image.pixels[(y * 32 + x) * 3..<(y * 32 + x) * 3 + 3].map(Int.init) }
        #expect(maximumDifference(pixel(12, 4).map(UInt8.init), [0, 255, 0]) <= 1, "\(pixel(12, 4))")
        #expect(maximumDifference(pixel(20, 12).map(UInt8.init), [213, 115, 42]) <= 1, "\(pixel(20, 12))")
    }

    @Test func adobeRGBPhotoComesOutInSRGB() throws {
        // Models/samples/rocket.jpg embeds Adobe RGB (1998): its dark blues become darker and bluer in sRGB.
        let path = TestResources.modelsDirectory.appendingPathComponent("samples/rocket.jpg").path
        guard FileManager.default.fileExists(atPath: path) else {
            Issue.record("Models/samples/rocket.jpg is missing: run Models/fetch.sh")
            return
        }
        let sample = try #require(HEIFFixtures.manifest.samples["rocket.jpg"])
        let image = try ImageDecoder.decode(contentsOf: path)
        var raw = ImageDecodingOptions()
        raw.convertsToSRGB = false
        let stored = try ImageDecoder.decode(contentsOf: path, options: raw)
        #expect(image.width == sample.width && image.height == sample.height && sample.pixels.count > 20)
        for pixel in sample.pixels {
            let offset = (pixel.y * image.width + pixel.x) * 3
            let ours = image.pixels[offset..<offset + 3].map(Int.init)
            let oursStored = stored.pixels[offset..<offset + 3].map(Int.init)
            #expect(zip(ours, pixel.srgb).allSatisfy { abs($0 - $1) <= sample.tolerance },
                    "(\(pixel.x), \(pixel.y)): \(ours), LittleCMS \(pixel.srgb)")
            #expect(zip(oursStored, pixel.stored).allSatisfy { abs($0 - $1) <= sample.tolerance },
                    "(\(pixel.x), \(pixel.y)) as stored: \(oursStored), Pillow \(pixel.stored)")
        }
    }
}
