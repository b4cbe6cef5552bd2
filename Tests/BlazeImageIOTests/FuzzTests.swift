import BlazeImageIO
import BlazeTestSupport
import Foundation
import Testing

/// Seeded random damage to small JPEGs and PNGs (and WebP, TIFF, GIF, BMP and PNM files): every variant must
/// decode or throw `ImageIOError`, never crash, hang or read out of bounds. Corruption handling in the codec
/// libraries is where crashes hide.
@Suite("Fuzzing with seeded corruptions")
struct FuzzTests {
    static let iterations = 300
    /// Small, so that a corrupted header claiming a large image is refused instead of decoded slowly.
    static let options = ImageDecodingOptions(maximumPixelCount: 1 << 16)

    @Test func corruptedJPEGs() throws {
        let sources = try ["jpeg_baseline.jpg", "jpeg_progressive.jpg", "jpeg_cmyk.jpg", "jpeg_exif6.jpg"]
            .map(Fixtures.bytes)
        var generator = SplitMix64(seed: 0x4A50_4547)
        var outcomes: [String: Int] = [:]
        for iteration in 0..<Self.iterations {
            let data = Self.mutate(sources[iteration % sources.count], using: &generator)
            outcomes[Self.decode(data), default: 0] += 1
        }
        // The mutations must reach past the header checks: some variants decode, most fail in varied ways.
        #expect(outcomes["decoded", default: 0] > 0, "\(outcomes)")
        #expect(outcomes.count >= 3, "\(outcomes)")
    }

    @Test func corruptedPNGs() throws {
        let sources = try ["png_rgb8.png", "png_interlaced_rgba16.png", "png_palette_trns.png", "png_exif6.png"]
            .map(Fixtures.bytes)
        var generator = SplitMix64(seed: 0x504E_47)
        var outcomes: [String: Int] = [:]
        for iteration in 0..<Self.iterations {
            var data = Self.mutate(sources[iteration % sources.count], using: &generator)
            // Half the time, repair the CRCs so that the damage reaches zlib, the filters and the chunk
            // parsers instead of stopping at the first CRC check.
            if iteration % 2 == 1 { Self.repairCRCs(&data) }
            outcomes[Self.decode(data), default: 0] += 1
        }
        #expect(outcomes["decoded", default: 0] > 0, "\(outcomes)")
        #expect(outcomes.count >= 3, "\(outcomes)")
    }

    @Test(arguments: [
        ["webp_lossless_rgba.webp", "webp_lossy_alpha.webp", "webp_animated.webp", "webp_exif6.webp"],
        ["tiff_rgb_lzw.tif", "tiff_tiled.tif", "tiff_palette.tif", "tiff_rgb16_be.tif", "tiff_bilevel.tif"],
        ["gif_palette.gif", "gif_interlaced.gif", "gif_transparent.gif", "gif_placed.gif"],
        ["bmp_rgb24.bmp", "bmp_palette8.bmp", "bmp_rgba32.bmp", "pnm_p6.ppm", "pnm_p2.pgm", "pnm_p4.pbm"],
    ])
    func corruptedOtherFormats(_ files: [String]) throws {
        let sources = try files.map(Fixtures.bytes)
        var generator = SplitMix64(seed: UInt64(files[0].utf8.reduce(0) { $0 &* 31 &+ Int($1) }.magnitude))
        var outcomes: [String: Int] = [:]
        for iteration in 0..<Self.iterations {
            outcomes[Self.decode(Self.mutate(sources[iteration % sources.count], using: &generator)), default: 0] += 1
        }
        #expect(outcomes["decoded", default: 0] > 0, "\(outcomes)")
        #expect(outcomes.count >= 2, "\(outcomes)")
    }

    /// "decoded" or the error case's name; records an issue if a decoded image is inconsistent.
    static func decode(_ data: [UInt8]) -> String {
        do {
            let image = try ImageDecoder.decode(data: data, options: options)
            #expect(image.width > 0 && image.height > 0 && image.width * image.height <= options.maximumPixelCount)
            #expect(image.pixels.count == image.width * image.height * image.pixelFormat.bytesPerPixel)
            #expect((1...8).contains(image.orientation.exifValue))
            return "decoded"
        } catch {
            return caseName(error)
        }
    }

    static func mutate(_ source: [UInt8], using generator: inout SplitMix64) -> [UInt8] {
        var data = source
        let kind = Int.random(in: 0..<5, using: &generator)
        switch kind {
        case 0: // Truncate.
            data.removeLast(Int.random(in: 1..<data.count, using: &generator))
        case 1: // Flip a few bits.
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                data[Int.random(in: 2..<data.count, using: &generator)] ^= 1 << UInt8.random(in: 0..<8, using: &generator)
            }
        case 2: // Overwrite a few bytes.
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                data[Int.random(in: 2..<data.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
        case 3: // Overwrite a run with 0x00 or 0xFF.
            let start = Int.random(in: 2..<data.count, using: &generator)
            let end = min(data.count, start + Int.random(in: 1...32, using: &generator))
            let fill: UInt8 = Bool.random(using: &generator) ? 0x00 : 0xFF
            for index in start..<end { data[index] = fill }
        default: // Flip a bit, then truncate.
            data[Int.random(in: 2..<data.count, using: &generator)] ^= 1 << UInt8.random(in: 0..<8, using: &generator)
            data.removeLast(Int.random(in: 1..<(data.count / 2), using: &generator))
        }
        return data
    }

    /// Recomputes the CRC of every complete chunk.
    static func repairCRCs(_ data: inout [UInt8]) {
        var offset = 8
        while offset + 12 <= data.count {
            let length = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            guard length <= data.count - offset - 12 else { return }
            let crc = CRC32.checksum(data[(offset + 4)..<(offset + 8 + length)])
            for index in 0..<4 {
                data[offset + 8 + length + index] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32(index)))
            }
            offset += 12 + length
        }
    }
}

/// The CRC-32 of PNG chunks (ISO 3309, reflected polynomial 0xEDB88320).
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes { c = table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
