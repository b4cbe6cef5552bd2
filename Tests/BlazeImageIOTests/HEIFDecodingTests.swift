import BlazeImageIO
import Foundation
import Testing

@Suite("HEIF and AVIF")
struct HEIFDecodingTests {
    @Test func manifestLoads() throws {
        let manifest = try HEIFFixtures.loadManifest()
        #expect(manifest.images.count >= 10)
        #expect(manifest.errors.count >= 5)
        #expect(manifest.profiles.count >= 8)
    }

    @Test("Decodes to the size, pixels and block colours of the reference", arguments: HEIFFixtures.manifest.images)
    func decodes(_ fixture: HEIFFixtures.ImageCase) throws {
        let data = try Fixtures.bytes(fixture.file)
        #expect(ImageFileFormat(sniffing: data) == (fixture.file.hasSuffix(".avif") ? .avif : .heif))
        let image = try ImageDecoder.decode(data: data)
        #expect(image.width == fixture.width && image.height == fixture.height)
        #expect(image.pixelFormat.rawValue == fixture.format)
        // The container's irot/imir are applied; the EXIF orientation is not reported (nor applied).
        #expect(image.orientation == .up)
        let expected = try HEIFFixtures.expectedPixels(fixture.expected)
        #expect(expected.pixelFormat == image.pixelFormat)
        let difference = maximumDifference(image.pixels, expected.pixels)
        #expect(difference <= fixture.tolerance, "largest sample difference \(difference)")
        let channels = image.pixelFormat.bytesPerPixel
        for block in fixture.blocks {
            let offset = (block.y * image.width + block.x) * channels
            let decoded = image.pixels[offset..<offset + channels].map(Int.init)
            let worst = zip(decoded, block.colour).map { abs($0 - $1) }.max() ?? .max
            #expect(worst <= fixture.blockTolerance, "(\(block.x), \(block.y)): \(decoded), pattern \(block.colour)")
        }
        #expect(try ImageDecoder.decode(contentsOf: Fixtures.path(fixture.file)) == image)
    }

    @Test("Damaged files raise the expected error", arguments: HEIFFixtures.manifest.errors)
    func rejects(_ fixture: Fixtures.ErrorCase) throws {
        try expectManifestError(fixture)
    }

    /// Every prefix of a file fails: as truncated from the fifth byte on (1 to 4 bytes are a box size: nothing yet
    /// says HEIF), except the `ftyp` box alone, a complete box with nothing after it (libheif: "No 'meta' box").
    @Test(arguments: ["heif_rgb.heic", "avif_rgb.avif", "heif_grid.heic", "heif_alpha.heic"])
    func everyPrefixFails(_ file: String) throws {
        let data = try Fixtures.bytes(file)
        let ftypSize = data[0..<4].reduce(0) { $0 << 8 | Int($1) }
        for length in 0..<data.count {
            let prefix = Array(data.prefix(length))
            let error = decodingError { () throws(ImageIOError) in try ImageDecoder.decode(data: prefix) }
            let expected = length == 0 ? "truncated" : length <= 4 ? "unknownFormat" : length == ftypSize ? "corrupt" : "truncated"
            #expect(error.map(caseName) == expected, "\(file) cut to \(length) bytes: \(String(describing: error))")
        }
    }

    @Test func rotationTurnsThePictureOnce() throws {
        // Stored 64x48 with irot 270 (a quarter turn clockwise) and an EXIF orientation of 6 saying the same, as
        // iPhones write: shown 48x64, with the stored top-left quadrant (red) at the top right.
        let image = try ImageDecoder.decode(contentsOf: Fixtures.path("heif_irot270_exif6.heic"))
        #expect(image.width == 48 && image.height == 64 && image.orientation == .up)
        let topRight = (8 * 48 + 40) * 3
        #expect(image.pixels[topRight] > 180 && image.pixels[topRight + 1] < 90)
    }

