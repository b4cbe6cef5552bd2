/// Reads the orientation tag from an EXIF payload, with bounds checks on every read.
package enum EXIFOrientation {
    /// The orientation tag (0x0112) of IFD0 in a TIFF-structured EXIF payload ("II*\0" or "MM\0*" byte
    /// order; a leading "Exif\0\0" is skipped). Nil when the tag is absent, the payload is malformed or
    /// cut short, or the value is outside 1...8.
    package static func parse(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var reader = Reader(bytes: bytes, base: 0, bigEndian: false)
        if bytes.count >= 6, bytes.prefix(6).elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0]) { reader.base = 6 }
        switch (reader.byte(at: 0), reader.byte(at: 1)) {
        case (0x49, 0x49): reader.bigEndian = false
        case (0x4D, 0x4D): reader.bigEndian = true
        default: return nil
        }
        guard reader.uint16(at: 2) == 42, let ifd = reader.uint32(at: 4), let count = reader.uint16(at: ifd) else {
            return nil
        }
        for index in 0..<count {
            let entry = ifd + 2 + 12 * index
            guard let tag = reader.uint16(at: entry), let type = reader.uint16(at: entry + 2),
                  let valueCount = reader.uint32(at: entry + 4) else { return nil }
            guard tag == 0x0112 else { continue }
            guard valueCount >= 1 else { return nil }
            let value: Int?
            switch type {
            case 3: value = reader.uint16(at: entry + 8) // SHORT, the type the standard prescribes.
            case 4: value = reader.uint32(at: entry + 8) // LONG, written by a few tools.
            default: value = nil
            }
            guard let value, (1...8).contains(value) else { return nil }
            return value
        }
        return nil
    }

    package static func parse(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBytes { parse($0) }
    }

    /// Integers at offsets from the TIFF header, in its byte order; nil past the end.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var base: Int
        var bigEndian: Bool

        func byte(at offset: Int) -> Int? {
            let (position, overflow) = base.addingReportingOverflow(offset)
            guard !overflow, offset >= 0, position < bytes.count else { return nil }
            return Int(bytes[position])
        }

        func uint16(at offset: Int) -> Int? { integer(at: offset, size: 2) }
        func uint32(at offset: Int) -> Int? { integer(at: offset, size: 4) }

        private func integer(at offset: Int, size: Int) -> Int? {
            guard offset >= 0, offset <= bytes.count - base - size else { return nil }
            var value = 0
            for index in 0..<size {
                let byte = Int(bytes[base + offset + (bigEndian ? index : size - 1 - index)])
                value = value << 8 | byte
            }
            return value
        }
    }
}
