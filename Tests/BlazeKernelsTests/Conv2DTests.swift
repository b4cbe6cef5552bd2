import BlazeKernels
import Testing

struct ConvCase: CustomStringConvertible, Sendable {
    var h, w, inC, outC, kernel, stride, dilation: Int
    var padding: Padding
    var activation: FusedActivation

    var description: String {
        "\(h)x\(w)x\(inC)->\(outC) k\(kernel) s\(stride) d\(dilation) \(padding) \(activation)"
    }

    /// Whether the geometry gives a non-empty output.
    var isValid: Bool {
        WindowGeometry(inputH: h, inputW: w, kernelH: kernel, kernelW: kernel, strideH: stride, strideW: stride,
                       dilationH: dilation, dilationW: dilation, padding: padding) != nil
    }
}

/// Channel counts around the SIMD width crossed with kernel geometries; sizes and activations cycle.
let convCases: [ConvCase] = {
    let channels = [(1, 1), (3, 24), (7, 8), (8, 9), (9, 15), (15, 16), (16, 17), (17, 3), (24, 33), (33, 7)]
    let geometries: [(kernel: Int, stride: Int, dilation: Int, padding: Padding)] = [
        (3, 1, 1, .same), (3, 2, 1, .valid), (5, 2, 1, .same), (2, 2, 1, .same), (3, 1, 2, .same),
        (1, 2, 1, .valid), (3, 2, 2, .valid), (1, 1, 1, .same), (4, 1, 1, .valid),
    ]
    let sizes = [(1, 1), (3, 5), (7, 7), (16, 16), (5, 3), (8, 9), (6, 11)]
    var cases: [ConvCase] = []
    var index = 0
    for (inC, outC) in channels {
        for g in geometries {
            var (h, w) = sizes[index % sizes.count]
            if inC * outC > 300 && h * w > 100 { (h, w) = (9, 7) }  // keep the debug-build oracle fast
            let c = ConvCase(h: h, w: w, inC: inC, outC: outC, kernel: g.kernel, stride: g.stride,
                             dilation: g.dilation, padding: g.padding, activation: allActivations[index % 4])
            if c.isValid { cases.append(c) }
            index += 1
        }
    }
    return cases
}()

@Suite("Conv2D")
struct Conv2DTests {
    func make(_ c: ConvCase, _ variant: KernelVariant, filter: [Float], bias: [Float]) throws -> Conv2D {
        try Conv2D(
            inputShape: Shape4(h: c.h, w: c.w, c: c.inC),
            filterShape: Shape4(n: c.outC, h: c.kernel, w: c.kernel, c: c.inC),
            filter: filter, bias: bias, strideH: c.stride, strideW: c.stride,
            dilationH: c.dilation, dilationW: c.dilation, padding: c.padding, epilogue: .clamp(c.activation),
            variant: variant)
    }

    @Test("fast variants match the reference", arguments: convCases)
    func fastMatchesReference(_ c: ConvCase) throws {
        let seed = UInt64(c.h * 1_000_003 + c.w * 10_007 + c.inC * 101 + c.outC * 7 + c.kernel)
        let input = randomFloats(c.h * c.w * c.inC, seed: seed)
        let filter = randomFloats(c.outC * c.kernel * c.kernel * c.inC, seed: seed &+ 1)
        let bias = randomFloats(c.outC, seed: seed &+ 2)
        let expected = try make(c, .reference, filter: filter, bias: bias).apply(input)
        for variant in [KernelVariant.simd, .blas, .automatic] {
            let kernel = try make(c, variant, filter: filter, bias: bias)
            expectClose(kernel.apply(input), expected, "\(c) \(variant)")
        }
    }

