import BlazeImageIO
import Testing
import Foundation

/// The committed fixtures of Tests/BlazeImageIOTests/Fixtures and their expected.json, written by
/// make_fixtures.py.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures", isDirectory: true)

    static func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    struct Manifest: Decodable, Sendable {
        var images: [ImageCase]
        var errors: [ErrorCase]
        var samples: [String: SampleCase]
    }

    /// A fixture that decodes: its size, format, orientation and every decoded pixel.
    struct ImageCase: Decodable, Sendable, CustomStringConvertible {
        var file: String
        var width: Int
        var height: Int
        var format: String
        var orientation: Int
        /// Largest accepted difference per sample: 0 for PNG, 2 for JPEG (against Pillow's libjpeg).
        var tolerance: Int
        /// Base64 of the decoded pixels, rows top first.
        var pixels: String

        var description: String { file }
        var expectedPixels: [UInt8] { [UInt8](Data(base64Encoded: pixels) ?? Data()) }
    }

    /// A damaged fixture and the `ImageIOError` case it must raise.
    struct ErrorCase: Decodable, Sendable, CustomStringConvertible {
        var file: String
        var error: String
        var width: Int?
        var height: Int?

        var description: String { "\(file) -> \(error)" }
    }

    /// A few pixels of a sample picture in Models/samples, as Pillow decodes them.
    struct SampleCase: Decodable, Sendable {
        struct Pixel: Decodable, Sendable {
            var x: Int
            var y: Int
            var value: [Int]
        }
        var width: Int
        var height: Int
        var format: String
        var tolerance: Int
        var pixels: [Pixel]
    }

    static func loadManifest() throws -> Manifest {
        let data = try Data(contentsOf: directory.appendingPathComponent("expected.json"))
        return try JSONDecoder().decode(Manifest.self, from: data)
    }

    /// The manifest, or an empty one when it cannot be read (`manifestLoads` then fails).
    static let manifest: Manifest = (try? loadManifest()) ?? Manifest(images: [], errors: [], samples: [:])
}

/// The `ImageIOError` case name, for comparing with expected.json.
func caseName(_ error: ImageIOError) -> String {
    switch error {
    case .cannotRead: return "cannotRead"
    case .notARegularFile: return "notARegularFile"
    case .fileTooLarge: return "fileTooLarge"
    case .unknownFormat: return "unknownFormat"
    case .corrupt: return "corrupt"
    case .truncated: return "truncated"
    case .tooLarge: return "tooLarge"
    case .zeroSize: return "zeroSize"
    case .unsupported: return "unsupported"
    case .cannotWrite: return "cannotWrite"
    }
}

/// The error `body` throws, or nil when it returns.
func decodingError(_ body: () throws(ImageIOError) -> DecodedImage) -> ImageIOError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

/// Decodes a damaged fixture and checks what its manifest expects: the error's case and, for `.tooLarge`, the
/// declared size against the default pixel limit. Returns the error for the suite's own checks.
@discardableResult
func expectManifestError(_ fixture: Fixtures.ErrorCase) throws -> ImageIOError {
    let data = try Fixtures.bytes(fixture.file)
    let error = try #require(decodingError { () throws(ImageIOError) in try ImageDecoder.decode(data: data) })
    #expect(caseName(error) == fixture.error, "\(fixture): \(error)")
    if let width = fixture.width, let height = fixture.height {
        #expect(error == .tooLarge(width: width, height: height, limit: ImageDecodingOptions().maximumPixelCount))
    }
    return error
}

/// The largest per-sample difference between two equally long byte arrays (Int.max if the sizes differ).
func maximumDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
    guard a.count == b.count else { return .max }
    var worst = 0
    for (x, y) in zip(a, b) { worst = max(worst, abs(Int(x) - Int(y))) }
    return worst
}
