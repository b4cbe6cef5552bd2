import BlazeKernels
import BlazeRuntime
import BlazeTestSupport
import Foundation
import Testing

/// The selfie segmentation models' builtin operators through the interpreter (LOGISTIC, HARD_SWISH), on
/// one-operator models built at test time: results against values computed here, and load-time errors.
@Suite("LOGISTIC and HARD_SWISH models")
struct SegmentationOperatorModelTests {
    typealias T = OneOperatorModel.TensorSpec

    static func unaryModel(_ op: String, _ shape: [Int], output: [Int]? = nil) -> OneOperatorModel {
        OneOperatorModel(op: op, optionsType: op == "HARD_SWISH" ? "HardSwishOptions" : "NONE", options: [:],
                         tensors: [.floats("x", shape), .floats("y", output ?? shape)],
                         inputs: [0], outputs: [1])
    }

    static func loadError(_ model: OneOperatorModel) throws -> InterpreterError? {
        let data = try model.data()
        do {
            _ = try Interpreter(modelData: data)
            Issue.record("\(model.op) loaded")
            return nil
        } catch {
            return error
        }
    }

    static let optionSets: [Interpreter.Options] = [
        .init(), .init(kernelVariant: .reference), .init(threadCount: 2), .init(reuseRepeatedRows: false),
    ]

    @Test("LOGISTIC and HARD_SWISH compute TFLite's float formulas", arguments: ["LOGISTIC", "HARD_SWISH"])
    func unary(op: String) throws {
        let shape = [1, 12, 10, 8]
        var rng = SplitMix64(seed: 16)
        let x = rng.floats(960).map { $0 * 12 }
        for options in Self.optionSets {
            let interpreter = try Interpreter(modelData: try Self.unaryModel(op, shape).data(), options: options)
            #expect(interpreter.plan.map(\.operatorName) == [op])
            try interpreter.copy(x, toInputAt: 0)
            interpreter.invoke()
            let y = try interpreter.outputArray(at: 0)
            for (v, r) in zip(x, y) {
                if op == "HARD_SWISH" {
                    #expect(r == v * min(max(v + 3, 0), 6) / 6, "\(v) \(options.kernelVariant)")
                } else {
                    // TFLite's float reference: exp(x) below −9 (where it differs from the sigmoid by e^2x).
                    let expected = Float(v < -9 ? Foundation.exp(Double(v)) : 1 / (1 + Foundation.exp(-Double(v))))
                    #expect(abs(r - expected) <= 3 * expected.ulp, "\(v) \(options.kernelVariant)")
                }
            }
        }
    }

    @Test("bad LOGISTIC and HARD_SWISH operators are typed errors at load time")
    func badUnary() throws {
        #expect(try Self.loadError(Self.unaryModel("LOGISTIC", [2, 3], output: [3, 2]))
            == .shapeMismatch(index: 0, operator: "LOGISTIC", tensor: 1, name: "y", expected: [2, 3], actual: [3, 2]))
        var twoInputs = Self.unaryModel("LOGISTIC", [4])
        twoInputs.inputs = [0, 0]
        guard case .invalidOperator(0, "LOGISTIC", let reason)? = try Self.loadError(twoInputs) else {
            Issue.record("expected invalidOperator")
            return
        }
        #expect(reason.contains("2 inputs"))
    }
}