    @Test func batchesLoop() throws {
        let shape = Shape4(n: 3, h: 5, w: 4, c: 3)
        let input = randomFloats(shape.count, seed: 7)
        let filter = randomFloats(9 * 3 * 3 * 3, seed: 8)
        for variant in [KernelVariant.reference, .simd] {
            let batched = try Conv2D(inputShape: shape, filterShape: Shape4(n: 9, h: 3, w: 3, c: 3), filter: filter,
                                     strideH: 2, strideW: 2, padding: .same, variant: variant)
            let single = try Conv2D(inputShape: Shape4(h: 5, w: 4, c: 3), filterShape: Shape4(n: 9, h: 3, w: 3, c: 3),
                                    filter: filter, strideH: 2, strideW: 2, padding: .same, variant: variant)
            let all = batched.apply(input)
            let per = single.outputShape.count
            for b in 0..<3 {
                let one = single.apply(Array(input[(b * 60)..<((b + 1) * 60)]))
                #expect(Array(all[(b * per)..<((b + 1) * per)]) == one)
            }
        }
    }

    /// BlazeFace's first layer: 5x5, stride 2, SAME, 3 -> 24 channels (on a smaller image).
    @Test func firstBlazeFaceLayer() throws {
        let inputShape = Shape4(h: 32, w: 32, c: 3)
        let filterShape = Shape4(n: 24, h: 5, w: 5, c: 3)
        let input = randomFloats(inputShape.count, seed: 11)
        let filter = randomFloats(filterShape.count, seed: 12)
        let bias = randomFloats(24, seed: 13)
        func make(_ variant: KernelVariant) throws -> Conv2D {
            try Conv2D(inputShape: inputShape, filterShape: filterShape, filter: filter, bias: bias,
                       strideH: 2, strideW: 2, padding: .same, epilogue: .clamp(.relu), variant: variant)
        }
        let reference = try make(.reference)
        #expect(reference.outputShape == Shape4(h: 16, w: 16, c: 24))
        #expect(reference.geometry.padTop == 1 && reference.geometry.padLeft == 1)
        expectClose(try make(.automatic).apply(input), reference.apply(input))
    }

    /// A 3x3 box filter plus a centre tap on the input 1...9, worked by hand.
    @Test(arguments: [KernelVariant.reference, .simd])
    func handWorked3x3(_ variant: KernelVariant) throws {
        let input: [Float] = [1, 2, 3, 4, 5, 6, 7, 8, 9]
        // OHWI [2, 3, 3, 1]: channel 0 all ones, channel 1 twice the centre tap.
        let filter: [Float] = Array(repeating: 1, count: 9) + [0, 0, 0, 0, 2, 0, 0, 0, 0]
        let same = try Conv2D(inputShape: Shape4(h: 3, w: 3, c: 1), filterShape: Shape4(n: 2, h: 3, w: 3, c: 1),
                              filter: filter, bias: [1, 0], padding: .same, variant: variant)
        let sums: [Float] = [12, 21, 16, 27, 45, 33, 24, 39, 28]
        var expected: [Float] = []
        for i in 0..<9 { expected += [sums[i] + 1, 2 * input[i]] }
        #expect(same.apply(input) == expected)

        let valid = try Conv2D(inputShape: Shape4(h: 3, w: 3, c: 1), filterShape: Shape4(n: 2, h: 3, w: 3, c: 1),
                               filter: filter, bias: [1, 0], padding: .valid, variant: variant)
        #expect(valid.outputShape == Shape4(h: 1, w: 1, c: 2))
        #expect(valid.apply(input) == [46, 10])

        let relu6 = try Conv2D(inputShape: Shape4(h: 3, w: 3, c: 1), filterShape: Shape4(n: 2, h: 3, w: 3, c: 1),
                               filter: filter, bias: [1, -7], padding: .valid, epilogue: .clamp(.relu6), variant: variant)
        #expect(relu6.apply(input) == [6, 3])
    }