    @Test func pixelBudgetCountsTheDeclaredSize() throws {
        // x265 codes whole 64x64 blocks: heif_rgb.heic declares 64x64 (ispe) and crops it to 64x48 (clap). What
        // libheif allocates is the declared size, so the budget applies to it.
        let data = try Fixtures.bytes("heif_rgb.heic")
        #expect(try ImageDecoder.decode(data: data, options: .init(maximumPixelCount: 64 * 64)).height == 48)
        let error = decodingError { () throws(ImageIOError) in
            try ImageDecoder.decode(data: data, options: .init(maximumPixelCount: 64 * 64 - 1))
        }
        #expect(error == .tooLarge(width: 64, height: 64, limit: 64 * 64 - 1))
        let declared = decodingError { () throws(ImageIOError) in
            try ImageDecoder.decode(data: data, options: .init(maximumPixelCount: 64 * 48,
                                                                maximumDeclaredPixelCount: 64 * 64 - 1))
        }
        #expect(declared == .tooLarge(width: 64, height: 64, limit: 64 * 64 - 1))
    }

    @Test func scaledDecodeIsAFullDecode() throws {
        let data = try Fixtures.bytes("avif_rgb.avif")
        let scaled = try ImageDecoder.decodeScaled(data: data, minimumLongSide: 8)
        #expect(scaled.scaleDenominator == 1 && scaled.fullWidth == 64 && scaled.fullHeight == 48)
        #expect(scaled.image == (try ImageDecoder.decode(data: data)))
    }

    @Test func errorsNameTheFormat() throws {
        for (file, prefix) in [("heif_corrupt.heic", "HEIF: "), ("heif_truncated.heic", "HEIF: ")] {
            let error = decodingError { () throws(ImageIOError) in try ImageDecoder.decode(contentsOf: Fixtures.path(file)) }
            switch error {
            case .corrupt(let message), .truncated(let message):
                #expect(message.hasPrefix(prefix), "\(message)")
            default: Issue.record("\(file): \(String(describing: error))")
            }
        }
    }

    /// An HEVC stream (SPS) or AV1 frame of 2048 x 2048 behind an ispe of 64 x 64: libde265 and dav1d allocate what
    /// the stream says, so with libheif before 1.19 the package's bounded plugins refuse it before it is allocated
    /// (`.corrupt`: the file contradicts itself); libheif 1.19 and later refuse it with their security limits
    /// (`.unsupported`).
    @Test(arguments: [("heif_sps_bomb.heic", "HEVC stream's picture is 2048x2048"), ("avif_frame_bomb.avif", "dav1d")])
    func codedPictureLargerThanItsSizeIsRefused(_ file: String, detail: String) throws {
        let error = decodingError { () throws(ImageIOError) in try ImageDecoder.decode(contentsOf: Fixtures.path(file)) }
        switch error {
        case .corrupt(let message): #expect(message.contains(detail), "\(message)")
        case .unsupported(let message): #expect(message.contains("security limit"), "\(message)")
        default: Issue.record("\(file): \(String(describing: error))")
        }
    }

    @Test func fuzzFindingUnknownNCLXPrimaries() throws {
        // fuzz-image: an AVIF whose colr nclx box has a colour-primaries code point libheif does not know. libheif
        // returns the profile it allocated with its error (it leaked); the profile is ignored and the picture decodes.
        let data = try Fixtures.bytes("fuzz_avif_nclx_leak.avif")
        var raw = ImageDecodingOptions()
        raw.convertsToSRGB = false
        let image = try ImageDecoder.decode(data: data)
        #expect(image.width == 64 && image.height == 48)
        #expect(try ImageDecoder.decode(data: data, options: raw) == image)
    }

    @Test func fuzzFindingEmptyAV1Item() throws {
        // fuzz-image: an AVIF whose alpha item has no data. The AV1 plugin handed dav1d empty data, which dav1d
        // refused with a message on stderr, and kept its buffer (a leak under ASan): now an error of its own.
        let error = decodingError { () throws(ImageIOError) in
            try ImageDecoder.decode(contentsOf: Fixtures.path("fuzz_avif_empty_item.avif"))
        }
        #expect(error.map(caseName) == "corrupt", "\(String(describing: error))")
    }

