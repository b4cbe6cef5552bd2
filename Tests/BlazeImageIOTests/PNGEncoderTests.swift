import BlazeImageIO
import BlazeTestSupport
import Foundation
import Testing

@Suite("PNG encoding")
struct PNGEncoderTests {
    /// A deterministic image with every byte value represented.
    static func pattern(width: Int, height: Int, format: PixelFormat, orientation: Int = 1) -> DecodedImage {
        var generator = SplitMix64(seed: UInt64(width * 1000 + height * 10 + format.bytesPerPixel))
        let pixels = (0..<(width * height * format.bytesPerPixel)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        return DecodedImage(width: width, height: height, pixelFormat: format, pixels: pixels, orientation: ImageOrientation(exif: orientation)!)
    }

    @Test("Encode then decode is exact", arguments: [PixelFormat.gray8, .rgb8, .rgba8], [(1, 1), (13, 7), (64, 33)])
    func roundTrip(_ format: PixelFormat, size: (Int, Int)) throws {
        let image = Self.pattern(width: size.0, height: size.1, format: format)
        let encoded = try PNGEncoder.encode(image)
        #expect(ImageFileFormat(sniffing: encoded) == .png)
        #expect(try ImageDecoder.decode(data: encoded) == image)
    }

    @Test("The orientation survives the round trip", arguments: 1...8)
    func orientationRoundTrip(_ orientation: Int) throws {
        let image = Self.pattern(width: 5, height: 3, format: .rgb8, orientation: orientation)
        #expect(try ImageDecoder.decode(data: PNGEncoder.encode(image)) == image)
    }

    @Test func writesFiles() throws {
        let image = Self.pattern(width: 20, height: 10, format: .rgba8)
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("blaze-imageio-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try PNGEncoder.write(image, to: path)
        #expect(try ImageDecoder.decode(contentsOf: path) == image)
        // Writing again replaces the file.
        let smaller = Self.pattern(width: 2, height: 2, format: .gray8)
        try PNGEncoder.write(smaller, to: path)
        #expect(try ImageDecoder.decode(contentsOf: path) == smaller)
    }

    @Test func unwritablePathsThrow() {
        let image = Self.pattern(width: 2, height: 2, format: .gray8)
        let path = "/nonexistent-blaze-directory/out.png"
        #expect(throws: ImageIOError.cannotWrite(path: path, reason: "No such file or directory")) {
            try PNGEncoder.write(image, to: path)
        }
    }

    @Test func inconsistentImagesThrow() {
        #expect(throws: ImageIOError.zeroSize) {
            try PNGEncoder.encode(DecodedImage(width: 0, height: 3, pixelFormat: .gray8, pixels: []))
        }
        let short = DecodedImage(width: 4, height: 4, pixelFormat: .rgb8, pixels: [UInt8](repeating: 0, count: 47))
        #expect {
            try PNGEncoder.encode(short)
        } throws: { error in
            guard case ImageIOError.unsupported = error else { return false }
            return true
        }
    }

    @Test("Camera layouts (bgra8, argb8) are refused with a typed error, not written wrongly")
    func cameraLayoutsThrow() {
        for format in [PixelFormat.bgra8, .argb8] {
            let image = ImageBuffer(width: 2, height: 2, pixelFormat: format)
            #expect {
                try PNGEncoder.encode(image)
            } throws: { error in
                guard case let ImageIOError.unsupported(message) = error else { return false }
                return message.contains(format.rawValue)
            }
        }
    }
}
