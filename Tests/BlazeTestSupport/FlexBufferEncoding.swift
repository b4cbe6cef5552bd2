import Foundation

extension Flatc {
    /// The FlexBuffers encoding of a JSON object (`flatc --flexbuffers -b`): an encoder independent of the
    /// reader under test, for custom operator options.
    public static func flexBuffer(json object: [String: Any]) throws -> [UInt8] {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("options.json")
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: source)
        try run(["--flexbuffers", "-b", "-o", directory.path, source.path])
        return Array(try Data(contentsOf: directory.appendingPathComponent("options.bin")))
    }
}
