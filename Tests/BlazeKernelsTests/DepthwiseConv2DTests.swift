import BlazeKernels
import Testing

struct DepthwiseCase: CustomStringConvertible, Sendable {
    var h, w, channels, multiplier, kernel, stride, dilation: Int
    var padding: Padding
    var activation: FusedActivation

    var description: String {
        "\(h)x\(w)x\(channels)*\(multiplier) k\(kernel) s\(stride) d\(dilation) \(padding) \(activation)"
    }
}

let depthwiseCases: [DepthwiseCase] = {
    let channels = [1, 3, 7, 8, 9, 15, 16, 17, 24, 33]
    let geometries: [(kernel: Int, stride: Int, dilation: Int, padding: Padding)] = [
        (3, 1, 1, .same), (3, 2, 1, .same), (5, 1, 1, .same), (5, 2, 1, .valid), (3, 1, 2, .same),
        (2, 2, 1, .same), (3, 2, 2, .valid),
    ]
    let sizes = [(1, 1), (3, 5), (7, 7), (16, 16), (5, 3), (8, 9)]
    var cases: [DepthwiseCase] = []
    var index = 0
    for c in channels {
        for g in geometries {
            let (h, w) = sizes[index % sizes.count]
            let multiplier = [1, 1, 2, 1, 3][index % 5]
            let dw = DepthwiseCase(h: h, w: w, channels: c, multiplier: multiplier, kernel: g.kernel,
                                   stride: g.stride, dilation: g.dilation, padding: g.padding,
                                   activation: allActivations[index % 4])
            if WindowGeometry(inputH: h, inputW: w, kernelH: g.kernel, kernelW: g.kernel, strideH: g.stride,
                              strideW: g.stride, dilationH: g.dilation, dilationW: g.dilation,
                              padding: g.padding) != nil {
                cases.append(dw)
            }
            index += 1
        }
    }
    return cases
}()

@Suite("DepthwiseConv2D")
struct DepthwiseConv2DTests {
    @Test("simd matches the reference", arguments: depthwiseCases)
    func simdMatchesReference(_ c: DepthwiseCase) throws {
        let outC = c.channels * c.multiplier
        let seed = UInt64(c.h * 7919 + c.w * 131 + c.channels * 17 + c.kernel * 3 + c.multiplier)
        let input = randomFloats(c.h * c.w * c.channels, seed: seed)
        let filter = randomFloats(c.kernel * c.kernel * outC, seed: seed &+ 1)
        let bias = randomFloats(outC, seed: seed &+ 2)
        func make(_ variant: KernelVariant) throws -> DepthwiseConv2D {
            try DepthwiseConv2D(
                inputShape: Shape4(h: c.h, w: c.w, c: c.channels),
                filterShape: Shape4(n: 1, h: c.kernel, w: c.kernel, c: outC), filter: filter, bias: bias,
                depthMultiplier: c.multiplier, strideH: c.stride, strideW: c.stride, dilationH: c.dilation,
                dilationW: c.dilation, padding: c.padding, epilogue: .clamp(c.activation), variant: variant)
        }
        let expected = try make(.reference).apply(input)
        let fast = try make(.automatic)
        #expect(fast.variant == .simd)
        expectClose(fast.apply(input), expected, "\(c)")
    }

    /// Output channel c·M + m reads input channel c.
    @Test(arguments: [KernelVariant.reference, .simd])
    func depthMultiplierOrdering(_ variant: KernelVariant) throws {
        let kernel = try DepthwiseConv2D(
            inputShape: Shape4(h: 1, w: 1, c: 2), filterShape: Shape4(n: 1, h: 1, w: 1, c: 4),
            filter: [1, 10, 100, 1000], bias: [0, 0, 0, 0.5], padding: .valid, variant: variant)
        #expect(kernel.depthMultiplier == 2)
        #expect(kernel.apply([2, 3]) == [2, 20, 300, 3000.5])
    }

    /// A 3x3 box filter per channel on a 3x3 input, SAME: each output is its neighbourhood sum.
    @Test(arguments: [KernelVariant.reference, .simd])
    func handWorked3x3(_ variant: KernelVariant) throws {
        // Two channels: channel 0 is 1...9, channel 1 is 10 times that.
        let input = (1...9).flatMap { [Float($0), Float(10 * $0)] }
        let kernel = try DepthwiseConv2D(
            inputShape: Shape4(h: 3, w: 3, c: 2), filterShape: Shape4(n: 1, h: 3, w: 3, c: 2),
            filter: Array(repeating: 1, count: 18), bias: [1, 0], padding: .same, variant: variant)
        let sums: [Float] = [12, 21, 16, 27, 45, 33, 24, 39, 28]
        #expect(kernel.apply(input) == sums.flatMap { [$0 + 1, 10 * $0] })
    }

    @Test func batchesLoop() throws {
        let shape = Shape4(n: 2, h: 4, w: 5, c: 9)
        let input = randomFloats(shape.count, seed: 3)
        let filter = randomFloats(9 * 9, seed: 4)
        let single = try DepthwiseConv2D(inputShape: Shape4(h: 4, w: 5, c: 9), filterShape: Shape4(n: 1, h: 3, w: 3, c: 9),
                                         filter: filter, strideH: 2, strideW: 2, padding: .same)
        let batched = try DepthwiseConv2D(inputShape: shape, filterShape: Shape4(n: 1, h: 3, w: 3, c: 9),
                                          filter: filter, strideH: 2, strideW: 2, padding: .same)
        let all = batched.apply(input)
        let per = single.outputShape.count
        #expect(Array(all[per...]) == single.apply(Array(input[180...])))
        #expect(Array(all[..<per]) == single.apply(Array(input[..<180])))
    }

    @Test func invalidParametersThrow() {
        let input = Shape4(h: 4, w: 4, c: 3)
        let filterShape = Shape4(n: 1, h: 3, w: 3, c: 3)
        let filter = [Float](repeating: 0, count: 27)
        expectThrows { try DepthwiseConv2D(inputShape: input, filterShape: filterShape, filter: filter, strideH: 0, padding: .same) }
        expectThrows { try DepthwiseConv2D(inputShape: input, filterShape: filterShape, filter: filter, dilationW: -2, padding: .same) }
        expectError(.channelMismatch(expected: 6, actual: 3)) {
            try DepthwiseConv2D(inputShape: input, filterShape: filterShape, filter: filter, depthMultiplier: 2, padding: .same)
        }
        expectError(.channelMismatch(expected: 3, actual: 4)) {
            try DepthwiseConv2D(inputShape: input, filterShape: Shape4(n: 1, h: 3, w: 3, c: 4),
                                filter: [Float](repeating: 0, count: 36), padding: .same)
        }
        expectError(.weightCountMismatch(name: "bias", expected: 3, actual: 4)) {
            try DepthwiseConv2D(inputShape: input, filterShape: filterShape, filter: filter, bias: [0, 0, 0, 0], padding: .same)
        }
        expectThrows {
            try DepthwiseConv2D(inputShape: input, filterShape: Shape4(n: 2, h: 3, w: 3, c: 3),
                                filter: filter + filter, padding: .same)
        }
        expectThrows {
            try DepthwiseConv2D(inputShape: Shape4(h: 2, w: 2, c: 3), filterShape: filterShape, filter: filter, padding: .valid)
        }
    }
}
