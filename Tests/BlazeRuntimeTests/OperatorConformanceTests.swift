import BlazeKernels
@testable import BlazeRuntime
import BlazeTestSupport
import CAllocationCounter
import Foundation
import Testing

/// The single-operator models of Tests/Conformance/Operators (JSON, built with flatc here) against the outputs
/// of LiteRT's reference kernels recorded by `make_operator_models.py`: every variant and thread count.
@Suite("Operator conformance with LiteRT")
struct OperatorConformanceTests {
    struct Case: Decodable, Sendable {
        var inputs: [[Float]]
        var outputs: [[Float]]
        var output_shapes: [[Int]]
        var tolerance: Float
        var operators: [String]
        var dequantized_float_outputs: [[Float]]?
    }

    static let directory = TestResources.root.appendingPathComponent("Tests/Conformance/Operators")

    static let cases: [String: Case] = {
        // Every key but the file's "_about" note is a case.
        guard let data = try? Data(contentsOf: directory.appendingPathComponent("expected.json")),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let cases = try? JSONSerialization.data(withJSONObject: object.filter { !$0.key.hasPrefix("_") }),
              let decoded = try? JSONDecoder().decode([String: Case].self, from: cases) else { return [:] }
        return decoded
    }()

    static let names = cases.keys.sorted()

    static func interpreter(_ name: String, _ options: Interpreter.Options) throws -> Interpreter {
        let json = try Data(contentsOf: directory.appendingPathComponent("models/\(name).json"))
        return try Interpreter(modelData: try Flatc.model(fromJSON: json), options: options)
    }

    @Test("the expected outputs are there")
    func casesLoad() {
        #expect(Self.cases.count >= 90)
    }

    @Test("outputs equal LiteRT's", arguments: names)
    func matchesLiteRT(name: String) throws {
        let c = try #require(Self.cases[name])
        let settings: [Interpreter.Options] = [
            .init(), .init(kernelVariant: .reference), .init(threadCount: 2), .init(kernelVariant: .blas),
        ]
        for options in settings {
            let interpreter = try Self.interpreter(name, options)
            try #require(interpreter.inputs.count == c.inputs.count)
            for (k, values) in c.inputs.enumerated() { try interpreter.copy(values, toInputAt: k) }
            interpreter.invoke()
            try #require(interpreter.outputs.count == c.outputs.count)
            for (k, expected) in c.outputs.enumerated() {
                #expect(interpreter.outputs[k].shape == c.output_shapes[k], "\(name) output \(k) shape")
                let actual = try interpreter.outputArray(at: k)
                try #require(actual.count == expected.count)
                let worst = zip(actual, expected).map { abs($0 - $1) }.max() ?? 0
                #expect(worst <= c.tolerance, "\(name) output \(k) (\(options.kernelVariant), \(options.threadCount) threads): off by \(worst)")
                if let float = c.dequantized_float_outputs?[k] {
                    // Int8 weights are dequantized at load: our float product is the float one.
                    let scale = float.map(abs).max() ?? 1
                    let error = zip(actual, float).map { abs($0 - $1) }.max() ?? 0
                    #expect(error <= 1e-5 * max(scale, 1), "\(name): \(error) from the float product")
                }
            }
        }
    }

    @Test("invoke() performs no heap allocation", .enabled(if: blaze_allocation_counting_available() == 1),
          arguments: names)
    func invokeDoesNotAllocate(name: String) throws {
        let c = try #require(Self.cases[name])
        let interpreter = try Self.interpreter(name, .init())
        for (k, values) in c.inputs.enumerated() { try interpreter.copy(values, toInputAt: k) }
        interpreter.invoke()
        blaze_allocation_counting_begin()
        interpreter.invoke()
        let count = blaze_allocation_counting_end()
        #expect(count == 0, "\(name): \(count) allocations in invoke()")
    }

    @Test("SiLU (LOGISTIC, then MUL by its input) runs as one step, or in the convolution before it, with the same bits",
          arguments: [("silu_logistic_mul", [1, 2, 1]), ("conv1x1_silu", [1, 3, 1]), ("conv3x3_silu", [1, 3, 1])])
    func siluFusion(name: String, expectedSteps: [Int]) throws {
        let c = try #require(Self.cases[name])
        var separate = Interpreter.Options()
        separate.fusions.remove(.silu)
        var outputs: [[UInt32]] = []
        var steps: [Int] = []
        for options in [Interpreter.Options(), separate, Interpreter.Options(threadCount: 2)] {
            let interpreter = try Self.interpreter(name, options)
            try interpreter.copy(c.inputs[0], toInputAt: 0)
            interpreter.invoke()
            outputs.append(try interpreter.outputArray(at: 0).map(\.bitPattern))
            steps.append(interpreter.plan.count)
        }
        #expect(steps == expectedSteps)
        #expect(outputs[0] == outputs[1] && outputs[0] == outputs[2])
    }
}
