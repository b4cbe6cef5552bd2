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
            let weights = randomFloats(filter.count, seed: seed), bias = randomFloats(outC, seed: seed + 1)
            func make(_ epilogue: Epilogue) throws -> Conv2D {
                try Conv2D(inputShape: input, filterShape: filter, filter: weights, bias: bias, padding: .valid,
                           epilogue: epilogue, instructionSet: isa)
            }
            let conv = try make(.none)
            for (shortcutFirst, withPReLU) in [(true, false), (false, false), (true, true)] {
                let after = Epilogue(activation: activation, slopes: withPReLU ? randomFloats(outC, seed: seed + 5) : nil)
                let residual = try ResidualAdd(
                    shortcutShape: shortcutShape, outputShape: conv.outputShape, pooled: false,
                    shortcutFirst: shortcutFirst, epilogue: after, instructionSet: isa)
                let fused = try make(try #require(Epilogue.none.adding(.shortcut(channels: shortcutC), then: after)))
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
            }
        }
    }

    @Test("what cannot take a shortcut says so")
    func refusals() throws {
        let input = Shape4(n: 1, h: 4, w: 4, c: 16)
        func conv(_ k: Int, _ epilogue: Epilogue, variant: KernelVariant = .automatic) throws -> Conv2D {
            try Conv2D(inputShape: input, filterShape: Shape4(n: 24, h: k, w: k, c: 16),
                       filter: randomFloats(24 * k * k * 16, seed: 1), padding: .same, epilogue: epilogue, variant: variant)
        }
        #expect(try conv(1, Epilogue(residual: .shortcut(channels: 16))).hasResidual)
        // More shortcut channels than the output's, none, a 3x3 convolution, the reference and BLAS kernels.
        #expect(throws: KernelError.self) { try conv(1, Epilogue(residual: .shortcut(channels: 32))) }
        #expect(throws: KernelError.self) { try conv(1, Epilogue(residual: .shortcut(channels: 0))) }
        #expect(throws: KernelError.self) { try conv(3, Epilogue(residual: .shortcut(channels: 16))) }
        #expect(throws: KernelError.self) { try conv(1, Epilogue(residual: .add), variant: .reference) }
        if try conv(1, .none, variant: .blas).variant == .blas {
            #expect(throws: KernelError.self) { try conv(1, Epilogue(residual: .add), variant: .blas) }
        }
        // A residual joins only an empty epilogue: it is added before the clamp.
        #expect(Epilogue.clamp(.relu).adding(.add, then: .none) == nil)
        #expect(Epilogue.none.adding(.add, then: Epilogue(residual: .add)) == nil)
    }
}
