import BlazeRuntime
import BlazeTFLite
import BlazeTestSupport
import Foundation
import Testing

/// The load-time limits of `Interpreter.Options` that bound memory and time by the caller's numbers, not the
/// file's: the constants derived from the file (`maximumConstantBytes`) and the operator count
/// (`maximumOperatorCount`). The arena and multiply-accumulate limits have their tests in TestModelTests.
@Suite("Resource limits")
struct ResourceLimitTests {
    /// `input [1, n] + dequantize(w)`, where `w` is one float16 constant of `n` elements that `dequantizes`
    /// DEQUANTIZE operators all read (each folds to a float32 copy of its own): a small file whose constants
    /// grow with the operator count, as a hostile file's could with thousands.
    static func fanOutModel(dequantizes: Int, elements n: Int) throws -> Data {
        // Float16 bits of 0, 0.5, 1, ..., 3 (Float16 itself is missing on macOS x86-64).
        let halves = [0x0000, 0x3800, 0x3C00, 0x3E00, 0x4000, 0x4100, 0x4200]
        let half: [Int] = (0..<n).flatMap { i in [halves[i % 7] & 0xFF, halves[i % 7] >> 8] }
        var tensors: [[String: Any]] = [
            ["name": "input", "shape": [1, n], "type": "FLOAT32", "buffer": 0],
            ["name": "w", "shape": [1, n], "type": "FLOAT16", "buffer": 1],
            ["name": "output", "shape": [1, n], "type": "FLOAT32", "buffer": 0],
        ]
        var operators: [[String: Any]] = []
        for k in 0..<dequantizes {
            tensors.append(["name": "w\(k)", "shape": [1, n], "type": "FLOAT32", "buffer": 0])
            operators.append(["opcode_index": 1, "inputs": [1], "outputs": [tensors.count - 1]])
        }
        operators.append(["opcode_index": 0, "inputs": [0, 3], "outputs": [2],
                          "builtin_options_type": "AddOptions", "builtin_options": [String: Any]()])
        let model: [String: Any] = [
            "version": 3,
            "operator_codes": [["deprecated_builtin_code": 0, "version": 1, "builtin_code": "ADD"],
                               ["deprecated_builtin_code": 6, "version": 1, "builtin_code": "DEQUANTIZE"]],
            "subgraphs": [["tensors": tensors, "inputs": [0], "outputs": [2], "name": "main", "operators": operators]],
            "description": "swift-blazeface test: \(dequantizes) DEQUANTIZE of one constant",
            "buffers": [[String: Any](), ["data": half]],
        ]
        return try Flatc.model(fromJSON: try JSONSerialization.data(withJSONObject: model, options: [.sortedKeys]))
    }

    @Test("many operators folding one constant: refused past maximumConstantBytes, before the memory is taken")
    func constantFanOut() throws {
        let data = try Self.fanOutModel(dequantizes: 64, elements: 4096)
        // Each DEQUANTIZE copies the 8 KiB float16 buffer and makes 16 KiB of float32: 1.5 MiB in all from a
        // file of about 12 KiB.
        #expect(data.count < 20_000)
        let limit = 256 << 10
        #expect(throws: InterpreterError.self) { try Interpreter(modelData: data, options: .init(maximumConstantBytes: limit)) }
        do {
            _ = try Interpreter(modelData: data, options: .init(maximumConstantBytes: limit))
        } catch {
            guard case let .constantsTooLarge(bytes, reportedLimit) = error else {
                Issue.record("expected constantsTooLarge, got \(error)")
                return
            }
            #expect(reportedLimit == limit)
            #expect(bytes > limit && bytes <= limit + 16 << 10, "the first charge past the limit: \(bytes)")
            #expect(error.description.contains("\(limit)"))
        }
        // With the default limit it loads and adds the folded constant.
        let interpreter = try Interpreter(modelData: data)
        try interpreter.copy([Float](repeating: 1, count: 4096), toInputAt: 0)
        interpreter.invoke()
        let output = try interpreter.outputArray(at: 0)
        #expect(output[0..<8] == [1, 1.5, 2, 2.5, 3, 3.5, 4, 1])
    }

    @Test("the face models load within the default constant budget, and not within a tenth of their weights")
    func realModelsWithinBudget() throws {
        let path = try TestResources.modelPath("face_landmark_with_attention.tflite")
        let model = try Model(path: path)
        _ = try Interpreter(model: model)
        #expect(throws: InterpreterError.self) {
            try Interpreter(model: model, options: .init(maximumConstantBytes: model.fileSize / 10))
        }
    }

    @Test("more operators than maximumOperatorCount: refused before anything is built")
    func operatorCount() throws {
        let data = try Self.fanOutModel(dequantizes: 9, elements: 8)
        let error = #expect(throws: InterpreterError.self) {
            try Interpreter(modelData: data, options: .init(maximumOperatorCount: 9))
        }
        #expect(error == .tooManyOperators(count: 10, limit: 9))
        _ = try Interpreter(modelData: data, options: .init(maximumOperatorCount: 10))
    }
}