    /// SAME with an even kernel and stride 2: the smaller half of the padding goes before.
    @Test(arguments: [KernelVariant.reference, .simd])
    func samePaddingOffsets(_ variant: KernelVariant) throws {
        let g1 = try #require(WindowGeometry(inputH: 4, inputW: 4, kernelH: 2, kernelW: 2, strideH: 2, strideW: 2, padding: .same))
        #expect((g1.outH, g1.padTop, g1.padLeft) == (2, 0, 0))
        let g2 = try #require(WindowGeometry(inputH: 5, inputW: 5, kernelH: 2, kernelW: 2, strideH: 2, strideW: 2, padding: .same))
        #expect((g2.outH, g2.padTop) == (3, 0))
        let g3 = try #require(WindowGeometry(inputH: 5, inputW: 6, kernelH: 4, kernelW: 4, strideH: 2, strideW: 2, padding: .same))
        #expect((g3.outH, g3.outW, g3.padTop, g3.padLeft) == (3, 3, 1, 1))

        // A 4x4 filter whose only tap is (0, 0): output (y, x) = input(2y − 1, 2x − 1), or 0 outside.
        let input = (0..<25).map { Float($0 + 1) }
        var filter = [Float](repeating: 0, count: 16)
        filter[0] = 1
        let conv = try Conv2D(inputShape: Shape4(h: 5, w: 5, c: 1), filterShape: Shape4(n: 1, h: 4, w: 4, c: 1),
                              filter: filter, strideH: 2, strideW: 2, padding: .same, variant: variant)
        #expect(conv.outputShape == Shape4(h: 3, w: 3, c: 1))
        func at(_ y: Int, _ x: Int) -> Float { input[y * 5 + x] }
        #expect(conv.apply(input) == [0, 0, 0, 0, at(1, 1), at(1, 3), 0, at(3, 1), at(3, 3)])
    }

    @Test func variantSelection() throws {
        func make(_ k: Int, _ s: Int, _ variant: KernelVariant) throws -> Conv2D {
            try Conv2D(inputShape: Shape4(h: 4, w: 4, c: 2), filterShape: Shape4(n: 3, h: k, w: k, c: 2),
                       filter: Array(repeating: 0.5, count: 3 * k * k * 2), strideH: s, strideW: s,
                       padding: .same, variant: variant)
        }
        #expect(try make(1, 1, .automatic).variant == .simd)
        #expect(try make(1, 1, .blas).variant == .blas)
        #expect(try make(3, 1, .blas).variant == .simd)
        #expect(try make(1, 2, .blas).variant == .simd)
        #expect(try make(3, 1, .reference).variant == .reference)
    }

    @Test func invalidParametersThrow() {
        let input = Shape4(h: 4, w: 4, c: 2)
        let filterShape = Shape4(n: 3, h: 3, w: 3, c: 2)
        let filter = [Float](repeating: 0, count: filterShape.count)
        expectThrows { try Conv2D(inputShape: input, filterShape: filterShape, filter: filter, strideH: 0, padding: .same) }
        expectThrows { try Conv2D(inputShape: input, filterShape: filterShape, filter: filter, strideW: -1, padding: .same) }
        expectThrows { try Conv2D(inputShape: input, filterShape: filterShape, filter: filter, dilationH: 0, padding: .same) }
        expectError(.channelMismatch(expected: 2, actual: 5)) {
            try Conv2D(inputShape: input, filterShape: Shape4(n: 3, h: 3, w: 3, c: 5),
                       filter: [Float](repeating: 0, count: 135), padding: .same)
        }
        expectError(.weightCountMismatch(name: "bias", expected: 3, actual: 2)) {
            try Conv2D(inputShape: input, filterShape: filterShape, filter: filter, bias: [1, 2], padding: .same)
        }
        expectError(.weightCountMismatch(name: "filter", expected: 54, actual: 53)) {
            try Conv2D(inputShape: input, filterShape: filterShape, filter: Array(filter.dropLast()), padding: .same)
        }
        // VALID with a kernel larger than the input: empty output.
        expectThrows {
            try Conv2D(inputShape: Shape4(h: 2, w: 2, c: 2), filterShape: filterShape, filter: filter, padding: .valid)
        }
        expectThrows {
            try Conv2D(inputShape: Shape4(h: 0, w: 4, c: 2), filterShape: filterShape, filter: filter, padding: .same)
        }
    }
}
