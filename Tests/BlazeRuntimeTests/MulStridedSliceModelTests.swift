import BlazeKernels
import BlazeRuntime
import BlazeTestSupport
import CAllocationCounter
import Foundation
import Testing

/// MUL and STRIDED_SLICE through the interpreter, on one-operator models built at test time: results against
/// values computed here, and the load-time errors of bad operators.
@Suite("MUL and STRIDED_SLICE models")
struct MulStridedSliceModelTests {
    typealias T = OneOperatorModel.TensorSpec

    static func mulModel(_ a: [Int], _ b: [Int], _ out: [Int], activation: String = "NONE",
                         constantB: [Float]? = nil) -> OneOperatorModel {
        OneOperatorModel(op: "MUL", optionsType: "MulOptions", options: ["fused_activation_function": activation],
                         tensors: [.floats("a", a), constantB.map { .constant("b", b, floats: $0) } ?? .floats("b", b),
                                   .floats("product", out)],
                         inputs: [0, 1], outputs: [2])
    }

    static func sliceModel(_ input: [Int], begin: [Int], end: [Int], strides: [Int], output: [Int],
                           options: [String: Any] = [:]) -> OneOperatorModel {
        OneOperatorModel(op: "STRIDED_SLICE", optionsType: "StridedSliceOptions", options: options,
                         tensors: [.floats("x", input), .constant("begin", int32: begin), .constant("end", int32: end),
                                   .constant("strides", int32: strides), .floats("slice", output)],
                         inputs: [0, 1, 2, 3], outputs: [4])
    }

    static func load(_ model: OneOperatorModel, _ options: Interpreter.Options = .init()) throws -> Interpreter {
        try Interpreter(modelData: try model.data(), options: options)
    }

    static func loadError(_ model: OneOperatorModel) throws -> InterpreterError? {
        ModelLoading.loadError(try model.data())
    }

    static let optionSets = ModelLoading.optionSets

    // MARK: MUL

    @Test("MUL broadcasts like NumPy, either operand first, with its activation",
          arguments: [([1, 6, 5, 8], [1, 1, 1, 8], "NONE"), ([1, 1, 1, 8], [1, 6, 5, 8], "RELU6"),
                      ([1, 6, 5, 3], [3], "NONE"), ([3], [1, 6, 5, 3], "RELU6"),
                      ([1, 468, 3], [1], "NONE"), ([1, 4, 4], [1, 4, 4], "RELU"), ([2, 3, 1], [1, 4], "RELU_N1_TO_1")])
    func mul(a: [Int], b: [Int], activation: String) throws {
        let sa = try Shape4(dimensions: a), sb = try Shape4(dimensions: b)
        let rank = max(a.count, b.count)
        let out = Array(Shape4(n: max(sa.n, sb.n), h: max(sa.h, sb.h), w: max(sa.w, sb.w), c: max(sa.c, sb.c))
            .dimensions.suffix(rank))
        var rng = SplitMix64(seed: UInt64(a.reduce(0, +) * 31 + b.reduce(0, +)))
        let x = rng.floats(sa.count).map { $0 * 4 }, y = rng.floats(sb.count).map { $0 * 4 }
        let (lo, hi): (Float, Float) = ["RELU": (0, .infinity), "RELU6": (0, 6), "RELU_N1_TO_1": (-1, 1)][activation]
            ?? (-.infinity, .infinity)
        // NumPy broadcasting, spelled out over the 4-D output.
        let o = try Shape4(dimensions: out)
        var expected: [Float] = []
        for n in 0..<o.n { for h in 0..<o.h { for w in 0..<o.w { for c in 0..<o.c {
            func at(_ v: [Float], _ s: Shape4) -> Float {
                v[(((s.n == 1 ? 0 : n) * s.h + (s.h == 1 ? 0 : h)) * s.w + (s.w == 1 ? 0 : w)) * s.c + (s.c == 1 ? 0 : c)]
            }
            expected.append(min(max(at(x, sa) * at(y, sb), lo), hi))
        } } } }
        for options in Self.optionSets {
            let interpreter = try Self.load(Self.mulModel(a, b, out, activation: activation), options)
            #expect(interpreter.plan.map(\.operatorName) == ["MUL"])
            try interpreter.copy(x, toInputAt: 0)
            try interpreter.copy(y, toInputAt: 1)
            interpreter.invoke()
            #expect(try interpreter.outputArray(at: 0) == expected, "\(a) · \(b) \(activation) \(options.kernelVariant)")
        }
    }

