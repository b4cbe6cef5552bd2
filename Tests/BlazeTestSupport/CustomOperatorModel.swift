import Foundation

/// A model of one CUSTOM operator (`custom_code`, version, FlexBuffers `custom_options`), built like
/// `OneOperatorModel` with flatc.
public struct CustomOperatorModel {
    public var name: String
    public var version: Int
    /// The custom options' bytes (nil: none).
    public var options: [UInt8]?
    public var tensors: [OneOperatorModel.TensorSpec]
    public var inputs: [Int]
    public var outputs: [Int]

    public init(name: String, version: Int, options: [UInt8]?, tensors: [OneOperatorModel.TensorSpec], inputs: [Int],
                outputs: [Int]) {
        (self.name, self.version, self.options) = (name, version, options)
        (self.tensors, self.inputs, self.outputs) = (tensors, inputs, outputs)
    }

    /// Options given as JSON, encoded by flatc as FlexBuffers.
    public init(name: String, version: Int = 2, json: [String: Any], tensors: [OneOperatorModel.TensorSpec],
                inputs: [Int], outputs: [Int]) throws {
        self.init(name: name, version: version, options: try Flatc.flexBuffer(json: json), tensors: tensors,
                  inputs: inputs, outputs: outputs)
    }

    /// The model's `.tflite` bytes.
    public func data() throws -> Data {
        let base = OneOperatorModel(op: "CUSTOM", optionsType: "NONE", options: [:], tensors: tensors, inputs: inputs,
                                    outputs: outputs)
        guard var model = try JSONSerialization.jsonObject(with: try base.json()) as? [String: Any],
              var subgraphs = model["subgraphs"] as? [[String: Any]],
              var operators = subgraphs[0]["operators"] as? [[String: Any]] else {
            throw Flatc.Failure(description: "unexpected OneOperatorModel JSON")
        }
        model["operator_codes"] = [["deprecated_builtin_code": 32, "custom_code": name, "version": version,
                                    "builtin_code": "CUSTOM"]]
        operators[0].removeValue(forKey: "builtin_options_type")
        operators[0].removeValue(forKey: "builtin_options")
        if let options { operators[0]["custom_options"] = options.map(Int.init) }
        subgraphs[0]["operators"] = operators
        model["subgraphs"] = subgraphs
        let directory = try Flatc.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("model.json")
        try JSONSerialization.data(withJSONObject: model, options: [.sortedKeys]).write(to: source)
        try Flatc.run(["-b", "-o", directory.path, Flatc.buildSchema, source.path])
        return try Data(contentsOf: directory.appendingPathComponent("model.tflite"))
    }
}
