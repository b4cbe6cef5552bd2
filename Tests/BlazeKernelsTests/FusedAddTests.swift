import BlazeKernels
import Testing

/// A same-shape ADD run in the epilogue of the 1x1 convolution before it (`Epilogue.residual`) gives the two kernels' results,
/// bit for bit, for every instruction set, tile shape and split of the rows.
@Suite("ADD fused into 1x1 convolutions")
struct FusedAddTests {
    /// (input channels, output channels, image height, width): 16-wide panels, 8-wide ones, panels that
    /// overlap (20, 12, 213 channels), partial row tiles (every image has rows that are not a multiple of 6).
    static let shapes: [(Int, Int, Int, Int)] = [
        (32, 64, 5, 7), (64, 32, 4, 4), (24, 24, 9, 3), (16, 8, 3, 5), (12, 20, 7, 1), (8, 12, 2, 2),
        (512, 213, 1, 1), (3, 17, 6, 6),
    ]

    /// (ADD activation, with a PRELU fused into the ADD)
    static let epilogues: [(FusedActivation, Bool)] = [(.none, false), (.relu, false), (.none, true), (.relu6, true)]

    @Test("1x1 convolution + ADD (+ activation, + PRELU)", arguments: shapes.indices, epilogues.indices)
    func fused(shapeIndex: Int, epilogueIndex: Int) throws {
        let (inC, outC, h, w) = Self.shapes[shapeIndex]
        let (activation, withPReLU) = Self.epilogues[epilogueIndex]
        let seed = UInt64(shapeIndex * 10 + epilogueIndex)
        let input = Shape4(n: 2, h: h, w: w, c: inC)
        let filter = Shape4(n: outC, h: 1, w: 1, c: inC)
        for isa in instructionSets {
            let weights = randomFloats(filter.count, seed: seed), bias = randomFloats(outC, seed: seed + 1)
            func make(_ epilogue: Epilogue) throws -> Conv2D {
                try Conv2D(inputShape: input, filterShape: filter, filter: weights, bias: bias, padding: .valid,
                           epilogue: epilogue, instructionSet: isa)
            }
            let conv = try make(.none)
            let after = Epilogue(activation: activation, slopes: withPReLU ? randomFloats(outC, seed: seed + 2) : nil)
            let add = try Add(lhsShape: conv.outputShape, rhsShape: conv.outputShape, epilogue: after, instructionSet: isa)
            let fused = try make(try #require(Epilogue.none.adding(.add, then: after)))
            #expect(fused.hasResidual && !conv.hasResidual)
            let x = randomFloats(input.count, seed: seed + 3)
            // The other operand, with a scale like the convolution's outputs so that sums cancel.
            let other = randomFloats(conv.outputShape.count, seed: seed + 4).map { $0 * Float(inC).squareRoot() }
            x.withUnsafeBufferPointer { xs in
                other.withUnsafeBufferPointer { os in
                    let plain = produce(conv.outputShape.count) { conv.run(input: xs.baseAddress!, output: $0) }
                    let expected = plain.withUnsafeBufferPointer { ps in
                        produce(plain.count) { add.run(lhs: os.baseAddress!, rhs: ps.baseAddress!, output: $0) }
                    }
                    PiecesTests.expectSameBits(
                        "conv \(inC)->\(outC) \(h)x\(w) + ADD \(activation)\(withPReLU ? " + PReLU" : "") \(isa)",
                        count: expected.count, pieceCount: fused.pieceCount, seed: seed,
                        whole: { $0.update(from: expected, count: expected.count) },
                        piece: { fused.run(input: xs.baseAddress!, residual: os.baseAddress!, output: $0, pieces: $1) })
                }
            }
        }
    }

    @Test("what cannot take an ADD says so")
    func refusals() throws {
        let input = Shape4(n: 1, h: 4, w: 4, c: 16)
        func conv(_ filter: Shape4, stride: Int = 1, _ epilogue: Epilogue = Epilogue(residual: .add),
                  variant: KernelVariant = .automatic) throws -> Conv2D {
            try Conv2D(inputShape: input, filterShape: filter, filter: randomFloats(filter.count, seed: 1),
                       strideH: stride, strideW: stride, padding: .same, epilogue: epilogue, variant: variant)
        }
        let pointwise = Shape4(n: 16, h: 1, w: 1, c: 16)
        #expect(try conv(pointwise).hasResidual)
        // Not a 1x1 stride-1 GEMM, the reference kernel, fewer than 8 channels.
        #expect(throws: KernelError.self) { try conv(Shape4(n: 16, h: 3, w: 3, c: 16)) }
        #expect(throws: KernelError.self) { try conv(pointwise, stride: 2) }
        #expect(throws: KernelError.self) { try conv(pointwise, variant: .reference) }
        #expect(throws: KernelError.self) { try conv(Shape4(n: 6, h: 1, w: 1, c: 16)) }
        // The residual is added before the clamp and the slopes: an activation or PRELU of the convolution's
        // own cannot come before it.
        #expect(Epilogue.clamp(.relu).adding(.add, then: .none) == nil)
        #expect(Epilogue(slopes: [1]).adding(.add, then: .none) == nil)
        #expect(try conv(pointwise, Epilogue(activation: .relu, residual: .add)).hasResidual)
    }
}