    @Test func fuzzFindingGridThatListsItselfAsATile() throws {
        // fuzz-image: a 1 KB grid whose 'dimg' references list the grid itself among its tiles. libheif 1.15
        // decodes tiles recursively with no cycle check: the stack overflowed (a crash, with libheif's own codecs
        // too). The item references are now checked when the header is read, before anything is decoded.
        let data = try Fixtures.bytes("fuzz_heif_grid_cycle.heic")
        let error = decodingError { () throws(ImageIOError) in try ImageDecoder.decode(data: data) }
        #expect(error.map(caseName) == "corrupt", "\(String(describing: error))")
        #expect("\(String(describing: error))".contains("cycle"))
    }

    @Test func gridCanvasLargerThanItsSizeIsRefused() throws {
        // The grid item's canvas claims 30000 x 30000 while its ispe says 64 x 48: libheif reads the canvas only
        // when it decodes, and refuses it against the limit set from the declared size, before allocating it.
        let error = decodingError { () throws(ImageIOError) in
            try ImageDecoder.decode(contentsOf: Fixtures.path("heif_grid_bomb.heic"))
        }
        guard case .unsupported(let message) = error else {
            Issue.record("expected .unsupported, got \(String(describing: error))")
            return
        }
        #expect(message.contains("security limit"), "\(message)")
    }
}

@Suite("Recognising HEIF and AVIF")
struct HEIFSniffingTests {
    static func ftyp(major: String, compatible: [String]) -> [UInt8] {
        let size = 16 + 4 * compatible.count
        var bytes: [UInt8] = [0, 0, 0, UInt8(size)] + Array("ftyp".utf8) + Array(major.utf8) + [0, 0, 0, 0]
        for brand in compatible { bytes += Array(brand.utf8) }
        return bytes + [0, 0, 0, 8] + Array("meta".utf8)
    }

    @Test func brands() {
        #expect(ImageFileFormat(sniffing: Self.ftyp(major: "heic", compatible: ["mif1", "heic"])) == .heif)
        #expect(ImageFileFormat(sniffing: Self.ftyp(major: "mif1", compatible: ["heic"])) == .heif)
        #expect(ImageFileFormat(sniffing: Self.ftyp(major: "msf1", compatible: ["hevc"])) == .heif)
        #expect(ImageFileFormat(sniffing: Self.ftyp(major: "avif", compatible: ["mif1", "miaf"])) == .avif)
        #expect(ImageFileFormat(sniffing: Self.ftyp(major: "mif1", compatible: ["avif"])) == .avif)
        #expect(ImageFileFormat(sniffing: Self.ftyp(major: "avis", compatible: [])) == .avif)
        // Other ISO-BMFF files: QuickTime and MP4 videos, Canon's CR3.
        #expect(ImageFileFormat(sniffing: Self.ftyp(major: "qt  ", compatible: ["qt  "])) == nil)
        #expect(ImageFileFormat(sniffing: Self.ftyp(major: "isom", compatible: ["iso2", "mp41"])) == nil)
        #expect(ImageFileFormat(sniffing: Self.ftyp(major: "crx ", compatible: ["isom"])) == nil)
    }

    @Test func otherISOBMFFIsUnknownFormat() {
        let data = Self.ftyp(major: "isom", compatible: ["mp41"])
        #expect(decodingError { () throws(ImageIOError) in try ImageDecoder.decode(data: data) } == .unknownFormat)
    }

    @Test func cutBeforeTheBrandIsTruncated() {
        for length in 5..<12 {
            let data = Array(Self.ftyp(major: "heic", compatible: ["mif1"]).prefix(length))
            let error = decodingError { () throws(ImageIOError) in try ImageDecoder.decode(data: data) }
            #expect(error.map(caseName) == "truncated", "\(length) bytes: \(String(describing: error))")
        }
    }

    @Test func ftypAloneIsAnError() {
        let data = Self.ftyp(major: "heic", compatible: ["mif1", "heic"])
        let error = decodingError { () throws(ImageIOError) in try ImageDecoder.decode(data: data) }
        #expect(error != nil && error != .unknownFormat, "\(String(describing: error))")
    }
}
