/// The compressed formats `ImageDecoder` reads, recognised by their signatures.
public enum ImageFileFormat: String, Hashable, Sendable, CaseIterable {
    /// JPEG/JFIF/EXIF: starts with FF D8 FF.
    case jpeg
    /// PNG: starts with 89 50 4E 47 0D 0A 1A 0A.
    case png
    /// HEIF, HEIC included (HEVC-coded, as iPhones write): an ISO-BMFF `ftyp` box whose major or compatible brands
    /// include `heic`, `heix`, `hevc`, `hevx`, `heim`, `heis`, `mif1` or `msf1` (see `init(sniffing:)`).
    case heif
    /// AVIF (AV1-coded HEIF): an ISO-BMFF `ftyp` box whose major brand is `avif` or `avis`, or whose compatible
    /// brands include one of them when the major brand is no HEVC brand.
    case avif

    /// The signature bytes the format's data starts with; empty for HEIF and AVIF, whose files start with the
    /// size of their `ftyp` box and are recognised by its brands.
    public var signature: [UInt8] {
        switch self {
        case .jpeg: return [0xFF, 0xD8, 0xFF]
        case .png: return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        case .heif, .avif: return []
        }
    }

    /// The format whose signature `data` starts with (for HEIF and AVIF: whose `ftyp` box names one of their
    /// brands), or nil.
    /// - Parameter data: the first bytes of a file, or all of them.
    public init?(sniffing data: some Collection<UInt8>) {
        for format in ImageFileFormat.allCases where !format.signature.isEmpty && data.starts(with: format.signature) {
            self = format
            return
        }
        guard let format = Self.isoBMFFFormat(Array(data.prefix(Self.ftypSniffLength))) else { return nil }
        self = format
    }

    /// True when `data` is shorter than some signature and matches its start (an empty or cut-off file).
    static func isSignaturePrefix(_ data: some Collection<UInt8>) -> Bool {
        allCases.contains { data.count < $0.signature.count && $0.signature.starts(with: data) }
            || isISOBMFFPrefix(Array(data.prefix(12)))
    }
}
