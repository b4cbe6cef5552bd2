import BlazeKernels
import Testing

/// An unpooled BlazeBlock shortcut (`ResidualAdd`: the shortcut zero-padded in channels, added, clamped, with
/// or without a PRELU) run in the epilogue of the 1x1 convolution before it gives the two kernels' results,
/// bit for bit, for every instruction set, tile shape, channel padding and split of the rows.
@Suite("BlazeBlock shortcuts fused into 1x1 convolutions")
struct FusedShortcutTests {
    /// (input channels, shortcut channels, output channels, image height, width): the padding ends inside a
    /// 16-wide panel, inside an 8-wide one, inside an overlapping last panel (24 -> 28, 36 -> 42, 88 -> 96 as
    /// in short-range), on a panel edge (16 -> 32), with no padding at all, and with one shortcut channel.
    static let shapes: [(Int, Int, Int, Int, Int)] = [
        (24, 24, 28, 9, 7), (36, 36, 42, 5, 5), (88, 88, 96, 3, 4), (16, 16, 32, 4, 3), (32, 20, 24, 6, 1),
        (12, 12, 12, 7, 3), (8, 1, 8, 2, 5), (24, 9, 17, 3, 3), (48, 40, 56, 2, 2),
    ]

    @Test("1x1 convolution + padded shortcut (+ activation)", arguments: shapes.indices,
          [FusedActivation.none, .relu, .relu6])
    func fused(shapeIndex: Int, activation: FusedActivation) throws {
        let (inC, shortcutC, outC, h, w) = Self.shapes[shapeIndex]
        let seed = UInt64(shapeIndex * 10 + 7)
        let input = Shape4(n: 2, h: h, w: w, c: inC)
        let filter = Shape4(n: outC, h: 1, w: 1, c: inC)
        let shortcutShape = Shape4(n: 2, h: h, w: w, c: shortcutC)
        for isa in instructionSets {
            let conv = try Conv2D(inputShape: input, filterShape: filter, filter: randomFloats(filter.count, seed: seed),
                                  bias: randomFloats(outC, seed: seed + 1), padding: .valid, instructionSet: isa)
            for (shortcutFirst, withPReLU) in [(true, false), (false, false), (true, true)] {
                let plainShortcut = try ResidualAdd(
                    shortcutShape: shortcutShape, outputShape: conv.outputShape, pooled: false,
                    shortcutFirst: shortcutFirst, activation: activation, instructionSet: isa)
                let residual = withPReLU
                    ? try plainShortcut.fusingPReLU(slopes: randomFloats(outC, seed: seed + 5)) : plainShortcut
                let fused = try conv.fusingResidualAdd(residual)
                #expect(fused.hasResidual && !conv.hasResidual)
                let x = randomFloats(input.count, seed: seed + 3)
                let s = randomFloats(shortcutShape.count, seed: seed + 4).map { $0 * Float(inC).squareRoot() }
                x.withUnsafeBufferPointer { xs in
                    s.withUnsafeBufferPointer { ss in
                        let plain = produce(conv.outputShape.count) { conv.run(input: xs.baseAddress!, output: $0) }
                        let expected = plain.withUnsafeBufferPointer { ps in
                            produce(plain.count) { residual.run(shortcut: ss.baseAddress!, main: ps.baseAddress!, output: $0) }
                        }
                        PiecesTests.expectSameBits(
                            "conv \(inC)->\(outC) \(h)x\(w) + shortcut \(shortcutC) \(activation) \(isa) PRELU \(withPReLU)",
                            count: expected.count, pieceCount: fused.pieceCount, seed: seed,
                            whole: { $0.update(from: expected, count: expected.count) },
                            piece: { fused.run(input: xs.baseAddress!, residual: ss.baseAddress!, output: $0, pieces: $1) })
                    }
                }
                #expect(throws: KernelError.self) { try fused.fusingResidualAdd(residual) }  // only once
            }
        }
    }

    @Test("what cannot take a shortcut says so")
    func refusals() throws {
        let input = Shape4(n: 1, h: 4, w: 4, c: 16)
        let output = Shape4(n: 1, h: 4, w: 4, c: 24)
        let pointwise = try Conv2D(inputShape: input, filterShape: Shape4(n: 24, h: 1, w: 1, c: 16),
                                   filter: randomFloats(24 * 16, seed: 1), padding: .valid)
        let shortcut = try ResidualAdd(shortcutShape: input, outputShape: output, pooled: false)
        #expect(try pointwise.fusingResidualAdd(shortcut).hasResidual)
        // A pooled shortcut, another output shape, a 3x3 convolution, one with an activation.
        let pooled = try ResidualAdd(shortcutShape: Shape4(n: 1, h: 8, w: 8, c: 16), outputShape: output, pooled: true)
        #expect(throws: KernelError.self) { try pointwise.fusingResidualAdd(pooled) }
        let wider = try ResidualAdd(shortcutShape: Shape4(n: 1, h: 4, w: 4, c: 16), outputShape: Shape4(n: 1, h: 4, w: 4, c: 32), pooled: false)
        #expect(throws: KernelError.self) { try pointwise.fusingResidualAdd(wider) }
        let spatial = try Conv2D(inputShape: input, filterShape: Shape4(n: 24, h: 3, w: 3, c: 16),
                                 filter: randomFloats(24 * 9 * 16, seed: 2), padding: .same)
        #expect(throws: KernelError.self) { try spatial.fusingResidualAdd(shortcut) }
        let activated = try Conv2D(inputShape: input, filterShape: Shape4(n: 24, h: 1, w: 1, c: 16),
                                   filter: randomFloats(24 * 16, seed: 3), padding: .valid, activation: .relu)
        #expect(throws: KernelError.self) { try activated.fusingResidualAdd(shortcut) }
    }
}
