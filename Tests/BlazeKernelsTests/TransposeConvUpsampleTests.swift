import BlazeKernels
import Testing

/// The upsampling path of `TransposeConvBias` (filter = stride, no padding, fewer than 8 output channels: the
/// microkernel `transposeConvUpsample`) against the reference, bit for bit, on both instruction sets: input
/// widths around its blocks of 8 pixels, channel counts around 8 and up to its limit of 32 (33 takes the general
/// path), strides 1 to 3.
@Suite("TransposeConvBias upsampling (filter = stride)")
struct TransposeConvUpsampleTests {
    /// (input height, width, channels, output channels, stride height, stride width)
    static let cases: [(Int, Int, Int, Int, Int, Int)] = [
        (3, 8, 16, 1, 2, 2), (2, 9, 16, 1, 2, 2), (4, 17, 16, 1, 2, 2), (2, 7, 16, 1, 2, 2), (1, 1, 1, 1, 2, 2),
        (3, 16, 1, 1, 2, 2), (2, 10, 7, 3, 2, 2), (2, 11, 8, 2, 3, 2), (3, 9, 9, 7, 2, 3), (2, 24, 32, 1, 2, 2),
        (2, 12, 33, 1, 2, 2), (3, 13, 5, 4, 1, 1), (5, 40, 16, 1, 2, 2),
    ]

    @Test("the reference's bits, whole and in pieces", arguments: cases.indices, [KernelInstructionSet.baseline, .avx2FMA])
    func matchesReference(index: Int, instructionSet: KernelInstructionSet) throws {
        let (h, w, c, outC, sh, sw) = Self.cases[index]
        let input = Shape4(n: 2, h: h, w: w, c: c)
        let filterShape = Shape4(n: outC, h: sh, w: sw, c: c)
        let x = randomFloats(input.count, seed: UInt64(index)), weights = randomFloats(filterShape.count, seed: 7)
        let bias = randomFloats(outC, seed: 8)
        func make(_ variant: KernelVariant) throws -> TransposeConvBias {
            try TransposeConvBias(inputShape: input, filterShape: filterShape, filter: weights, bias: bias, strideH: sh,
                                  strideW: sw, padding: .valid, variant: variant, instructionSet: instructionSet)
        }
        let simd = try make(.simd), reference = try make(.reference)
        #expect(simd.outputShape == Shape4(n: 2, h: h * sh, w: w * sw, c: outC))
        let expected = reference.apply(x).map(\.bitPattern)
        let name = "\(input) -> \(outC), stride \(sh)x\(sw), \(instructionSet)"
        #expect(simd.apply(x).map(\.bitPattern) == expected, "\(name)")
        #expect(simd.applyPieces(x).map(\.bitPattern) == expected, "\(name), pieces")
    }
}
