import BlazeImageIO
import Testing

@Suite("EXIF orientation parser")
struct EXIFOrientationTests {
    /// TIFF header and IFD0 holding `entries` (tag, type, value), in either byte order.
    static func tiff(bigEndian: Bool, entries: [(tag: Int, type: Int, value: Int)], ifdOffset: Int = 8) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] {
            bigEndian ? [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)]
        }
        func u32(_ v: Int) -> [UInt8] {
            let be = [24, 16, 8, 0].map { UInt8(v >> $0 & 0xFF) }
            return bigEndian ? be : be.reversed()
        }
        var bytes: [UInt8] = (bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]) + u16(42) + u32(ifdOffset)
        bytes += [UInt8](repeating: 0, count: max(0, ifdOffset - 8))
        bytes += u16(entries.count)
        for entry in entries {
            let value = entry.type == 4 ? u32(entry.value) : u16(entry.value) + [0, 0]
            bytes += u16(entry.tag) + u16(entry.type) + u32(1) + value
        }
        return bytes + u32(0)
    }

    @Test(arguments: [false, true])
    func readsBothByteOrders(_ bigEndian: Bool) {
        for value in 1...8 {
            let bytes = Self.tiff(bigEndian: bigEndian, entries: [(0x010F, 2, 0), (0x0112, 3, value)])
            #expect(EXIFOrientation.parse(bytes) == value)
            #expect(EXIFOrientation.parse(Array("Exif\0\0".utf8) + bytes) == value)
        }
    }

    @Test func acceptsLongValuesAndLaterIFDOffsets() {
        #expect(EXIFOrientation.parse(Self.tiff(bigEndian: true, entries: [(0x0112, 4, 6)])) == 6)
        #expect(EXIFOrientation.parse(Self.tiff(bigEndian: false, entries: [(0x0112, 3, 5)], ifdOffset: 20)) == 5)
    }

    @Test func rejectsBadValuesAndStructures() {
        #expect(EXIFOrientation.parse([]) == nil)
        #expect(EXIFOrientation.parse(Array("Exif\0\0".utf8)) == nil)
        for value in [0, 9, 0xFFFF] {
            #expect(EXIFOrientation.parse(Self.tiff(bigEndian: true, entries: [(0x0112, 3, value)])) == nil)
        }
        // No orientation tag; a wrong type; a wrong magic number; an unknown byte order.
        #expect(EXIFOrientation.parse(Self.tiff(bigEndian: true, entries: [(0x010F, 2, 0)])) == nil)
        #expect(EXIFOrientation.parse(Self.tiff(bigEndian: true, entries: [(0x0112, 7, 6)])) == nil)
        var magic = Self.tiff(bigEndian: true, entries: [(0x0112, 3, 6)])
        magic[3] = 43
        #expect(EXIFOrientation.parse(magic) == nil)
        var order = Self.tiff(bigEndian: true, entries: [(0x0112, 3, 6)])
        order[0] = 0x49
        #expect(EXIFOrientation.parse(order) == nil)
    }

    @Test func everyTruncationIsSafe() {
        let bytes = Self.tiff(bigEndian: false, entries: [(0x010F, 2, 0), (0x0112, 3, 6)])
        // The orientation value ends 10 bytes into the second entry (8 header + 2 count + 12 + 10 = 32).
        for length in 0..<bytes.count {
            #expect(EXIFOrientation.parse(Array(bytes.prefix(length))) == (length >= 32 ? 6 : nil), "\(length)")
        }
    }

    @Test func outOfRangeOffsetsAreSafe() {
        // IFD offset far past the end, and an entry count larger than the data.
        var farIFD = Self.tiff(bigEndian: true, entries: [(0x0112, 3, 6)])
        farIFD[4...7] = [0x7F, 0xFF, 0xFF, 0xFF]
        #expect(EXIFOrientation.parse(farIFD) == nil)
        var manyEntries = Self.tiff(bigEndian: true, entries: [(0x010F, 2, 0)])
        manyEntries[8...9] = [0xFF, 0xFF]
        #expect(EXIFOrientation.parse(manyEntries) == nil)
    }
}
