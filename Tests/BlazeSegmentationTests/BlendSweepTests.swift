@testable import BlazeSegmentation
import BlazeTestSupport
import Testing

/// The vectorized blend (blocks of 8 pixels, then the row's last pixels one by one) against the scalar formula
/// `UInt8(back + m · (front − back) + 0.5)` with `m` clamped (NaN as 0), byte for byte: widths around the block
/// of 8, every output format, colour, picture (turned and mirrored) and blur backgrounds, masks outside 0...1.
@Suite("Background replacement: the vector blend against the scalar formula")
struct BlendSweepTests {
    static let formats: [PixelFormat] = [.rgb8, .rgba8, .bgra8, .argb8]
    static let widths = [1, 7, 8, 9, 15, 16, 17, 31]

    /// Pseudo-random bytes and mask values (a tenth outside 0...1, some NaN, some exactly 0 and 1).
    static func inputs(width: Int, height: Int, seed: UInt64) -> (pixels: [UInt8], mask: SegmentationMask) {
        var rng = SplitMix64(seed: seed)
        let pixels = rng.floats(width * height * 3).map { UInt8(min(255, ($0 + 1) * 128)) }
        let values = rng.floats(width * height).enumerated().map { i, r -> Float in
            switch i % 11 {
            case 0: return .nan
            case 1: return 0
            case 2: return 1
            default: return r * 0.7 + 0.5  // -0.2 ... 1.2
            }
        }
        return (pixels, SegmentationMask(width: width, height: height, values: values))
    }

    /// The expected output bytes: `rgb(u, v)` the background's RGB floats at an upright pixel.
    static func expected(image: ImageBuffer, mask: SegmentationMask, format: PixelFormat,
                         background rgb: (Int, Int) -> (Float, Float, Float)) -> [UInt8] {
        let bpp = format.bytesPerPixel
        let offsets = format.channelOffsets
        var out = [UInt8](repeating: 0, count: image.width * image.height * bpp)
        for v in 0..<image.height {
            for u in 0..<image.width {
                let i = v * image.width + u
                let raw = mask.values[i]
                let m = raw > 0 ? min(raw, 1) : 0
                let back = rgb(u, v)
                let front = (0..<3).map { Float(image.pixels[3 * i + $0]) }
                out[bpp * i + offsets.r] = UInt8(back.0 + m * (front[0] - back.0) + 0.5)
                out[bpp * i + offsets.g] = UInt8(back.1 + m * (front[1] - back.1) + 0.5)
                out[bpp * i + offsets.b] = UInt8(back.2 + m * (front[2] - back.2) + 0.5)
                if bpp == 4 { out[bpp * i + (format == .argb8 ? 0 : 3)] = 255 }
            }
        }
        return out
    }

    static func replace(_ image: ImageBuffer, _ mask: SegmentationMask, _ background: Background,
                        _ format: PixelFormat) throws -> [UInt8] {
        var buffer = ImageBuffer(width: 0, height: 0, pixelFormat: format)
        try image.withView { try BackgroundReplacer().replaceBackground(of: $0, mask: mask, with: background, into: &buffer) }
        return buffer.pixels
    }

    @Test("a colour", arguments: widths)
    func colour(width: Int) throws {
        let (pixels, mask) = Self.inputs(width: width, height: 3, seed: UInt64(width))
        let image = ImageBuffer(width: width, height: 3, pixelFormat: .rgb8, pixels: pixels)
        for format in Self.formats {
            let expected = Self.expected(image: image, mask: mask, format: format) { _, _ in (58, 110, 165) }
            #expect(try Self.replace(image, mask, .color(red: 58, green: 110, blue: 165), format) == expected,
                    "width \(width), \(format)")
        }
    }

    @Test("another picture, stored mirrored", arguments: widths)
    func picture(width: Int) throws {
        let (pixels, mask) = Self.inputs(width: width, height: 4, seed: UInt64(100 + width))
        let (other, _) = Self.inputs(width: width, height: 4, seed: UInt64(200 + width))
        let image = ImageBuffer(width: width, height: 4, pixelFormat: .rgb8, pixels: pixels)
        // Stored mirrored: upright (u, v) is stored (width − 1 − u, v).
        let back = ImageBuffer(width: width, height: 4, pixelFormat: .rgb8, pixels: other, orientation: .upMirrored)
        for format in Self.formats {
            let expected = Self.expected(image: image, mask: mask, format: format) { u, v in
                let i = (v * width + width - 1 - u) * 3
                return (Float(other[i]), Float(other[i + 1]), Float(other[i + 2]))
            }
            let actual = try back.withView { try Self.replace(image, mask, .image($0), format) }
            #expect(actual == expected, "width \(width), \(format)")
        }
    }

    @Test("a blur", arguments: widths)
    func blur(width: Int) throws {
        let height = 5
        let (pixels, mask) = Self.inputs(width: width, height: height, seed: UInt64(300 + width))
        let image = ImageBuffer(width: width, height: height, pixelFormat: .rgb8, pixels: pixels)
        var blurred = pixels.map(Float.init), scratch = [Float](repeating: 0, count: pixels.count)
        blurred.withUnsafeMutableBufferPointer { p in
            scratch.withUnsafeMutableBufferPointer { s in
                BoxBlur.blur(p.baseAddress!, scratch: s.baseAddress!, width: width, height: height, radius: 2)
            }
        }
        let expected = Self.expected(image: image, mask: mask, format: .bgra8) { u, v in
            let i = (v * width + u) * 3
            return (blurred[i], blurred[i + 1], blurred[i + 2])
        }
        #expect(try Self.replace(image, mask, .blur(radius: 2), .bgra8) == expected, "width \(width)")
    }
}
