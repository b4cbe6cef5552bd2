import Foundation

/// A model of one builtin operator, written as the JSON of Tests/Schema/tflite_subset.fbs and built with
/// `flatc`, for tests of an operator's lowering and results without a committed file.
public struct OneOperatorModel {
    public struct TensorSpec {
        public var name: String
        public var shape: [Int]
        public var type = "FLOAT32"
        /// Little-endian bytes of a constant, or nil for an activation.
        public var bytes: [UInt8]? = nil

        public init(name: String, shape: [Int], type: String = "FLOAT32", bytes: [UInt8]? = nil) {
            (self.name, self.shape, self.type, self.bytes) = (name, shape, type, bytes)
        }

        public static func floats(_ name: String, _ shape: [Int]) -> TensorSpec { TensorSpec(name: name, shape: shape) }

        public static func constant(_ name: String, _ shape: [Int], floats values: [Float]) -> TensorSpec {
            TensorSpec(name: name, shape: shape, bytes: values.flatMap { withUnsafeBytes(of: $0.bitPattern.littleEndian, Array.init) })
        }

        public static func constant(_ name: String, int32 values: [Int], shape: [Int]? = nil) -> TensorSpec {
            TensorSpec(name: name, shape: shape ?? [values.count], type: "INT32",
                       bytes: values.flatMap { withUnsafeBytes(of: Int32($0).littleEndian, Array.init) })
        }

        public static func constant(_ name: String, int64 values: [Int]) -> TensorSpec {
            TensorSpec(name: name, shape: [values.count], type: "INT64",
                       bytes: values.flatMap { withUnsafeBytes(of: Int64($0).littleEndian, Array.init) })
        }
    }

    /// The operator's name in the schema (`"MUL"`), its options table's name and fields (`"MulOptions"`,
    /// `["fused_activation_function": "RELU6"]`); `"NONE"` for an operator without options.
    public var op: String
    public var optionsType: String
    public var options: [String: Any]
    /// Tensors; those without bytes and not written by the operator are the graph's inputs.
    public var tensors: [TensorSpec]
    /// Tensor indices the operator reads (-1: omitted) and writes; the outputs are the graph's outputs.
    public var inputs: [Int]
    public var outputs: [Int]

    public init(op: String, optionsType: String, options: [String: Any], tensors: [TensorSpec], inputs: [Int],
                outputs: [Int]) {
        (self.op, self.optionsType, self.options) = (op, optionsType, options)
        (self.tensors, self.inputs, self.outputs) = (tensors, inputs, outputs)
    }

    /// The model's JSON text.
    public func json() throws -> Data {
        var buffers: [[String: Any]] = [[:]]
        var tensorObjects: [[String: Any]] = []
        for t in tensors {
            var object: [String: Any] = ["name": t.name, "shape": t.shape, "type": t.type, "buffer": 0]
            if let bytes = t.bytes {
                object["buffer"] = buffers.count
                buffers.append(["data": bytes.map(Int.init)])
            }
            tensorObjects.append(object)
        }
        var operatorObject: [String: Any] = ["opcode_index": 0, "inputs": inputs, "outputs": outputs]
        if optionsType != "NONE" {
            operatorObject["builtin_options_type"] = optionsType
            operatorObject["builtin_options"] = options
        }
        let graphInputs = tensors.indices.filter { tensors[$0].bytes == nil && !outputs.contains($0) }
        let model: [String: Any] = [
            "version": 3,
            "operator_codes": [["deprecated_builtin_code": 0, "version": 1, "builtin_code": op]],
            "subgraphs": [[
                "tensors": tensorObjects, "inputs": graphInputs, "outputs": outputs, "name": "main",
                "operators": [operatorObject],
            ]],
            "description": "swift-blazeface test: one \(op)",
            "buffers": buffers,
        ]
        return try JSONSerialization.data(withJSONObject: model, options: [.sortedKeys])
    }

    /// The model's `.tflite` bytes, built with flatc.
    public func data() throws -> Data { try Flatc.model(fromJSON: json()) }
}
