import BlazeKernels
import Testing

@Suite("Pooling")
struct PoolingTests {
    /// Padded positions are ignored, not zeros: with all-negative input the border maxima stay negative.
    @Test(arguments: [KernelVariant.reference, .simd])
    func maxPoolSameBorders(_ variant: KernelVariant) throws {
        let input: [Float] = (1...9).map { -Float($0) }
        let pool2 = try MaxPool2D(inputShape: Shape4(h: 3, w: 3, c: 1), filterH: 2, filterW: 2, strideH: 2, strideW: 2,
                                  padding: .same, variant: variant)
        #expect(pool2.outputShape == Shape4(h: 2, w: 2, c: 1))
        #expect(pool2.apply(input) == [-1, -3, -7, -9])
        let pool3 = try MaxPool2D(inputShape: Shape4(h: 3, w: 3, c: 1), filterH: 3, filterW: 3, strideH: 1, strideW: 1,
                                  padding: .same, variant: variant)
        #expect(pool3.apply(input) == [-1, -1, -2, -1, -1, -2, -4, -4, -5])
        let relu = try MaxPool2D(inputShape: Shape4(h: 3, w: 3, c: 1), filterH: 3, filterW: 3, strideH: 1, strideW: 1,
                                 padding: .same, activation: .relu, variant: variant)
        #expect(relu.apply(input) == Array(repeating: 0, count: 9))
    }

    /// The average divides by the number of in-bounds taps.
    @Test(arguments: [KernelVariant.reference, .simd])
    func averagePoolSameBorders(_ variant: KernelVariant) throws {
        let input: [Float] = (1...9).map { Float($0) }
        let pool = try AveragePool2D(inputShape: Shape4(h: 3, w: 3, c: 1), filterH: 3, filterW: 3, strideH: 1,
                                     strideW: 1, padding: .same, variant: variant)
        #expect(pool.apply(input) == [3, 3.5, 4, 4.5, 5, 5.5, 6, 6.5, 7])
        let valid = try AveragePool2D(inputShape: Shape4(h: 3, w: 3, c: 1), filterH: 2, filterW: 2, strideH: 1,
                                      strideW: 1, padding: .valid, variant: variant)
        #expect(valid.apply(input) == [3, 4, 6, 7])
    }

    @Test func simdMatchesReference() throws {
        let geometries: [(Int, Int, Padding)] = [(2, 2, .same), (2, 2, .valid), (3, 1, .same), (3, 2, .same), (3, 2, .valid)]
        let sizes = [(1, 1), (3, 5), (7, 7), (16, 16), (6, 9)]
        var index = 0
        for channels in [1, 3, 7, 8, 9, 15, 16, 17, 24, 33] {
            for (filter, stride, padding) in geometries {
                let (h, w) = sizes[index % sizes.count]
                let activation = allActivations[index % 4]
                index += 1
                guard WindowGeometry(inputH: h, inputW: w, kernelH: filter, kernelW: filter, strideH: stride,
                                     strideW: stride, padding: padding) != nil else { continue }
                let shape = Shape4(n: 1 + index % 2, h: h, w: w, c: channels)
                let input = randomFloats(shape.count, seed: UInt64(index))
                let context = "\(shape) f\(filter) s\(stride) \(padding) \(activation)"
                let maxReference = try MaxPool2D(inputShape: shape, filterH: filter, filterW: filter, strideH: stride,
                                                 strideW: stride, padding: padding, activation: activation, variant: .reference)
                let maxFast = try MaxPool2D(inputShape: shape, filterH: filter, filterW: filter, strideH: stride,
                                            strideW: stride, padding: padding, activation: activation)
                #expect(maxFast.apply(input) == maxReference.apply(input), "max \(context)")
                let avgReference = try AveragePool2D(inputShape: shape, filterH: filter, filterW: filter, strideH: stride,
                                                     strideW: stride, padding: padding, activation: activation,
                                                     variant: .reference)
                let avgFast = try AveragePool2D(inputShape: shape, filterH: filter, filterW: filter, strideH: stride,
                                                strideW: stride, padding: padding, activation: activation)
                expectClose(avgFast.apply(input), avgReference.apply(input), "average \(context)")
            }
        }
    }

    @Test func invalidParametersThrow() {
        let shape = Shape4(h: 4, w: 4, c: 2)
        expectThrows { try MaxPool2D(inputShape: shape, filterH: 2, filterW: 2, strideH: 0, strideW: 2, padding: .same) }
        expectThrows { try MaxPool2D(inputShape: shape, filterH: 0, filterW: 2, strideH: 1, strideW: 2, padding: .same) }
        expectThrows { try MaxPool2D(inputShape: shape, filterH: 5, filterW: 5, strideH: 1, strideW: 1, padding: .valid) }
        expectThrows { try AveragePool2D(inputShape: shape, filterH: 2, filterW: 2, strideH: 2, strideW: -2, padding: .same) }
    }
}
