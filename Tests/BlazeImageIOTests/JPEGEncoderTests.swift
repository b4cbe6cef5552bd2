import BlazeImageIO
import Foundation
import Testing

/// The package-level JPEG writer the shrink-on-load measurements make their 12 and 24 MP pictures with.
@Suite("JPEG encoder")
struct JPEGEncoderTests {
    /// A smooth 64 x 48 gradient: lossy coding keeps it within a few levels.
    static func gradient(_ format: PixelFormat, orientation: ImageOrientation = .up) -> ImageBuffer {
        let width = 64, height = 48, channels = format.bytesPerPixel
        var pixels = [UInt8](repeating: 0, count: width * height * channels)
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<channels { pixels[(y * width + x) * channels + c] = UInt8(x * 2 + y * (c + 1) / 2) }
            }
        }
        return ImageBuffer(width: width, height: height, pixelFormat: format, pixels: pixels, orientation: orientation)
    }

    @Test(arguments: [PixelFormat.rgb8, .gray8])
    func roundTrip(_ format: PixelFormat) throws {
        let image = Self.gradient(format, orientation: .right)
        let decoded = try ImageDecoder.decode(data: JPEGEncoder.encode(image, quality: 95))
        #expect(decoded.width == image.width && decoded.height == image.height)
        #expect(decoded.pixelFormat == format)
        #expect(decoded.orientation == .right)
        let worst = zip(decoded.pixels, image.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 8, "largest difference \(worst)")
    }

    @Test func qualityChangesTheFile() throws {
        let image = Self.gradient(.rgb8)
        #expect(try JPEGEncoder.encode(image, quality: 50).count < JPEGEncoder.encode(image, quality: 95).count)
    }

    @Test func refusals() {
        #expect(throws: ImageIOError.self) { try JPEGEncoder.encode(Self.gradient(.rgba8)) }
        #expect(throws: ImageIOError.self) { try JPEGEncoder.encode(Self.gradient(.rgb8), quality: 0) }
        #expect(throws: ImageIOError.zeroSize) {
            try JPEGEncoder.encode(ImageBuffer(width: 0, height: 0, pixelFormat: .rgb8, pixels: []))
        }
    }
}
