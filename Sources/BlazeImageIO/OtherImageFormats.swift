/// Image formats recognised by their signatures that `ImageDecoder` does not decode, so that an error can name
/// what the data is. Checked only after every `ImageFileFormat` signature failed to match.
enum OtherImageFormats {
    /// The name of the format whose signature `data` starts with, or nil. Nil matches any byte.
    static func name(sniffing data: [UInt8]) -> String? {
        for (name, signature) in signatures where data.count >= signature.count {
            if zip(data, signature).allSatisfy({ byte, expected in expected == nil || expected == byte }) { return name }
        }
        return nil
    }

    private static func bytes(_ text: String) -> [UInt8?] { text.utf8.map { $0 } }

    private static let signatures: [(String, [UInt8?])] = [
        ("JPEG XL", [0xFF, 0x0A]), ("JPEG XL", [0, 0, 0, 0x0C] + bytes("JXL \r\n") + [0x87, 0x0A]),
        ("JPEG 2000", [0, 0, 0, 0x0C] + bytes("jP  \r\n") + [0x87, 0x0A]), ("JPEG 2000", [0xFF, 0x4F, 0xFF, 0x51]),
        ("Photoshop (PSD)", bytes("8BPS")), ("OpenEXR", [0x76, 0x2F, 0x31, 0x01]), ("QOI", bytes("qoif")),
        ("PAM (Netpbm P7)", bytes("P7\n")), ("PFM (Netpbm float)", bytes("PF\n")), ("PFM (Netpbm float)", bytes("Pf\n")),
        ("Radiance HDR", bytes("#?RADIANCE")), ("Radiance HDR", bytes("#?RGBE")), ("GIMP XCF", bytes("gimp xcf")),
        ("DirectDraw Surface (DDS)", bytes("DDS ")), ("Windows icon (ICO)", [0, 0, 1, 0]),
        ("PDF", bytes("%PDF-")), ("SVG or XML", bytes("<?xml")), ("SVG", bytes("<svg")),
    ]
}
