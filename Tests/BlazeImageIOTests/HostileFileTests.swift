import BlazeImageIO
import Foundation
import Testing

/// Files that are not what their names say: FIFOs, devices behind links, files past the size limit. Each is
/// refused with a typed error before anything is read, and none blocks or fills memory.
@Suite("Hostile files")
struct HostileFileTests {
    static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("blaze-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func error(_ path: String, _ options: ImageDecodingOptions = .init()) -> ImageIOError? {
        do {
            _ = try ImageDecoder.decode(contentsOf: path, options: options)
            return nil
        } catch {
            return error
        }
    }

    @Test("a FIFO named like a JPEG is refused at once, not read (no writer: reading would block)")
    func fifo() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("a.jpg").path
        #expect(mkfifo(path, 0o600) == 0)
        #expect(Self.error(path) == .notARegularFile(path: path, kind: "a FIFO (named pipe)"))
    }

    @Test("a link to /dev/zero is a device, refused before any read")
    func deviceBehindLink() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("zero.png").path
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
        #expect(Self.error(path) == .notARegularFile(path: path, kind: "a character device"))
    }

    @Test("a file beyond maximumFileBytes is refused from its size, before it is read or allocated")
    func sizeLimit() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A sparse 3 GiB file: no disk space used, and reading it whole would need 3 GiB of memory.
        let huge = folder.appendingPathComponent("huge.jpg").path
        #expect(FileManager.default.createFile(atPath: huge, contents: Data([0xFF, 0xD8, 0xFF])))
        #expect(truncate(huge, 3 << 30) == 0)
        #expect(Self.error(huge) == .fileTooLarge(path: huge, bytes: 3 << 30, limit: 1 << 30))
        // The limit is the caller's: a real picture passes the default and fails a lower one.
        let sample = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Models/samples/astronaut.png").path
        if FileManager.default.fileExists(atPath: sample) {
            #expect(Self.error(sample) == nil)
            let bytes = try FileManager.default.attributesOfItem(atPath: sample)[.size] as! Int
            #expect(Self.error(sample, .init(maximumFileBytes: bytes - 1)) == .fileTooLarge(path: sample, bytes: bytes, limit: bytes - 1))
        }
        #expect(Self.error(huge).map { "\($0)".contains("maximumFileBytes") } == true)
    }
}
