/// The compressed formats `ImageDecoder` reads, recognised by their signatures (the content, never a file name).
public enum ImageFileFormat: String, Hashable, Sendable, CaseIterable {
    /// JPEG/JFIF/EXIF: starts with FF D8 FF.
    case jpeg
    /// PNG: starts with 89 50 4E 47 0D 0A 1A 0A.
    case png
    /// WebP (libwebp): "RIFF", a 4-byte size, then "WEBP".
    case webp
    /// TIFF (libtiff): "II*\0" (little-endian) or "MM\0*" (big-endian); BigTIFF's "II+\0" and "MM\0+" too.
    case tiff
    /// GIF: "GIF87a" or "GIF89a".
    case gif
    /// Windows bitmap (FFmpeg's decoder): "BM".
    case bmp
    /// Netpbm's PBM, PGM and PPM (FFmpeg's decoders): "P1" to "P6" (ASCII P1–P3, binary P4–P6), then a space,
    /// a line break or "#".
    case pnm
    /// HEIF, HEIC included (HEVC-coded, as iPhones write): an ISO-BMFF `ftyp` box whose major or compatible brands
    /// include `heic`, `heix`, `hevc`, `hevx`, `heim`, `heis`, `mif1` or `msf1` (see `init(sniffing:)`).
    case heif
    /// AVIF (AV1-coded HEIF): an ISO-BMFF `ftyp` box whose major brand is `avif` or `avis`, or whose compatible
    /// brands include one of them when the major brand is no HEVC brand.
    case avif

    /// The format's usual name, for messages ("JPEG", "PNG", "WebP", "TIFF", "GIF", "BMP", "PNM", "HEIF", "AVIF").
    public var displayName: String {
        switch self {
        case .jpeg: return "JPEG"
        case .png: return "PNG"
        case .webp: return "WebP"
        case .tiff: return "TIFF"
        case .gif: return "GIF"
        case .bmp: return "BMP"
        case .pnm: return "PNM"
        case .heif: return "HEIF"
        case .avif: return "AVIF"
        }
    }

    /// The name help texts and documents list the format under: HEIF as "HEIC/HEIF" (what phones write), the
    /// others as `displayName`.
    public var listedName: String { self == .heif ? "HEIC/HEIF" : displayName }

    /// Every format this library reads, as help texts and documents list them: "JPEG, PNG, WebP, TIFF, GIF, BMP,
    /// PNM, HEIC/HEIF, AVIF". The one list: the CLI's help, the server's OpenAPI document and the tests of the
    /// documentation take it from here.
    public static var listedNames: String { allCases.map(\.listedName).joined(separator: ", ") }

    /// Every format's file name extensions, with their dots: ".jpg .jpeg .png .webp ...".
    public static var listedExtensions: String {
        allCases.flatMap(\.fileExtensions).map { "." + $0 }.joined(separator: " ")
    }

    /// Every format's file name extensions (lower case, without the dot): what a folder walk picks files by.
    public static var allFileExtensions: Set<String> { Set(allCases.flatMap(\.fileExtensions)) }

    /// The file name extensions (lower case, without the dot) that files of the format usually have. The
    /// decoder never looks at them; the `blazeface` tool picks the files of a folder by them.
    public var fileExtensions: [String] {
        switch self {
        case .jpeg: return ["jpg", "jpeg"]
        case .png: return ["png"]
        case .webp: return ["webp"]
        case .tiff: return ["tif", "tiff"]
        case .gif: return ["gif"]
        case .bmp: return ["bmp"]
        case .pnm: return ["pnm", "pbm", "pgm", "ppm"]
        case .heif: return ["heic", "heif", "hif"]
        case .avif: return ["avif"]
        }
    }

    /// The fixed bytes that the format's first signature starts with: all of it for JPEG, PNG, GIF ("GIF87a";
    /// "GIF89a" is accepted too), BMP and TIFF ("II*\0"; the big-endian and BigTIFF ones too); the leading part for
    /// WebP ("RIFF", which a size and "WEBP" follow) and PNM ("P1"; "P2" to "P6" too, then a separator).
    /// `init(sniffing:)` checks every signature whole.
    public var signature: [UInt8] {
        guard let first = signatures.first else { return [] }
        return Array(first.prefix { $0.count == 1 }.map { $0[0] })
    }

    /// Each of the format's signatures, position by position: the bytes accepted there (empty: any byte).
    var signatures: [[[UInt8]]] {
        func exactly(_ text: String) -> [[UInt8]] { text.utf8.map { [$0] } }
        switch self {
        case .jpeg: return [[[0xFF], [0xD8], [0xFF]]]
        case .png: return [[0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A].map { [$0] }]
        case .webp: return [exactly("RIFF") + Array(repeating: [], count: 4) + exactly("WEBP")]
        case .tiff: return [exactly("II*\u{0}"), exactly("MM\u{0}*"), exactly("II+\u{0}"), exactly("MM\u{0}+")]
        case .gif: return [exactly("GIF87a"), exactly("GIF89a")]
        case .bmp: return [exactly("BM")]
        case .pnm:
            let separators: [UInt8] = [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x23] // whitespace or "#"
            return (1...6).map { exactly("P\($0)") + [separators] }
        case .heif, .avif: return []  // recognised by their `ftyp` box's brands, after a size
        }
    }

    /// The format whose signature `data` starts with (for HEIF and AVIF: whose `ftyp` box names one of their
    /// brands), or nil.
    /// - Parameter data: the first bytes of a file, or all of them.
    public init?(sniffing data: some Collection<UInt8>) {
        for format in ImageFileFormat.allCases
        where format.signatures.contains(where: { Self.matches(data, $0, wholeSignature: true) }) {
            self = format
            return
        }
        guard let format = Self.isoBMFFFormat(Array(data.prefix(Self.ftypSniffLength))) else { return nil }
        self = format
    }

    /// True when `data` is shorter than some signature and matches its start (an empty or cut-off file).
    static func isSignaturePrefix(_ data: some Collection<UInt8>) -> Bool {
        allCases.contains { $0.signatures.contains { data.count < $0.count && matches(data, $0, wholeSignature: false) } }
            || isISOBMFFPrefix(Array(data.prefix(12)))
    }

    private static func matches(_ data: some Collection<UInt8>, _ signature: [[UInt8]], wholeSignature: Bool) -> Bool {
        if wholeSignature && data.count < signature.count { return false }
        return zip(data, signature).allSatisfy { byte, accepted in accepted.isEmpty || accepted.contains(byte) }
    }
}
