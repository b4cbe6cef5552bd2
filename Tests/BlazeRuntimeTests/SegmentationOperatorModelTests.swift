import BlazeKernels
import BlazeRuntime
import BlazeTestSupport
import Foundation
import Testing

/// The selfie segmentation models' builtin operators through the interpreter (LOGISTIC, HARD_SWISH, MEAN), on
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
        ModelLoading.loadError(try model.data())
    }

    static let optionSets = ModelLoading.optionSets

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

/// MEAN through the interpreter on one-operator models.
@Suite("MEAN models")
struct MeanModelTests {
    typealias T = OneOperatorModel.TensorSpec

    static func meanModel(_ shape: [Int], axes: [Int], output: [Int], keepDims: Bool = true,
                          axesType: String = "INT32") -> OneOperatorModel {
        let axesTensor: T = axesType == "INT64" ? .constant("axes", int64: axes) : .constant("axes", int32: axes)
        return OneOperatorModel(op: "MEAN", optionsType: "ReducerOptions", options: ["keep_dims": keepDims],
                                tensors: [.floats("x", shape), axesTensor, .floats("mean", output)],
                                inputs: [0, 1], outputs: [2])
    }

    @Test("MEAN over axes, with and without keep_dims, negative and repeated axes",
          arguments: [([1, 6, 5, 8], [1, 2], [1, 1, 1, 8], true), ([1, 6, 5, 8], [-3, 2, 1], [1, 8], false),
                      ([2, 3, 4], [0], [3, 4], false), ([4, 6], [-1], [4, 1], true), ([1, 3, 3, 5], [3], [1, 3, 3, 1], true)])
    func mean(shape: [Int], axes: [Int], output: [Int], keepDims: Bool) throws {
        let s = try Shape4(dimensions: shape)
        let axes4 = Set(axes.map { ($0 < 0 ? $0 + shape.count : $0) + 4 - shape.count })
        var rng = SplitMix64(seed: UInt64(shape.reduce(0, +)))
        let x = rng.floats(s.count).map { $0 * 8 }
        // The sum of each output element's inputs in row-major order, over the padded 4-D shape.
        let dims = [s.n, s.h, s.w, s.c], out = (0..<4).map { axes4.contains($0) ? 1 : dims[$0] }
        var expected: [Float] = []
        for b in 0..<out[0] { for y in 0..<out[1] { for w in 0..<out[2] { for c in 0..<out[3] {
            var sum: Float = 0
            for i in 0..<dims[0] / out[0] { for j in 0..<dims[1] / out[1] { for k in 0..<dims[2] / out[2] {
                for l in 0..<dims[3] / out[3] { sum += x[(((b + i) * s.h + y + j) * s.w + w + k) * s.c + c + l] }
            } } }
            expected.append(sum / Float(s.count / out.reduce(1, *)))
        } } } }
        for options in SegmentationOperatorModelTests.optionSets {
            let model = Self.meanModel(shape, axes: axes, output: output, keepDims: keepDims)
            let interpreter = try Interpreter(modelData: try model.data(), options: options)
            #expect(interpreter.plan.map(\.operatorName) == ["MEAN"])
            try interpreter.copy(x, toInputAt: 0)
            interpreter.invoke()
            #expect(try interpreter.outputArray(at: 0) == expected, "\(shape) \(axes) \(options.kernelVariant)")
        }
    }

    @Test("bad MEAN operators are typed errors at load time")
    func badMean() throws {
        let load = SegmentationOperatorModelTests.loadError
        #expect(try load(Self.meanModel([1, 4, 4, 3], axes: [1, 2], output: [1, 3]))
            == .shapeMismatch(index: 0, operator: "MEAN", tensor: 2, name: "mean", expected: [1, 1, 1, 3], actual: [1, 3]))
        guard case .invalidOperator(0, "MEAN", let axis)? = try load(Self.meanModel([1, 4, 4, 3], axes: [4], output: [1, 4, 4, 3]))
        else {
            Issue.record("expected invalidOperator for an axis outside the rank")
            return
        }
        #expect(axis.contains("axis 4"))
        var floatAxes = Self.meanModel([1, 4, 4, 3], axes: [1, 2], output: [1, 1, 1, 3])
        floatAxes.tensors[1] = .constant("axes", [2], floats: [1, 2])
        guard case .unsupportedTensorType(0, "MEAN", 1, "axes", _)? = try load(floatAxes) else {
            Issue.record("expected unsupportedTensorType for float axes")
            return
        }
        // Rank 5 and 6 go to the general reduction; rank 7 is beyond every kernel.
        guard case .invalidOperator(0, "MEAN", _)? = try load(
            Self.meanModel([1, 2, 2, 2, 2, 2, 2], axes: [1], output: [1, 1, 2, 2, 2, 2, 2]))
        else {
            Issue.record("expected invalidOperator for rank 7")
            return
        }
    }
}
