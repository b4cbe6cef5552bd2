import Foundation

/// Runs the FlatBuffers compiler (`flatc`) for tests: builds the JSON test models of Tests/Schema/models
/// into binaries, and dumps real models to JSON.
///
/// The `.tflite` test binaries are not committed, so tests build them at run time into a fresh temporary
/// directory. `flatc` is looked up on `PATH`, then in /usr/bin and /usr/local/bin.
public enum Flatc {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The path of the `flatc` executable, or an error telling how to install it.
    public static func executable() throws -> String {
        var candidates: [String] = []
        if let path = ProcessInfo.processInfo.environment["PATH"] {
            candidates += path.split(separator: ":").map { String($0) + "/flatc" }
        }
        candidates += ["/usr/bin/flatc", "/usr/local/bin/flatc", "/opt/homebrew/bin/flatc"]
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        throw Failure(description: "flatc not found: apt-get install flatbuffers-compiler")
    }

    /// Runs `flatc` with `arguments`; throws with its standard error if it fails.
    public static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executable())
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw Failure(description: "cannot run flatc: \(error)")
        }
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "flatc \(arguments.joined(separator: " ")) failed with status "
                + "\(process.terminationStatus): \(String(decoding: message, as: UTF8.self))")
        }
    }

    /// A new, empty temporary directory. Remove it with `FileManager.default.removeItem(at:)`.
    public static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("blazeface-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The schema used to build binaries (keeps `Buffer.data`).
    public static var buildSchema: String { TestResources.schemaDirectory.appendingPathComponent("tflite_subset.fbs").path }
    /// The schema used to dump binaries (reads `Buffer.data` as a plain offset).
    public static var dumpSchema: String { TestResources.schemaDirectory.appendingPathComponent("tflite_dump.fbs").path }

    /// Names of the JSON test models in Tests/Schema/models, without extension.
    public static let testModels = [
        "conv_relu6", "add_broadcast", "fp16_dequantize_conv", "unsupported_op", "unsupported_custom_op",
        "bad_shape", "bad_buffer_index", "cycle", "sparse_bomb",
    ]

    /// Builds Tests/Schema/models/`name`.json into `directory` and returns the path of the `.tflite` file.
    public static func buildTestModel(_ name: String, into directory: URL) throws -> String {
        let json = TestResources.schemaDirectory.appendingPathComponent("models/\(name).json").path
        try run(["-b", "-o", directory.path, buildSchema, json])
        let output = directory.appendingPathComponent("\(name).tflite").path
        guard FileManager.default.fileExists(atPath: output) else {
            throw Failure(description: "flatc did not write \(output)")
        }
        return output
    }

    /// The `.tflite` bytes of a model written as the JSON of Tests/Schema/tflite_subset.fbs.
    public static func model(fromJSON json: Data) throws -> Data {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("model.json")
        try json.write(to: source)
        try run(["-b", "-o", directory.path, buildSchema, source.path])
        return try Data(contentsOf: directory.appendingPathComponent("model.tflite"))
    }

    /// Builds a test model in a temporary directory and returns its bytes.
    public static func testModelData(_ name: String) throws -> Data {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        return try Data(contentsOf: URL(fileURLWithPath: try buildTestModel(name, into: directory)))
    }

    /// Dumps the binary model at `path` to JSON (strict JSON, scalar defaults printed, weights left out)
    /// and returns the parsed object.
    public static func dump(modelAt path: String) throws -> [String: Any] {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try run(["--json", "--strict-json", "--raw-binary", "--defaults-json", "-o", directory.path, dumpSchema,
                 "--", path])
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent + ".json"
        let data = try Data(contentsOf: directory.appendingPathComponent(name))
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Failure(description: "flatc's dump of \(path) is not a JSON object")
        }
        return object
    }

    /// The test models' expected.json.
    public static func expected() throws -> [String: Any] {
        let url = TestResources.schemaDirectory.appendingPathComponent("models/expected.json")
        guard let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] else {
            throw Failure(description: "expected.json is not a JSON object")
        }
        return object
    }
}
