@testable import BlazeKernels
import Testing

/// The direct microkernels (`convolutionDirect`, `depthwiseGeneral`, `averagePool`): the loops that ran on the
/// baseline only until they moved into `Microkernels/`. They multiply and add separately (no fused
/// multiply-add), so both builds give the same bits, and both stay close to the reference.
@Suite("Direct microkernels on every instruction set")
struct DirectKernelTests {
    /// Pairs of (kernel on `isa`, same kernel on the baseline) outputs, checked to be the same bits.
    private func expectSameBits(_ fast: [Float], _ baseline: [Float], _ label: String) {
        #expect(fast.map(\.bitPattern) == baseline.map(\.bitPattern), "\(label)")
    }

    @Test(arguments: instructionSets)
    func dilatedConvolution(_ isa: KernelInstructionSet) throws {
        let input = Shape4(h: 9, w: 7, c: 3)
        for (outC, dilation) in [(5, 2), (8, 3), (13, 2)] {
            let filterShape = Shape4(n: outC, h: 3, w: 3, c: 3)
            let filter = randomFloats(filterShape.count, seed: UInt64(outC))
            let bias = randomFloats(outC, seed: UInt64(outC) + 100)
            let x = randomFloats(input.count, seed: UInt64(outC) + 200)
            func make(_ variant: KernelVariant, _ set: KernelInstructionSet) throws -> Conv2D {
                try Conv2D(inputShape: input, filterShape: filterShape, filter: filter, bias: bias, strideH: 1,
                           strideW: 2, dilationH: dilation, dilationW: dilation, padding: .same, epilogue: .clamp(.relu6),
                           variant: variant, instructionSet: set)
            }
            let fast = try make(.simd, isa).apply(x)
            expectClose(fast, try make(.reference, .baseline).apply(x), "conv d\(dilation) outC \(outC) \(isa)")
            expectSameBits(fast, try make(.simd, .baseline).apply(x), "conv d\(dilation) outC \(outC) \(isa)")
        }
    }

    @Test(arguments: instructionSets)
    func generalDepthwise(_ isa: KernelInstructionSet) throws {
        let input = Shape4(h: 8, w: 9, c: 5)
        for (multiplier, dilation) in [(2, 1), (1, 2), (3, 2)] {
            let filterShape = Shape4(n: 1, h: 3, w: 3, c: 5 * multiplier)
            let filter = randomFloats(filterShape.count, seed: UInt64(multiplier * 10 + dilation))
            let bias = randomFloats(filterShape.c, seed: UInt64(multiplier * 10 + dilation) + 100)
            let x = randomFloats(input.count, seed: UInt64(multiplier * 10 + dilation) + 200)
            func make(_ variant: KernelVariant, _ set: KernelInstructionSet) throws -> DepthwiseConv2D {
                try DepthwiseConv2D(inputShape: input, filterShape: filterShape, filter: filter, bias: bias,
                                    depthMultiplier: multiplier, strideH: 2, strideW: 1, dilationH: dilation,
                                    dilationW: dilation, padding: .same, epilogue: .clamp(.relu), variant: variant,
                                    instructionSet: set)
            }
            let label = "depthwise x\(multiplier) d\(dilation) \(isa)"
            let fast = try make(.simd, isa).apply(x)
            expectClose(fast, try make(.reference, .baseline).apply(x), label)
            expectSameBits(fast, try make(.simd, .baseline).apply(x), label)
        }
    }

    @Test(arguments: instructionSets)
    func averagePool(_ isa: KernelInstructionSet) throws {
        for (channels, padding) in [(3, Padding.same), (8, .valid), (19, .same)] {
            let input = Shape4(n: 2, h: 7, w: 6, c: channels)
            let x = randomFloats(input.count, seed: UInt64(channels))
            func make(_ variant: KernelVariant, _ set: KernelInstructionSet) throws -> AveragePool2D {
                try AveragePool2D(inputShape: input, filterH: 3, filterW: 2, strideH: 2, strideW: 2, padding: padding,
                                  activation: .reluN1To1, variant: variant, instructionSet: set)
            }
            let label = "average pool C\(channels) \(padding) \(isa)"
            let fast = try make(.simd, isa)
            #expect(fast.instructionSet == isa)
            expectClose(fast.apply(x), try make(.reference, .baseline).apply(x), label)
            expectSameBits(fast.apply(x), try make(.simd, .baseline).apply(x), label)
        }
    }
}
