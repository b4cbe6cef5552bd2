import BlazeKernels
import Testing

@Suite("ResizeBilinear")
struct ResizeBilinearTests {
    /// 2x2 → 4x4 of f(y, x) = 2y + x (channel 0) and 10·f (channel 1). f is linear, so each output is
    /// 2·ey + ex where ey, ex are the effective source coordinates worked out from TFLite's formula.
    func check(alignCorners: Bool, halfPixelCenters: Bool, effective: [Float], variant: KernelVariant) throws {
        let input: [Float] = [0, 0, 1, 10, 2, 20, 3, 30]
        let resize = try ResizeBilinear(inputShape: Shape4(h: 2, w: 2, c: 2), outputHeight: 4, outputWidth: 4,
                                        alignCorners: alignCorners, halfPixelCenters: halfPixelCenters, variant: variant)
        var expected: [Float] = []
        for ey in effective {
            for ex in effective { expected += [2 * ey + ex, 10 * (2 * ey + ex)] }
        }
        expectClose(resize.apply(input), expected, relative: 1e-6, "align \(alignCorners) half \(halfPixelCenters)")
    }

    @Test(arguments: [KernelVariant.reference, .simd])
    func handWorked(_ variant: KernelVariant) throws {
        // scale 2/4: sources 0, 0.5, 1, 1.5 → the last clamps to row 1 (y0 = y1 = 1).
        try check(alignCorners: false, halfPixelCenters: false, effective: [0, 0.5, 1, 1], variant: variant)
        // scale (2−1)/(4−1): sources 0, 1/3, 2/3, 1.
        try check(alignCorners: true, halfPixelCenters: false, effective: [0, 1.0 / 3, 2.0 / 3, 1], variant: variant)
        // scale 2/4, sources (y + 0.5)/2 − 0.5 = −0.25, 0.25, 0.75, 1.25 → the ends clamp to rows 0 and 1.
        try check(alignCorners: false, halfPixelCenters: true, effective: [0, 0.25, 0.75, 1], variant: variant)
    }

    @Test func bothFlagsThrow() {
        expectError(.invalidParameter("alignCorners and halfPixelCenters cannot both be true")) {
            try ResizeBilinear(inputShape: Shape4(h: 2, w: 2, c: 1), outputHeight: 4, outputWidth: 4,
                               alignCorners: true, halfPixelCenters: true)
        }
        expectThrows { try ResizeBilinear(inputShape: Shape4(h: 2, w: 2, c: 1), outputHeight: 0, outputWidth: 4) }
    }

    /// With align corners and a single output row the scale stays in/out: the output samples row 0.
    @Test(arguments: [KernelVariant.reference, .simd])
    func singleOutputWithAlignCorners(_ variant: KernelVariant) throws {
        let resize = try ResizeBilinear(inputShape: Shape4(h: 2, w: 2, c: 1), outputHeight: 1, outputWidth: 1,
                                        alignCorners: true, variant: variant)
        #expect(resize.apply([5, 6, 7, 8]) == [5])
        // 4 → 2 without flags: scale 2, sources 0 and 2 (exact samples).
        let down = try ResizeBilinear(inputShape: Shape4(h: 1, w: 4, c: 1), outputHeight: 1, outputWidth: 2, variant: variant)
        #expect(down.apply([1, 2, 3, 4]) == [1, 3])
        // 4 → 2 with half-pixel centres: sources 0.5 and 2.5.
        let half = try ResizeBilinear(inputShape: Shape4(h: 1, w: 4, c: 1), outputHeight: 1, outputWidth: 2,
                                      halfPixelCenters: true, variant: variant)
        #expect(half.apply([1, 2, 3, 4]) == [1.5, 3.5])
    }

    @Test(arguments: [KernelInstructionSet.baseline, .avx2FMA])
    func simdMatchesReferenceExactly(instructionSet: KernelInstructionSet) throws {
        let shapes = [Shape4(h: 1, w: 1, c: 1), Shape4(h: 3, w: 5, c: 7), Shape4(n: 2, h: 8, w: 8, c: 17),
                      Shape4(h: 16, w: 16, c: 3), Shape4(h: 7, w: 7, c: 33)]
        let outputs = [(1, 1), (5, 3), (16, 16), (8, 8), (13, 4)]
        let flags = [(false, false), (true, false), (false, true)]
        for (i, shape) in shapes.enumerated() {
            let input = randomFloats(shape.count, seed: UInt64(i))
            for (oh, ow) in outputs {
                for (align, half) in flags {
                    let reference = try ResizeBilinear(inputShape: shape, outputHeight: oh, outputWidth: ow,
                                                       alignCorners: align, halfPixelCenters: half, variant: .reference)
                    let fast = try ResizeBilinear(inputShape: shape, outputHeight: oh, outputWidth: ow,
                                                  alignCorners: align, halfPixelCenters: half,
                                                  instructionSet: instructionSet)
                    #expect(fast.apply(input) == reference.apply(input), "\(shape) -> \(oh)x\(ow) \(align) \(half)")
                }
            }
        }
    }
}
