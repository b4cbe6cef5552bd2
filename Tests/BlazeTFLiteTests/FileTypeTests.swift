import BlazeTFLite
import Foundation
import Testing

/// `Model(path:)` on paths that are not model files: it must refuse them at once, never block or read forever.
@Suite("Model files that are not files")
struct FileTypeTests {
    static func openError(_ path: String) -> TFLiteError? {
        do {
            _ = try Model(path: path)
            return nil
        } catch {
            return error
        }
    }

    @Test("a FIFO, a device behind a link and a directory are refused without blocking")
    func notRegularFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("blaze-model-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("model.tflite").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(Self.openError(fifo) == .cannotOpen(path: fifo, reason: "not a regular file"))
        let zero = folder.appendingPathComponent("zero.tflite").path
        try FileManager.default.createSymbolicLink(atPath: zero, withDestinationPath: "/dev/zero")
        #expect(Self.openError(zero) == .cannotOpen(path: zero, reason: "not a regular file"))
        #expect(Self.openError(folder.path) == .cannotOpen(path: folder.path, reason: "not a regular file"))
        let missing = folder.appendingPathComponent("missing.tflite").path
        #expect(Self.openError(missing) == .cannotOpen(path: missing, reason: "No such file or directory"))
    }
}
