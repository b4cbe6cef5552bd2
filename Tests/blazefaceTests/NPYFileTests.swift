import BlazeNPY
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `NPYArray(path:)` on files a user names (the CLI's `infer` inputs): only regular files of at most
/// `maximumBytes` are read, and nothing blocks or reads without end.
@Suite("NPY files")
struct NPYFileTests {
    static func cannotRead(_ path: String, maximumBytes: Int = 1 << 30) -> String? {
        do {
            _ = try NPYArray(path: path, maximumBytes: maximumBytes)
            return nil
        } catch let error as NPYError {
            guard case let .cannotRead(_, reason) = error else { return "unexpected \(error)" }
            return reason
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test("a regular file is read whole; one byte over maximumBytes is refused before reading")
    func regularFile() throws {
        let directory = try TemporaryDirectory()
        let array = NPYArray(shape: [2, 3], floats: [1, 2, 3, 4, 5, 6])
        let path = directory.path("a.npy")
        try array.write(to: path)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(try NPYArray(path: path, maximumBytes: size) == array)
        #expect(Self.cannotRead(path, maximumBytes: size - 1) == "file has \(size) bytes, more than the limit of \(size - 1)")
    }

    @Test("a FIFO is refused at once, without a writer (it used to block in open/read)")
    func fifo() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("pipe.npy")
        #expect(mkfifo(path, 0o600) == 0)
        #expect(Self.cannotRead(path) == "not a regular file")
    }

    @Test("a link to /dev/zero, and a directory, are refused (the link used to be read until memory ran out)")
    func devices() throws {
        let directory = try TemporaryDirectory()
        let link = directory.path("zero.npy")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/zero")
        #expect(Self.cannotRead(link) == "not a regular file")
        let folder = directory.path("folder.npy")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        #expect(Self.cannotRead(folder) == "not a regular file")
        #expect(Self.cannotRead(directory.path("missing.npy")) == String(cString: strerror(ENOENT)))
    }
}
