import BlazeKernels
import Testing

/// A PAD of height and width folded into the VALID convolution that reads it (`Padding.explicit`): the kernel
/// with explicit padding on the unpadded input gives the values of the VALID kernel on the padded input.
@Suite("Padding folded into convolutions")
struct FoldPaddingTests {
    /// (channels, kernel, stride, top, bottom, left, right, height, width)
    static let cases: [(Int, Int, Int, Int, Int, Int, Int, Int, Int)] = [
        (32, 3, 1, 1, 1, 1, 1, 9, 10), (32, 3, 2, 1, 1, 1, 1, 12, 12), (8, 3, 2, 0, 1, 0, 1, 11, 9),
        (24, 5, 1, 2, 2, 2, 2, 8, 7), (5, 3, 1, 1, 0, 2, 1, 6, 6), (40, 5, 2, 1, 2, 2, 1, 13, 10),
    ]

    /// Zero-pads `x` (NHWC, n = 1) in height and width.
    static func padded(_ x: [Float], _ shape: Shape4, top: Int, bottom: Int, left: Int, right: Int) throws -> [Float] {
        let pad = try Pad(inputShape: [shape.n, shape.h, shape.w, shape.c],
                          paddings: [(0, 0), (top, bottom), (left, right), (0, 0)])
        return x.withUnsafeBufferPointer { xs in produce(pad.outputShape.count) { pad.run(input: xs.baseAddress!, output: $0) } }
    }

    static func expectEqualValues(_ a: [Float], _ b: [Float], _ context: String,
                                  sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(a.count == b.count, "\(context): count", sourceLocation: sourceLocation)
        let differing = zip(a, b).filter { $0.0 != $0.1 }.count
        #expect(differing == 0, "\(context): \(differing) values differ", sourceLocation: sourceLocation)
    }

    @Test("depthwise", arguments: cases.indices)
    func depthwise(index: Int) throws {
        let (c, k, stride, top, bottom, left, right, h, w) = Self.cases[index]
        let shape = Shape4(n: 1, h: h, w: w, c: c)
        let paddedShape = Shape4(n: 1, h: h + top + bottom, w: w + left + right, c: c)
        let filterShape = Shape4(n: 1, h: k, w: k, c: c)
        let x = randomFloats(shape.count, seed: UInt64(300 + index))
        let filter = randomFloats(filterShape.count, seed: 7), bias = randomFloats(c, seed: 8)
        let plain = try DepthwiseConv2D(
            inputShape: paddedShape, filterShape: filterShape, filter: filter, bias: bias, strideH: stride,
            strideW: stride, padding: .valid, epilogue: .clamp(.relu6))
        let folded = try DepthwiseConv2D(
            inputShape: shape, filterShape: filterShape, filter: filter, bias: bias, strideH: stride, strideW: stride,
            padding: .explicit(top: top, bottom: bottom, left: left, right: right), epilogue: .clamp(.relu6))
        #expect(folded.outputShape == plain.outputShape && folded.inputShape == shape)
        let xp = try Self.padded(x, shape, top: top, bottom: bottom, left: left, right: right)
        let expected = xp.withUnsafeBufferPointer { p in produce(plain.outputShape.count) { plain.run(input: p.baseAddress!, output: $0) } }
        let actual = x.withUnsafeBufferPointer { p in produce(folded.outputShape.count) { folded.run(input: p.baseAddress!, output: $0) } }
        Self.expectEqualValues(actual, expected, "depthwise case \(index)")
    }

    @Test("implicit-GEMM convolution", arguments: cases.indices)
    func convolution(index: Int) throws {
        let (c, k, stride, top, bottom, left, right, h, w) = Self.cases[index]
        let inputChannels = min(c, 3 + index)
        let shape = Shape4(n: 1, h: h, w: w, c: inputChannels)
        let paddedShape = Shape4(n: 1, h: h + top + bottom, w: w + left + right, c: inputChannels)
        let filterShape = Shape4(n: 16, h: k, w: k, c: inputChannels)
        let x = randomFloats(shape.count, seed: UInt64(400 + index))
        let filter = randomFloats(filterShape.count, seed: 9), bias = randomFloats(16, seed: 10)
        let plain = try Conv2D(
            inputShape: paddedShape, filterShape: filterShape, filter: filter, bias: bias, strideH: stride,
            strideW: stride, padding: .valid, epilogue: .clamp(.relu))
        let folded = try Conv2D(
            inputShape: shape, filterShape: filterShape, filter: filter, bias: bias, strideH: stride, strideW: stride,
            padding: .explicit(top: top, bottom: bottom, left: left, right: right), epilogue: .clamp(.relu))
        #expect(folded.outputShape == plain.outputShape)
        let xp = try Self.padded(x, shape, top: top, bottom: bottom, left: left, right: right)
        let expected = xp.withUnsafeBufferPointer { p in produce(plain.outputShape.count) { plain.run(input: p.baseAddress!, output: $0) } }
        let actual = x.withUnsafeBufferPointer { p in produce(folded.outputShape.count) { folded.run(input: p.baseAddress!, output: $0) } }
        Self.expectEqualValues(actual, expected, "conv case \(index)")
    }

    @Test("explicit padding as large as the kernel, negative, or on a 1x1 GEMM convolution is rejected")
    func rejects() throws {
        let filterShape = Shape4(n: 1, h: 3, w: 3, c: 8)
        let filter = randomFloats(filterShape.count, seed: 1)
        let input = Shape4(n: 1, h: 6, w: 6, c: 8)
        func depthwise(_ top: Int, _ bottom: Int, _ left: Int, _ right: Int) throws -> DepthwiseConv2D {
            try DepthwiseConv2D(inputShape: input, filterShape: filterShape, filter: filter,
                                padding: .explicit(top: top, bottom: bottom, left: left, right: right))
        }
        #expect(try depthwise(2, 2, 0, 1).outputShape == Shape4(n: 1, h: 8, w: 5, c: 8))
        #expect(throws: KernelError.self) { try depthwise(3, 0, 1, 1) }  // 3 rows with a 3-row kernel
        #expect(throws: KernelError.self) { try depthwise(-1, 1, 1, 1) }
        let pointwise = Shape4(n: 4, h: 1, w: 1, c: 8)
        #expect(throws: KernelError.self) {
            try Conv2D(inputShape: input, filterShape: pointwise, filter: randomFloats(32, seed: 2),
                       padding: .explicit(top: 0, bottom: 0, left: 0, right: 0))
        }
    }
}