    @Test("ADD and MUL of a picture and a vector of 3 or 5 channels (the channel-pattern loop) allocate nothing in invoke()",
          .enabled(if: blaze_allocation_counting_available() == 1), arguments: ["ADD", "MUL"], [3, 5])
    func channelVectorDoesNotAllocate(op: String, channels: Int) throws {
        let model = OneOperatorModel(
            op: op, optionsType: op == "ADD" ? "AddOptions" : "MulOptions", options: ["fused_activation_function": "NONE"],
            tensors: [.floats("a", [1, 16, 16, channels]), .constant("b", [channels], floats: (0..<channels).map { Float($0) - 1.5 }),
                      .floats("out", [1, 16, 16, channels])],
            inputs: [0, 1], outputs: [2])
        let interpreter = try Self.load(model)
        let x = (0..<(256 * channels)).map { Float($0 % 13) * 0.25 }
        try interpreter.copy(x, toInputAt: 0)
        interpreter.invoke()
        blaze_allocation_counting_begin()
        interpreter.invoke()
        let count = blaze_allocation_counting_end()
        #expect(count == 0, "\(op) with \(channels) channels: \(count) allocations in invoke()")
        let v = (0..<channels).map { Float($0) - 1.5 }
        let expected = x.enumerated().map { i, a in op == "ADD" ? a + v[i % channels] : a * v[i % channels] }
        #expect(try interpreter.outputArray(at: 0) == expected)
    }

    @Test("MUL by a constant, and repeated rows through a channel scale")
    func mulConstantAndRepeatedRows() throws {
        let scale: [Float] = [0.5, -1, 2, 0, 3, -0.25, 1, 4]
        let model = Self.mulModel([1, 8, 4, 8], [1, 1, 1, 8], [1, 8, 4, 8], constantB: scale)
        // Rows 0-2 and 6-7 identical (a letterbox).
        var input: [Float] = []
        for row in 0..<8 {
            let seed = row <= 2 ? 0 : row >= 6 ? 6 : row
            var rng = SplitMix64(seed: UInt64(seed))
            input += rng.floats(32)
        }
        let expected = input.enumerated().map { $0.element * scale[$0.offset % 8] }
        let reusing = try Self.load(model)
        try reusing.copy(input, toInputAt: 0)
        reusing.invoke()
        #expect(try reusing.outputArray(at: 0) == expected)
        #expect(reusing.repeatedRowsInLastInvoke == 3)
        let computing = try Self.load(model, .init(reuseRepeatedRows: false))
        try computing.copy(input, toInputAt: 0)
        computing.invoke()
        #expect(try computing.outputArray(at: 0) == expected)
        #expect(computing.repeatedRowsInLastInvoke == 0)
    }

