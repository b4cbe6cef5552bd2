import BlazeImageIO
import Foundation
import Testing

@Suite("Decoding the fixtures")
struct FixtureDecodingTests {
    @Test func manifestLoads() throws {
        let manifest = try Fixtures.loadManifest()
        #expect(manifest.images.count >= 41)
        #expect(manifest.errors.count >= 14)
    }

    @Test("Decodes to the expected size, format, orientation and pixels", arguments: Fixtures.manifest.images)
    func decodes(_ fixture: Fixtures.ImageCase) throws {
        let image = try ImageDecoder.decode(contentsOf: Fixtures.path(fixture.file))
        #expect(image.width == fixture.width)
        #expect(image.height == fixture.height)
        #expect(image.pixelFormat.rawValue == fixture.format)
        #expect(image.orientation.exifValue == fixture.orientation)
        #expect(image.bytesPerRow == fixture.width * image.pixelFormat.bytesPerPixel)
        let expected = fixture.expectedPixels
        #expect(image.pixels.count == expected.count)
        let difference = maximumDifference(image.pixels, expected)
        #expect(difference <= fixture.tolerance, "largest sample difference \(difference)")

        // Decoding from memory gives the same image.
        let fromMemory = try ImageDecoder.decode(data: Fixtures.bytes(fixture.file))
        #expect(fromMemory == image)
    }

    @Test("Damaged fixtures raise the expected error", arguments: Fixtures.manifest.errors)
    func rejects(_ fixture: Fixtures.ErrorCase) throws {
        try expectManifestError(fixture)
    }

    @Test func sixteenBitSamplesAreRoundedNotTruncated() throws {
        // png_gray16.png's first sample is 0x00FF: 255/257 rounds to 1 (taking the high byte would give 0).
        let image = try ImageDecoder.decode(contentsOf: Fixtures.path("png_gray16.png"))
        #expect(image.pixels[0] == 1)
    }

    @Test func adobeCMYKBecomesRGB() throws {
        // The first pixel is C = M = Y = K = 0 (no ink): white.
        let image = try ImageDecoder.decode(contentsOf: Fixtures.path("jpeg_cmyk.jpg"))
        #expect(image.pixelFormat == .rgb8)
        #expect(image.pixels[0] >= 253 && image.pixels[1] >= 253 && image.pixels[2] >= 253)
    }
}
