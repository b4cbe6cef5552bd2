import BlazeKernels
import BlazeRuntime
import BlazeTestSupport
import CAllocationCounter
import Foundation
import Testing

/// MediaPipe's custom `Convolution2DTransposeBias` through the interpreter, and the two selfie segmentation
/// models that end with it.
@Suite("Convolution2DTransposeBias and the selfie segmentation models")
struct SegmentationModelTests {
    /// A one-operator model of CUSTOM `code` (a transposed convolution's tensors) with `options` as its
    /// custom options bytes: OneOperatorModel's JSON with the custom code and options added.
    static func customModel(code: String, options: [UInt8], input: [Int] = [1, 3, 4, 2], output: [Int] = [1, 5, 8, 3],
                            weights: [Float] = (0..<24).map { Float($0) / 8 - 1 }) throws -> Data {
        try CustomOperatorModel(
            name: code, version: 1, options: options,
            tensors: [.floats("x", input), .constant("w", [3, 2, 2, 2], floats: weights),
                      .constant("b", [3], floats: [0.5, -1, 2]), .floats("y", output)],
            inputs: [0, 1, 2], outputs: [3]).data()
    }

    /// TfLiteTransposeConvParams' bytes: padding (1 SAME, 2 VALID), stride_width, stride_height.
    static func params(_ padding: Int32, _ strideW: Int32, _ strideH: Int32) -> [UInt8] {
        [padding, strideW, strideH].flatMap { withUnsafeBytes(of: $0.littleEndian, Array.init) }
    }

    static func loadError(_ data: Data) -> InterpreterError? { ModelLoading.loadError(data) }

    @Test("Convolution2DTransposeBias runs the kernel's reference result under every option set")
    func transposeConvBias() throws {
        let data = try Self.customModel(code: "Convolution2DTransposeBias", options: Self.params(1, 2, 2))
        let weights: [Float] = (0..<24).map { Float($0) / 8 - 1 }
        var rng = SplitMix64(seed: 44)
        let x = rng.floats(24)
        let kernel = try TransposeConvBias(inputShape: Shape4(h: 3, w: 4, c: 2), filterShape: Shape4(n: 3, h: 2, w: 2, c: 2),
                                           filter: weights, bias: [0.5, -1, 2], strideH: 2, strideW: 2, padding: .same,
                                           variant: .reference)
        let expected = x.withUnsafeBufferPointer { p in
            [Float](unsafeUninitializedCapacity: 120) { buffer, count in
                kernel.run(input: p.baseAddress!, output: buffer.baseAddress!)
                count = 120
            }
        }
        // SAME as MediaPipe pads it: rows 2·2 + 2 − 1 = 5 (one padding row, none before), columns 2·3 + 2 = 8.
        // Spot check from the definition: output (0, 0) is the bias plus input (0, 0) times filter tap (0, 0).
        #expect(expected[0] == 0.5 + (x[0] * weights[0] + x[1] * weights[1]))
        for options in [Interpreter.Options(), .init(kernelVariant: .reference), .init(threadCount: 2)] {
            let interpreter = try Interpreter(modelData: data, options: options)
            #expect(interpreter.plan.map(\.operatorName) == ["CUSTOM(Convolution2DTransposeBias)"])
            try interpreter.copy(x, toInputAt: 0)
            interpreter.invoke()
            #expect(try interpreter.outputArray(at: 0) == expected, "\(options.kernelVariant)")
        }
    }

