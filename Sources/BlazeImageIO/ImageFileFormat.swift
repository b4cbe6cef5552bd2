/// The compressed formats `ImageDecoder` reads, recognised by their signatures.
public enum ImageFileFormat: String, Hashable, Sendable, CaseIterable {
    /// JPEG/JFIF/EXIF: starts with FF D8 FF.
    case jpeg
    /// PNG: starts with 89 50 4E 47 0D 0A 1A 0A.
    case png

    /// The signature bytes the format's data starts with.
    public var signature: [UInt8] {
        switch self {
        case .jpeg: return [0xFF, 0xD8, 0xFF]
        case .png: return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        }
    }

    /// The format whose signature `data` starts with, or nil.
    /// - Parameter data: the first bytes of a file, or all of them.
    public init?(sniffing data: some Collection<UInt8>) {
        for format in ImageFileFormat.allCases where data.starts(with: format.signature) {
            self = format
            return
        }
        return nil
    }

    /// True when `data` is shorter than some signature and matches its start (an empty or cut-off file).
    static func isSignaturePrefix(_ data: some Collection<UInt8>) -> Bool {
        allCases.contains { data.count < $0.signature.count && $0.signature.starts(with: data) }
    }
}
