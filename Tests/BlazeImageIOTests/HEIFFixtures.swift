import BlazeImageIO
import Foundation

/// The HEIF/AVIF and colour-profile fixtures and their expected_heif_icc.json, written by
/// make_heif_icc_fixtures.py; expected pixels are PNGs in Fixtures/heif_icc_expected.
enum HEIFFixtures {
    struct Manifest: Decodable, Sendable {
        var images: [ImageCase]
        var errors: [Fixtures.ErrorCase]
        var profiles: [ProfileCase]
        var samples: [String: SampleCase]
    }

    /// Pixels of a photo in Models/samples with a colour profile, as stored and as LittleCMS converts them.
    struct SampleCase: Decodable, Sendable {
        struct Pixel: Decodable, Sendable {
            var x: Int
            var y: Int
            var stored: [Int]
            var srgb: [Int]
        }
        var width: Int
        var height: Int
        var tolerance: Int
        var pixels: [Pixel]
    }

    /// A HEIF or AVIF that decodes: its size and format as shown, the reference decoding, and the centres of its
    /// pattern's flat blocks with their colour.
    struct ImageCase: Decodable, Sendable, CustomStringConvertible {
        struct Block: Decodable, Sendable {
            var x: Int
            var y: Int
            var colour: [Int]

            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                x = try container.decode(Int.self)
                y = try container.decode(Int.self)
                colour = try container.decode([Int].self)
            }
        }
        var file: String
        var width: Int
        var height: Int
        var format: String
        /// Largest accepted difference per sample against the reference decoding (libheif 1.23's YCbCr conversion).
        var tolerance: Int
        /// Largest accepted difference per sample against the pattern's colour at a block's centre.
        var blockTolerance: Int
        /// A PNG (in Fixtures) of the reference decoding.
        var expected: String
        var blocks: [Block]

        var description: String { file }
    }

    /// A picture with a colour profile: its stored samples and, when the profile is converted, their sRGB values as
    /// LittleCMS gives them (Pillow's ImageCms, perceptual intent).
    struct ProfileCase: Decodable, Sendable, CustomStringConvertible {
        var file: String
        var width: Int
        var height: Int
        var format: String
        var tolerance: Int
        /// A PNG of the stored samples.
        var stored: String
        /// A PNG of the sRGB conversion, or nil when the profile must be left alone (sRGB, malformed, incomplete).
        var srgb: String?

        var description: String { file }
    }

    static func loadManifest() throws -> Manifest {
        let data = try Data(contentsOf: Fixtures.directory.appendingPathComponent("expected_heif_icc.json"))
        return try JSONDecoder().decode(Manifest.self, from: data)
    }

    static let manifest: Manifest = (try? loadManifest()) ?? Manifest(images: [], errors: [], profiles: [], samples: [:])

    /// The pixels of an expected-values PNG (no colour profile: decoded as stored).
    static func expectedPixels(_ name: String) throws -> DecodedImage {
        try ImageDecoder.decode(contentsOf: Fixtures.path(name))
    }
}
