import BlazeImageIO
import Foundation
import Testing

@Suite("Errors")
struct ErrorTests {
    @Test func emptyDataIsTruncated() {
        let error = decodingError { () throws(ImageIOError) in try ImageDecoder.decode(data: []) }
        #expect(error.map(caseName) == "truncated")
    }

    @Test func signaturePrefixIsTruncated() {
        for data: [UInt8] in [[0xFF], [0xFF, 0xD8], [0x89, 0x50, 0x4E, 0x47, 0x0D]] {
            let error = decodingError { () throws(ImageIOError) in try ImageDecoder.decode(data: data) }
            #expect(error.map(caseName) == "truncated", "\(data)")
        }
    }

    @Test func otherDataIsUnknownFormat() {
        let samples: [[UInt8]] = [
            Array("GIF90a\u{1}\u{0}\u{1}\u{0}".utf8), Array("BA".utf8), [0x00], [0xFF, 0xD8, 0x00, 0x00],
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x00, 0, 0, 0, 0], Array("P9\n".utf8),
        ]
        for data in samples {
            #expect(decodingError { () throws(ImageIOError) in try ImageDecoder.decode(data: data) } == .unknownFormat)
        }
    }

    @Test func tooShortForTheirFormatsAreTypedErrors() {
        // A GIF screen descriptor cut short, a bare "BM", a PNM header with no size: recognised, then refused.
        let samples: [([UInt8], String)] = [
            (Array("GIF89a\u{1}\u{0}\u{1}\u{0}".utf8), "truncated"), (Array("BM".utf8), "corrupt"),
            (Array("P6\n".utf8), "corrupt"), (Array("RIFF\u{24}\u{0}\u{0}\u{0}WEBPVP8L".utf8), "truncated"),
            (Array("II*\u{0}".utf8), "truncated"),
        ]
        for (data, expected) in samples {
            let error = decodingError { () throws(ImageIOError) in try ImageDecoder.decode(data: data) }
            #expect(error.map(caseName) == expected, "\(data): \(String(describing: error))")
        }
    }

    @Test func missingFileCannotBeRead() {
        let path = Fixtures.path("no-such-file.png")
        let error = decodingError { () throws(ImageIOError) in try ImageDecoder.decode(contentsOf: path) }
        #expect(error == .cannotRead(path: path, reason: "No such file or directory"))
    }

    @Test func directoryCannotBeRead() {
        let path = Fixtures.directory.path
        let error = decodingError { () throws(ImageIOError) in try ImageDecoder.decode(contentsOf: path) }
        #expect(error == .notARegularFile(path: path, kind: "a directory"))
    }

    @Test("A small pixel budget refuses a normal image", arguments: ["jpeg_baseline.jpg", "png_interlaced_rgb8.png"])
    func budget(_ file: String) throws {
        let data = try Fixtures.bytes(file)
        let image = try ImageDecoder.decode(data: data)
        let pixelCount = image.width * image.height
        // Exactly at the budget decodes; one pixel less refuses before decoding.
        #expect(try ImageDecoder.decode(data: data, options: .init(maximumPixelCount: pixelCount)) == image)
        let error = decodingError { () throws(ImageIOError) in
            try ImageDecoder.decode(data: data, options: .init(maximumPixelCount: pixelCount - 1))
        }
        #expect(error == .tooLarge(width: image.width, height: image.height, limit: pixelCount - 1))
    }

    @Test func errorsDescribeThemselves() {
        let error = ImageIOError.tooLarge(width: 3, height: 4, limit: 5)
        #expect(error.description == "image too large: 3 x 4 pixels exceeds the limit of 5 pixels")
        #expect(error.localizedDescription == error.description)
        #expect(ImageIOError.truncated("PNG: x").description == "truncated image: PNG: x")
    }

    @Test func corruptMessagesNameTheCodec() throws {
        let error = decodingError { () throws(ImageIOError) in
            try ImageDecoder.decode(contentsOf: Fixtures.path("jpeg_corrupt.jpg"))
        }
        guard case .corrupt(let message) = error else {
            Issue.record("expected .corrupt, got \(String(describing: error))")
            return
        }
        #expect(message.hasPrefix("JPEG: "), "\(message)")
    }
}

@Suite("Truncation at every length")
struct TruncationTests {
    /// Every prefix of the file that ends before the image data does must raise `.truncated`; longer ones
    /// (missing only the end marker, IEND or EOI) decode to the full image.
    @Test(arguments: [
        ("jpeg_baseline.jpg", 2), ("jpeg_progressive.jpg", 2), ("jpeg_gray.jpg", 2), ("jpeg_cmyk.jpg", 2),
        ("png_rgb8.png", 12), ("png_interlaced_rgba16.png", 12), ("png_palette_trns.png", 12),
    ])
    func everyPrefix(_ file: String, completeTail: Int) throws {
        let data = try Fixtures.bytes(file)
        let full = try ImageDecoder.decode(data: data)
        for length in 0..<data.count {
            let prefix = Array(data.prefix(length))
            let result = Result { () throws(ImageIOError) in try ImageDecoder.decode(data: prefix) }
            if length < data.count - completeTail {
                switch result {
                case .success: Issue.record("\(file) cut to \(length) of \(data.count) bytes decoded")
                case .failure(let error):
                    #expect(caseName(error) == "truncated", "\(file) cut to \(length) bytes: \(error)")
                }
            } else {
                #expect((try? result.get()) == full, "\(file) cut to \(length) of \(data.count) bytes")
            }
        }
    }
}