    @Test("bad MUL operators are typed errors at load time")
    func badMul() throws {
        var threeInputs = Self.mulModel([1, 2], [1, 2], [1, 2])
        threeInputs.inputs = [0, 1, 1]
        guard case .invalidOperator(0, "MUL", let reason)? = try Self.loadError(threeInputs) else {
            Issue.record("expected invalidOperator")
            return
        }
        #expect(reason.contains("3 inputs"))
        #expect(try Self.loadError(Self.mulModel([2, 3], [3], [3, 3]))
            == .shapeMismatch(index: 0, operator: "MUL", tensor: 2, name: "product", expected: [2, 3], actual: [3, 3]))
        #expect(try Self.loadError(Self.mulModel([2, 3], [2, 3], [2, 3], activation: "TANH"))
            == .unsupportedOption(index: 0, operator: "MUL", option: "fused activation TANH"))
        guard case .invalidOperator(0, "MUL", let broadcast)? = try Self.loadError(Self.mulModel([2, 3], [2], [2, 3])) else {
            Issue.record("expected invalidOperator for shapes that do not broadcast")
            return
        }
        #expect(broadcast.contains("broadcast"))
        // Ranks 5 and 6 broadcast through the general kernel; rank 7 is beyond every kernel.
        guard case .invalidOperator(0, "MUL", _)? = try Self.loadError(
            Self.mulModel([1, 2, 3, 4, 5, 1, 1], [1], [1, 2, 3, 4, 5, 1, 1]))
        else {
            Issue.record("expected invalidOperator for rank 7")
            return
        }
    }

    // MARK: STRIDED_SLICE

    @Test("STRIDED_SLICE takes what NumPy's slicing takes")
    func stridedSlice() throws {
        let x = (0..<24).map(Float.init)  // [2, 3, 4]: x[n][h][w] = 12n + 4h + w
        func value(_ n: Int, _ h: Int, _ w: Int) -> Float { Float(12 * n + 4 * h + w) }
        // x[:, ::-1, 1:4:2]
        let reversed = Self.sliceModel([2, 3, 4], begin: [0, 0, 1], end: [0, 0, 4], strides: [1, -1, 2],
                                       output: [2, 3, 2], options: ["begin_mask": 3, "end_mask": 3])
        let expectedReversed = [0, 1].flatMap { n in [2, 1, 0].flatMap { h in [1, 3].map { w in value(n, h, w) } } }
        // x[-1, ..., None, 2]: shrink, ellipsis, new axis.
        let mixed = Self.sliceModel([2, 3, 4], begin: [-1, 0, 0, 2], end: [0, 0, 0, 3], strides: [1, 1, 1, 1],
                                    output: [3, 1], options: ["shrink_axis_mask": 9, "ellipsis_mask": 2, "new_axis_mask": 4])
        let expectedMixed = [0, 1, 2].map { h in value(1, h, 2) }
        // x[0:0+1, 1:1+2, 0:0+4] with offset.
        let offset = Self.sliceModel([2, 3, 4], begin: [0, 1, 0], end: [1, 2, 4], strides: [1, 1, 1],
                                     output: [1, 2, 4], options: ["offset": true])
        let expectedOffset = [1, 2].flatMap { h in (0..<4).map { w in value(0, h, w) } }
        for options in Self.optionSets {
            for (model, expected) in [(reversed, expectedReversed), (mixed, expectedMixed), (offset, expectedOffset)] {
                let interpreter = try Self.load(model, options)
                #expect(interpreter.plan.map(\.operatorName) == ["STRIDED_SLICE"])
                try interpreter.copy(x, toInputAt: 0)
                interpreter.invoke()
                #expect(try interpreter.outputArray(at: 0) == expected, "\(model.options)")
            }
        }
    }

    @Test("the attention mesh's whole-tensor STRIDED_SLICE is one copy")
    func identitySlice() throws {
        let model = Self.sliceModel([1, 1, 1, 1404], begin: [0, 0, 0, 0], end: [1, 1, 1, 1404], strides: [1, 1, 1, 1],
                                    output: [1, 1, 1, 1404])
        let interpreter = try Self.load(model)
        let x = (0..<1404).map { Float($0) * 0.5 }
        try interpreter.copy(x, toInputAt: 0)
        interpreter.invoke()
        #expect(try interpreter.outputArray(at: 0) == x)
        #expect(interpreter.plan.first?.kernel == "StridedSlice.simd")
    }

    @Test("bad STRIDED_SLICE operators are typed errors at load time")
    func badStridedSlice() throws {
        let good = Self.sliceModel([2, 3], begin: [0, 0], end: [2, 3], strides: [1, 1], output: [2, 3])
        var threeInputs = good
        threeInputs.inputs = [0, 1, 2]
        guard case .invalidOperator(0, "STRIDED_SLICE", let counts)? = try Self.loadError(threeInputs) else {
            Issue.record("expected invalidOperator for 3 inputs")
            return
        }
        #expect(counts.contains("3 inputs"))
        // A begin that is not a constant (a float graph input here).
        var dynamic = good
        dynamic.tensors[1] = .floats("begin", [2])
        guard case .unsupportedOption(0, "STRIDED_SLICE", let option)? = try Self.loadError(dynamic) else {
            Issue.record("expected unsupportedOption for a non-constant begin")
            return
        }
        #expect(option.contains("non-constant begin"))
        var int64 = good
        int64.tensors[3] = .constant("strides", int64: [1, 1])
        #expect(try Self.loadError(int64)
            == .unsupportedTensorType(index: 0, operator: "STRIDED_SLICE", tensor: 3, name: "strides", type: "INT64"))
        var matrix = good
        matrix.tensors[2] = .constant("end", int32: [2, 3], shape: [1, 2])
        guard case .invalidOperator(0, "STRIDED_SLICE", let rank)? = try Self.loadError(matrix) else {
            Issue.record("expected invalidOperator for a rank 2 end")
            return
        }
        #expect(rank.contains("end"))
        guard case .invalidOperator(0, "STRIDED_SLICE", let zero)? =
            try Self.loadError(Self.sliceModel([2, 3], begin: [0, 0], end: [2, 3], strides: [1, 0], output: [2, 3]))
        else {
            Issue.record("expected invalidOperator for a zero stride")
            return
        }
        #expect(zero.contains("stride 0"))
        #expect(try Self.loadError(Self.sliceModel([2, 3], begin: [0, 0], end: [2, 3], strides: [1, 1], output: [2, 2]))
            == .shapeMismatch(index: 0, operator: "STRIDED_SLICE", tensor: 4, name: "slice", expected: [2, 3], actual: [2, 2]))
        for (options, named) in [(["ellipsis_mask": 3], "ellipsis_mask"), (["new_axis_mask": 4], "new_axis_mask"),
                                 (["offset": true], "offset")] as [([String: Any], String)] {
            let begin = named == "offset" ? [0] : [0, 0]
            let model = Self.sliceModel([2, 3], begin: begin, end: begin.map { _ in 1 }, strides: begin.map { _ in 1 },
                                        output: [1, 3], options: options)
            guard case .unsupportedOption(0, "STRIDED_SLICE", let option)? = try Self.loadError(model) else {
                Issue.record("expected unsupportedOption naming \(named)")
                continue
            }
            #expect(option.contains(named), "\(option)")
        }
        // An empty slice (the runtime has no empty tensors) and an out-of-range shrink index.
        guard case .invalidOperator? = try Self.loadError(
            Self.sliceModel([2, 3], begin: [1, 0], end: [1, 3], strides: [1, 1], output: [0, 3])) else {
            Issue.record("expected invalidOperator for an empty slice")
            return
        }
        guard case .invalidOperator? = try Self.loadError(
            Self.sliceModel([2, 3], begin: [5, 0], end: [6, 3], strides: [1, 1], output: [3],
                            options: ["shrink_axis_mask": 1])) else {
            Issue.record("expected invalidOperator for a shrink index out of range")
            return
        }
    }
}
