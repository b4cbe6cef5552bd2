import BlazeImageIO
import Foundation
import Testing

/// A PNG chunk that declares more bytes than the file holds (found by `Tests/Fuzz`, fuzz-image; see
/// Documentation/Reliability.md). libpng allocates an ancillary chunk's declared length before reading it and
/// Debian's libpng only warns above its 8 MB chunk limit, so a 225-byte file made it allocate 2 GB before
/// failing as truncated. The decoder now checks the chunk lengths first: the same `.truncated` error, with
/// its own message, and nothing allocated.
@Suite("PNG chunk lengths")
struct PNGChunkLengthTests {
    /// The fuzzer's input: IHDR, eXIf, then an iTXt declaring 2,052,390,853 bytes.
    static let fuzzFinding = Array(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAA0AAAAHCAIAAABcElBNAAAAJmVYSWZNTQAqAAAACAAC//EAAAAAAARDYW0AARIAAwAAAAEABgAAAAD/2P/SSUZ6VP/FaVRYdFRzY2DQ+C+sXftFzeilpfk9H5vL8Y4nitz2tnpvmhEusHx16Jx9URMvxrc9SalmZHf/I8z6lSBiYpf/Swxi5guq4hX6SRCxgJSzEkYMyoc/mJ146nn2Vsylb2JlWzAwXTogaW52YfP514803dk59eG6Fc8W7349yAAAAABJRU5Erv/uQmCC")!)

    /// A 1x1 RGB PNG's signature and IHDR, then a `type` chunk declaring `length` bytes, holding 16.
    static func png(declaring length: UInt32, type: String) -> [UInt8] {
        func chunk(_ type: String, _ body: [UInt8], declared: UInt32? = nil) -> [UInt8] {
            let length = declared ?? UInt32(body.count)
            let typed = Array(type.utf8) + body
            return withUnsafeBytes(of: length.bigEndian, Array.init) + typed
                + withUnsafeBytes(of: CRC32.checksum(typed).bigEndian, Array.init)
        }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", [0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0])
            + chunk(type, [UInt8](repeating: 0x41, count: 16), declared: length)
    }

    static let cases: [[UInt8]] = [
        fuzzFinding,
        png(declaring: 2_000_000_000, type: "iTXt"),
        png(declaring: 0x7FFF_FFFF, type: "tEXt"),
        png(declaring: 100_000, type: "eXIf"),
        png(declaring: 17, type: "zTXt"),  // one byte more than the chunk holds
    ]

    @Test("a chunk longer than the data is truncated, refused before libpng allocates it", arguments: cases)
    func chunkLongerThanData(_ data: [UInt8]) {
        let error = decodingError { () throws(ImageIOError) in try ImageDecoder.decode(data: data) }
        guard case .truncated(let message)? = error else {
            Issue.record("expected .truncated, got \(String(describing: error))")
            return
        }
        #expect(message.contains("longer than the data left"), "\(message)")
    }
}