    @Test("an unknown custom operator and bad custom options are typed load-time errors")
    func badCustom() throws {
        #expect(Self.loadError(try Self.customModel(code: "NoSuchOperator", options: Self.params(1, 2, 2)))
            == .unsupportedOperator(index: 0, name: "CUSTOM(NoSuchOperator)", version: 1))
        let name = "CUSTOM(Convolution2DTransposeBias)"
        guard case .invalidOperator(0, name, let short)? =
            Self.loadError(try Self.customModel(code: "Convolution2DTransposeBias", options: [1, 0, 0, 0])) else {
            Issue.record("expected invalidOperator for 4 bytes of options")
            return
        }
        #expect(short.contains("4 bytes"))
        #expect(Self.loadError(try Self.customModel(code: "Convolution2DTransposeBias", options: Self.params(7, 2, 2)))
            == .unsupportedOption(index: 0, operator: name, option: "padding 7"))
        guard case .invalidOperator(0, name, _)? =
            Self.loadError(try Self.customModel(code: "Convolution2DTransposeBias", options: Self.params(1, 0, 2))) else {
            Issue.record("expected invalidOperator for stride 0")
            return
        }
        #expect(Self.loadError(try Self.customModel(code: "Convolution2DTransposeBias", options: Self.params(1, 2, 2),
                                                    output: [1, 6, 8, 3]))
            == .shapeMismatch(index: 0, operator: name, tensor: 3, name: "y", expected: [1, 5, 8, 3], actual: [1, 6, 8, 3]))
    }

    @Test("the selfie segmentation models load and give a mask in [0, 1], the same at 1 and 2 threads",
          arguments: [("selfie_segmentation.tflite", [1, 256, 256, 1]), ("selfie_segmentation_landscape.tflite", [1, 144, 256, 1])])
    func selfieModels(file: String, shape: [Int]) throws {
        let path = try TestResources.modelPath(file)
        let input = try Interpreter(modelPath: path).input(at: 0)
        var rng = SplitMix64(seed: 16)
        let x = rng.floats(input.shape.reduce(1, *)).map { ($0 + 1) / 2 }
        var outputs: [[Float]] = []
        for threads in [1, 2] {
            let interpreter = try Interpreter(modelPath: path, options: .init(threadCount: threads))
            #expect(try interpreter.output(at: 0).shape == shape)
            try interpreter.copy(x, toInputAt: 0)
            interpreter.invoke()
            let y = try interpreter.outputArray(at: 0)
            #expect(y.count == shape.reduce(1, *))
            #expect(y.allSatisfy { $0 >= 0 && $0 <= 1 }, "\(file) \(threads) threads")
            outputs.append(y)
        }
        #expect(outputs[0] == outputs[1], "\(file): 1 and 2 threads differ")
        #expect(Set(outputs[0]).count > 1, "\(file): a constant mask")
    }

    @Test("HARD_SWISH fused into the convolutions before it gives the unfused mask bit for bit, every one fused",
          arguments: ["selfie_segmentation.tflite", "selfie_segmentation_landscape.tflite"])
    func hardSwishFusionIsExact(file: String) throws {
        let path = try TestResources.modelPath(file)
        var rng = SplitMix64(seed: 61)
        let count = try Interpreter(modelPath: path).input(at: 0).shape.reduce(1, *)
        let x = rng.floats(count).map { ($0 + 1) / 2 }
        var outputs: [[Float]] = [], plans: [[Interpreter.StepDescription]] = []
        for fuse in [true, false] {
            let interpreter = try Interpreter(modelPath: path, options: FusionTests.options(.hardSwish, on: fuse))
            try interpreter.copy(x, toInputAt: 0)
            interpreter.invoke()
            outputs.append(try interpreter.outputArray(at: 0))
            plans.append(interpreter.plan)
        }
        let differing = zip(outputs[0], outputs[1]).filter { $0.0.bitPattern != $0.1.bitPattern }.count
        #expect(differing == 0, "\(file): \(differing) mask values differ")
        let swishes = plans.map { $0.filter { $0.operatorName == "HARD_SWISH" }.count }
        #expect(swishes[0] == 0 && swishes[1] == 11, "\(file): HARD_SWISH steps fused / unfused: \(swishes)")
        #expect(plans[1].count - plans[0].count == swishes[1])
        let fused = plans[0].filter { $0.summary.contains("HARD_SWISH #") }.map(\.operatorName)
        #expect(Set(fused) == ["CONV_2D", "DEPTHWISE_CONV_2D"], "\(file): \(fused)")
    }

    @Test("invoke() of the selfie segmentation models performs no heap allocation",
          .enabled(if: blaze_allocation_counting_available() == 1),
          arguments: ["selfie_segmentation.tflite", "selfie_segmentation_landscape.tflite"], [1, 2])
    func selfieModelsDoNotAllocate(file: String, threads: Int) throws {
        let interpreter = try Interpreter(modelPath: try TestResources.modelPath(file), options: .init(threadCount: threads))
        interpreter.withInput(at: 0) { buffer in
            for i in buffer.indices { buffer[i] = Float(i % 255) / 255 }
        }
        interpreter.invoke()
        blaze_allocation_counting_begin()
        interpreter.invoke()
        interpreter.invoke()
        let count = blaze_allocation_counting_end()
        #expect(count == 0, "\(file), \(threads) threads: \(count) allocations in two invoke() calls")
    }
}
