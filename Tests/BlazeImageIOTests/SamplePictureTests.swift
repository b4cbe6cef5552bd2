import BlazeImageIO
import BlazeTestSupport
import Foundation
import Testing

/// The real photos fetched by Models/fetch.sh into Models/samples (CI fetches them).
@Suite("Sample pictures")
struct SamplePictureTests {
    static let expected: [(file: String, width: Int, height: Int, format: PixelFormat)] = [
        ("astronaut.png", 512, 512, .rgb8), ("camera.png", 512, 512, .gray8), ("chelsea.png", 451, 300, .rgb8),
        ("coffee.png", 600, 400, .rgb8), ("rocket.jpg", 640, 427, .rgb8),
    ]

    @Test(arguments: expected.map(\.file))
    func decodes(_ file: String) throws {
        let path = TestResources.modelsDirectory.appendingPathComponent("samples/\(file)").path
        guard FileManager.default.fileExists(atPath: path) else {
            Issue.record("Models/samples/\(file) is missing: run Models/fetch.sh")
            return
        }
        // The samples as stored, as Pillow decodes them (rocket.jpg's Adobe RGB profile is applied by default:
        // ColorProfileTests checks that).
        var options = ImageDecodingOptions()
        options.convertsToSRGB = false
        let image = try ImageDecoder.decode(contentsOf: path, options: options)
        let spec = try #require(Self.expected.first { $0.file == file })
        #expect(image.width == spec.width)
        #expect(image.height == spec.height)
        #expect(image.pixelFormat == spec.format)
        #expect(image.orientation.exifValue == 1)
        #expect(image.pixels.count == spec.width * spec.height * spec.format.bytesPerPixel)

        // Pixels as Pillow decodes them (exact for PNG, within 2 for JPEG).
        let pillow = try #require(Fixtures.manifest.samples[file], "expected.json has no pixels for \(file)")
        #expect(pillow.width == image.width && pillow.height == image.height)
        for pixel in pillow.pixels {
            let offset = (pixel.y * image.width + pixel.x) * image.pixelFormat.bytesPerPixel
            let ours = image.pixels[offset..<offset + image.pixelFormat.bytesPerPixel].map { Int($0) }
            let worst = zip(ours, pixel.value).map { abs($0 - $1) }.max() ?? .max
            #expect(ours.count == pixel.value.count && worst <= pillow.tolerance,
                    "\(file) at (\(pixel.x), \(pixel.y)): \(ours) vs Pillow's \(pixel.value)")
        }
    }
}
