import BlazeKernels
import Testing

@Suite("PointwiseConv2D")
struct PointwiseConv2DTests {
    /// (rows M = h·w, K = inC, N = outC) around the 4x16 register tile.
    static let cases: [(m: Int, k: Int, n: Int)] = {
        let rows = [1, 3, 4, 5, 7, 17, 64]
        let ks = [1, 3, 8, 9, 24, 33]
        let ns = [1, 7, 8, 9, 15, 16, 17, 24, 33, 40]
        var cases: [(Int, Int, Int)] = []
        var i = 0
        for k in ks {
            for n in ns {
                cases.append((rows[i % rows.count], k, n))
                i += 1
            }
        }
        return cases
    }()

    @Test func simdAndBLASMatchReference() throws {
        for (index, c) in Self.cases.enumerated() {
            let shape = Shape4(h: 1, w: c.m, c: c.k)
            let input = randomFloats(c.m * c.k, seed: UInt64(index) * 3 + 1)
            let filter = randomFloats(c.n * c.k, seed: UInt64(index) * 3 + 2)
            let bias = randomFloats(c.n, seed: UInt64(index) * 3 + 3)
            let activation = allActivations[index % 4]
            let reference = try PointwiseConv2D(inputShape: shape, outputChannels: c.n, filter: filter, bias: bias,
                                                epilogue: .clamp(activation), variant: .reference)
            let expected = reference.apply(input)
            for variant in [KernelVariant.simd, .blas] {
                let kernel = try PointwiseConv2D(inputShape: shape, outputChannels: c.n, filter: filter, bias: bias,
                                                 epilogue: .clamp(activation), variant: variant)
                #expect(kernel.variant == variant)
                expectClose(kernel.apply(input), expected, "M\(c.m) K\(c.k) N\(c.n) \(activation) \(variant)")
            }
        }
    }

    @Test func batchesFoldIntoRows() throws {
        let shape = Shape4(n: 2, h: 3, w: 5, c: 9)
        let input = randomFloats(shape.count, seed: 5)
        let filter = randomFloats(17 * 9, seed: 6)
        let reference = try PointwiseConv2D(inputShape: shape, outputChannels: 17, filter: filter, variant: .reference)
        let fast = try PointwiseConv2D(inputShape: shape, outputChannels: 17, filter: filter)
        #expect(fast.outputShape == Shape4(n: 2, h: 3, w: 5, c: 17))
        expectClose(fast.apply(input), reference.apply(input))
    }

    @Test func handWorked() throws {
        // Two pixels, two input channels -> three output channels.
        let kernel = try PointwiseConv2D(inputShape: Shape4(h: 1, w: 2, c: 2), outputChannels: 3,
                                         filter: [1, 0, 0, 1, 1, -1], bias: [0, 10, 0], variant: .reference)
        #expect(kernel.apply([2, 3, 5, 7]) == [2, 13, -1, 5, 17, -2])
    }

    @Test func invalidParametersThrow() {
        expectThrows { try PointwiseConv2D(inputShape: Shape4(h: 2, w: 2, c: 3), outputChannels: 0, filter: []) }
        expectError(.weightCountMismatch(name: "filter", expected: 6, actual: 5)) {
            try PointwiseConv2D(inputShape: Shape4(h: 2, w: 2, c: 3), outputChannels: 2, filter: [1, 2, 3, 4, 5])
        }
        expectError(.weightCountMismatch(name: "bias", expected: 2, actual: 3)) {
            try PointwiseConv2D(inputShape: Shape4(h: 2, w: 2, c: 3), outputChannels: 2,
                                filter: [1, 2, 3, 4, 5, 6], bias: [0, 0, 0])
        }
    }
}
