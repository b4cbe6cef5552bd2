import BlazeImageIO
import BlazeTestSupport
import Foundation
import Testing

/// The WebP, TIFF, GIF, BMP and PNM fixtures and their formats.json, written by make_format_fixtures.py.
enum FormatFixtures {
    struct Manifest: Decodable, Sendable {
        var images: [ImageCase]
        var errors: [Fixtures.ErrorCase]
    }

    /// A fixture that decodes; its pixels are given, or are those of an earlier fixture (`samePixelsAs`).
    struct ImageCase: Decodable, Sendable, CustomStringConvertible {
        var file: String
        var width: Int
        var height: Int
        var format: String
        var orientation: Int
        /// Largest accepted difference per sample: 0 except for lossy WebP (against Pillow's libwebp).
        var tolerance: Int
        var pixels: String?
        var samePixelsAs: String?

        var description: String { file }
    }

    static func loadManifest() throws -> Manifest {
        let data = try Data(contentsOf: Fixtures.directory.appendingPathComponent("formats.json"))
        return try JSONDecoder().decode(Manifest.self, from: data)
    }

    static let manifest: Manifest = (try? loadManifest()) ?? Manifest(images: [], errors: [])

    static func expectedPixels(_ fixture: ImageCase) -> [UInt8] {
        let source = fixture.pixels ?? manifest.images.first { $0.file == fixture.samePixelsAs }?.pixels ?? ""
        return [UInt8](Data(base64Encoded: source) ?? Data())
    }

    /// The format a fixture's name says (its prefix).
    static func format(of file: String) -> ImageFileFormat? {
        ImageFileFormat(rawValue: String(file.prefix { $0 != "_" }))
    }
}

@Suite("WebP, TIFF, GIF, BMP and PNM")
struct FormatDecodingTests {
    @Test func manifestCoversEveryNewFormat() throws {
        let manifest = try FormatFixtures.loadManifest()
        #expect(manifest.images.count >= 39)
        #expect(manifest.errors.count >= 16)
        for format in [ImageFileFormat.webp, .tiff, .gif, .bmp, .pnm] {
            #expect(manifest.images.contains { FormatFixtures.format(of: $0.file) == format }, "\(format)")
            #expect(manifest.errors.contains { FormatFixtures.format(of: $0.file) == format && $0.error == "tooLarge" },
                    "\(format): a huge declared size")
        }
    }

    @Test("Decodes to the expected size, format, orientation and pixels", arguments: FormatFixtures.manifest.images)
    func decodes(_ fixture: FormatFixtures.ImageCase) throws {
        let data = try Fixtures.bytes(fixture.file)
        #expect(ImageFileFormat(sniffing: data) == FormatFixtures.format(of: fixture.file))
        let image = try ImageDecoder.decode(contentsOf: Fixtures.path(fixture.file))
        #expect(image.width == fixture.width)
        #expect(image.height == fixture.height)
        #expect(image.pixelFormat.rawValue == fixture.format)
        #expect(image.orientation.exifValue == fixture.orientation)
        let expected = FormatFixtures.expectedPixels(fixture)
        #expect(image.pixels.count == expected.count)
        let difference = maximumDifference(image.pixels, expected)
        #expect(difference <= fixture.tolerance, "largest sample difference \(difference)")
        #expect(try ImageDecoder.decode(data: data) == image)
        // No scaled decode for these formats: decodeScaled gives the full image at scale 1.
        let scaled = try ImageDecoder.decodeScaled(data: data, minimumLongSide: 1)
        #expect(scaled.scaleDenominator == 1 && scaled.image == image)
    }

    @Test("Damaged fixtures raise the expected error", arguments: FormatFixtures.manifest.errors)
    func rejects(_ fixture: Fixtures.ErrorCase) throws {
        let error = try expectManifestError(fixture)
        if case .corrupt(let message) = error, let format = FormatFixtures.format(of: fixture.file) {
            #expect(message.hasPrefix(format.displayName + ": "), "\(message)")
        }
    }

    @Test("Lossy WebP stays close to the picture it was made from (the lossless file of the same pixels)")
    func lossyWebPIsCloseToTheSource() throws {
        let lossy = try ImageDecoder.decode(contentsOf: Fixtures.path("webp_lossy.webp"))
        let exact = try ImageDecoder.decode(contentsOf: Fixtures.path("webp_lossless_64x48.webp"))
        #expect(lossy.width == exact.width && lossy.height == exact.height && lossy.pixelFormat == .rgb8)
        let total = zip(lossy.pixels, exact.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        let mean = Double(total) / Double(exact.pixels.count)
        #expect(mean < 3, "mean absolute difference \(mean)")
        #expect(maximumDifference(lossy.pixels, exact.pixels) < 48)
    }

    @Test("A pixel budget refuses each format before decoding", arguments: [
        "webp_lossless_rgb.webp", "webp_animated.webp", "tiff_rgb_lzw.tif", "gif_placed.gif", "bmp_rgb24.bmp",
        "pnm_p3.ppm",
    ])
    func budget(_ file: String) throws {
        let data = try Fixtures.bytes(file)
        let image = try ImageDecoder.decode(data: data)
        let pixelCount = image.width * image.height
        #expect(try ImageDecoder.decode(data: data, options: .init(maximumPixelCount: pixelCount)) == image)
        let error = decodingError { () throws(ImageIOError) in
            try ImageDecoder.decode(data: data, options: .init(maximumPixelCount: pixelCount - 1))
        }
        #expect(error == .tooLarge(width: image.width, height: image.height, limit: pixelCount - 1))
    }

    /// Every prefix of the file is a typed error; from `truncatedFrom` bytes on (shorter ones are a signature
    /// prefix or too short for the header's fields) up to the complete file less `completeTail`, `.truncated`.
    @Test(arguments: [
        ("webp_lossless_rgb.webp", 0, 0), ("webp_lossy_alpha.webp", 0, 0), ("webp_animated.webp", 0, 0),
        ("gif_palette.gif", 0, 1), ("gif_interlaced.gif", 0, 1), ("tiff_rgb_be.tif", 0, 0),
        ("tiff_rgb_lzw.tif", 0, 0), ("bmp_rgb24.bmp", 6, 0),
    ])
    func everyPrefix(_ file: String, truncatedFrom: Int, completeTail: Int) throws {
        let data = try Fixtures.bytes(file)
        let full = try ImageDecoder.decode(data: data)
        for length in 0..<data.count {
            let result = Result { () throws(ImageIOError) in try ImageDecoder.decode(data: Array(data.prefix(length))) }
            if length >= data.count - completeTail {
                #expect((try? result.get()) == full, "\(file) cut to \(length) of \(data.count) bytes")
                continue
            }
            switch result {
            case .success: Issue.record("\(file) cut to \(length) of \(data.count) bytes decoded")
            case .failure(let error):
                if length >= truncatedFrom {
                    #expect(caseName(error) == "truncated", "\(file) cut to \(length) bytes: \(error)")
                }
            }
        }
    }
}

