import BlazeModels
import BlazeNPY
import BlazeRuntime
import Foundation

/// Locates the repository's test data and fetched models.
public enum TestResources {
    /// The repository root (two folders above this file).
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static let modelsDirectory = root.appendingPathComponent("Models")
    public static let goldensDirectory = root.appendingPathComponent("Tests/Goldens")
    public static let schemaDirectory = root.appendingPathComponent("Tests/Schema")

    public struct Missing: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// The path of a fetched model file in the repository's Models/, or an error telling how to fetch it.
    public static func modelPath(_ file: String) throws -> String {
        do { return try ModelLocator().locate(file: file, in: modelsDirectory.path) } catch {
            throw Missing(description: "\(file) is not in Models/: run Models/fetch.sh first")
        }
    }

    /// The path of a catalog model in the repository's Models/.
    public static func modelPath(_ name: ModelName) throws -> String {
        try modelPath(name.fileName)
    }

    /// The bytes of a fetched model file.
    public static func modelBytes(_ file: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: try modelPath(file))))
    }

    /// The catalog's distinct model files (aliases left out), in catalog order.
    public static let realModelFiles: [String] = ModelCatalog.entries.filter { $0.aliasOf == nil }.map(\.fileName)
}

/// The golden manifest written by Tests/Goldens/generate.py.
public struct GoldenManifest: Decodable, Sendable {
    public struct TensorSpec: Decodable, Sendable {
        public var name: String
        public var shape: [Int]
    }
    public struct Case: Decodable, Sendable {
        public var name: String
        public var input: String
        public var scale: Double
        public var offset: Double
        public var outputs: [String]
    }
    public struct ModelEntry: Decodable, Sendable {
        public var file: String
        public var inputs: [TensorSpec]
        public var outputs: [TensorSpec]
        public var cases: [Case]
    }
    public var models: [String: ModelEntry]

    public static func load() throws -> GoldenManifest {
        let data = try Data(contentsOf: TestResources.goldensDirectory.appendingPathComponent("manifest.json"))
        return try JSONDecoder().decode(GoldenManifest.self, from: data)
    }

    /// The manifest's model keys (`short_range` ...), in the model catalog's order. Empty if the manifest
    /// cannot be read (the BlazeModelsTests check that every catalog model has its key).
    public static let modelKeys: [String] = {
        guard let manifest = try? load() else { return [] }
        return ModelCatalog.entries.compactMap { entry in
            manifest.models.first { $0.value.file == entry.fileName }?.key
        }
    }()

    /// The manifest key of a catalog model's golden data (`short_range` for `.shortRange`).
    public static func key(for name: ModelName) throws -> String {
        let manifest = try load()
        guard let key = manifest.models.first(where: { $0.value.file == name.fileName })?.key else {
            throw TestResources.Missing(description: "Tests/Goldens/manifest.json has no model \(name.fileName)")
        }
        return key
    }
}

/// A golden case: the model input and LiteRT's outputs.
public struct GoldenCase: Sendable {
    public var model: String
    public var name: String
    public var modelFile: String
    public var input: [Float]
    public var inputShape: [Int]
    public var expected: [NPYArray]

    /// Reads a case's files. The input is `Float(stored) * Float(scale) + Float(offset)` in float32, as the
    /// generator computed it (a separate multiply and add).
    public init(model key: String, case c: GoldenManifest.Case, entry: GoldenManifest.ModelEntry) throws {
        let folder = TestResources.goldensDirectory.appendingPathComponent(key)
        let stored = try NPYArray(path: folder.appendingPathComponent(c.input).path)
        let scale = Float(c.scale), offset = Float(c.offset)
        var input = stored.floats()
        if stored.dtype == .uint8 {
            for i in input.indices {
                let scaled = input[i] * scale
                input[i] = scaled + offset
            }
        }
        self.model = key
        self.name = c.name
        self.modelFile = entry.file
        self.input = input
        self.inputShape = stored.shape
        self.expected = try c.outputs.map { try NPYArray(path: folder.appendingPathComponent($0).path) }
    }

    public static func all() throws -> [GoldenCase] {
        let manifest = try GoldenManifest.load()
        return try GoldenManifest.modelKeys.flatMap { key -> [GoldenCase] in
            guard let entry = manifest.models[key] else { return [] }
            return try entry.cases.map { try GoldenCase(model: key, case: $0, entry: entry) }
        }
    }
}

/// The worst `|ours − reference| / max(1, max|reference|)` over all elements; infinity if the counts
/// differ or a value is not finite where the reference is.
public func goldenError(_ ours: [Float], _ reference: [Float]) -> Double {
    guard ours.count == reference.count else { return .infinity }
    let scale = max(1, Double(reference.map { abs($0) }.max() ?? 0))
    var worst = 0.0
    for (a, b) in zip(ours, reference) {
        let difference = abs(Double(a) - Double(b))
        if difference.isNaN { return .infinity }
        worst = max(worst, difference / scale)
    }
    return worst
}
