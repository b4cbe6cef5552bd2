/// Recognising HEIF and AVIF files by the brands of their ISO-BMFF `ftyp` box (ISO/IEC 14496-12 §4.3,
/// ISO/IEC 23008-12 Annex B, AV1-ISOBMFF): a 32-bit big-endian box size, `ftyp`, the major brand, a minor version,
/// then compatible brands up to the box's end. Only the box's first 256 bytes are looked at; libheif reads the file.
extension ImageFileFormat {
    /// Brands of HEVC-coded HEIF and of the format-neutral HEIF structure (image and image sequence).
    static let heifBrands: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs", "mif1", "msf1"]
    /// Brands of AVIF (AV1-coded HEIF): a still image, an image sequence.
    static let avifBrands: Set<String> = ["avif", "avis"]
    /// Brands that say the images are HEVC-coded.
    static let hevcBrands: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs"]
    /// The most bytes of a file that sniffing looks at.
    static let ftypSniffLength = 256

    /// HEIF or AVIF when `data` starts with an `ftyp` box naming one of their brands; nil otherwise.
    static func isoBMFFFormat(_ data: [UInt8]) -> ImageFileFormat? {
        guard data.count >= 12, data[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        let boxSize = data[0..<4].reduce(0) { $0 << 8 | Int($1) }
        guard boxSize >= 16 else { return nil }  // size, type, major brand, minor version at least
        let end = min(boxSize, data.count)
        let major = brand(data, at: 8)
        var compatible: [String] = []
        var offset = 16
        while offset + 4 <= end {
            compatible.append(brand(data, at: offset))
            offset += 4
        }
        if avifBrands.contains(major) { return .avif }
        if hevcBrands.contains(major) { return .heif }
        if compatible.contains(where: avifBrands.contains) { return .avif }
        if heifBrands.contains(major) || compatible.contains(where: heifBrands.contains) { return .heif }
        return nil
    }

    /// Whether `data` (fewer than 12 bytes) could be the start of an `ftyp` box: a file cut before its major brand.
    static func isISOBMFFPrefix(_ data: [UInt8]) -> Bool {
        guard data.count > 4, data.count < 12 else { return false }
        let type = data[4..<min(data.count, 8)]
        return Array("ftyp".utf8).starts(with: type)
    }

    private static func brand(_ data: [UInt8], at offset: Int) -> String {
        String(decoding: data[offset..<offset + 4], as: UTF8.self)
    }
}