@Suite("Formats by content")
struct SniffingTests {
    @Test func signatures() {
        let cases: [(String, ImageFileFormat?)] = [
            ("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8L", .webp), ("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ", nil),
            ("II*\u{0}\u{8}\u{0}", .tiff), ("MM\u{0}*\u{0}\u{0}", .tiff), ("II+\u{0}\u{8}\u{0}", .tiff),
            ("GIF87a..", .gif), ("GIF89a..", .gif), ("GIF88a..", nil), ("BM......", .bmp),
            ("P1\n", .pnm), ("P4 ", .pnm), ("P6#", .pnm), ("P3\r", .pnm), ("P7\n", nil), ("P6x", nil), ("P0\n", nil),
        ]
        for (text, format) in cases {
            #expect(ImageFileFormat(sniffing: Array(text.utf8)) == format, "\(text.debugDescription)")
        }
        #expect(ImageFileFormat.webp.signature == Array("RIFF".utf8))
        #expect(ImageFileFormat.gif.signature == Array("GIF87a".utf8))
        #expect(Set(ImageFileFormat.allCases.flatMap(\.fileExtensions)).isSuperset(of: [
            "jpg", "jpeg", "png", "webp", "tif", "tiff", "gif", "bmp", "ppm", "pgm", "pbm", "pnm",
        ]))
    }

    @Test("Formats recognised but not decoded are named in an .unsupported error")
    func otherFormatsAreNamed() {
        let cases: [([UInt8], String)] = [
            ([0xFF, 0x0A, 0xFA, 0x7F], "JPEG XL"), (Array("8BPS\u{0}\u{1}".utf8), "Photoshop (PSD)"),
            (Array("P7\nWIDTH 2".utf8), "PAM (Netpbm P7)"),
            (Array("<?xml version".utf8), "SVG or XML"),
        ]
        for (data, name) in cases {
            let error = decodingError { () throws(ImageIOError) in try ImageDecoder.decode(data: data) }
            guard case .unsupported(let message) = error else {
                Issue.record("\(name): expected .unsupported, got \(String(describing: error))")
                continue
            }
            #expect(message.contains(name) && message.contains("WebP"), "\(message)")
        }
    }

    @Test("Data in no recognised format says so, and lists what is read")
    func nothingRecognised() {
        let error = decodingError { () throws(ImageIOError) in try ImageDecoder.decode(data: Array("hello, world".utf8)) }
        #expect(error == .unknownFormat)
        let text = ImageIOError.unknownFormat.description
        #expect(text.hasPrefix("no image format recognised"))
        for format in ImageFileFormat.allCases { #expect(text.contains(format.displayName)) }
    }
}
