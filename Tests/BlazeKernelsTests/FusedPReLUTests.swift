import BlazeKernels
import Testing

/// A PRELU run in the epilogue of the convolution or ADD before it (`Epilogue.slopes`) gives the two kernels'
/// results, bit for bit.
@Suite("PReLU fused into convolutions and adds")
struct FusedPReLUTests {
    /// (input channels, output channels, kernel, stride)
    static let convolutions: [(Int, Int, Int, Int)] = [
        (32, 64, 1, 1), (64, 32, 1, 1), (24, 28, 1, 1), (16, 6, 1, 1), (12, 1, 1, 1), (8, 16, 3, 2), (3, 24, 5, 2),
        (16, 20, 2, 2),
    ]

    static func separate(_ values: [Float], prelu: PReLU) -> [Float] {
        values.withUnsafeBufferPointer { v in produce(values.count) { prelu.run(input: v.baseAddress!, output: $0) } }
    }

    @Test("convolution + PRELU", arguments: convolutions.indices)
    func convolution(index: Int) throws {
        let (inC, outC, k, stride) = Self.convolutions[index]
        let input = Shape4(n: 2, h: 9, w: 7, c: inC)
        let filter = Shape4(n: outC, h: k, w: k, c: inC)
        let weights = randomFloats(filter.count, seed: 1), bias = randomFloats(outC, seed: 2)
        func conv(_ epilogue: Epilogue) throws -> Conv2D {
            try Conv2D(inputShape: input, filterShape: filter, filter: weights, bias: bias, strideH: stride,
                       strideW: stride, padding: .same, epilogue: epilogue)
        }
        let plain = try conv(.none)
        let slopes = randomFloats(outC, seed: UInt64(3 + index))
        let prelu = try PReLU(inputShape: plain.outputShape, alphaShape: Shape4(n: 1, h: 1, w: 1, c: outC), alpha: slopes)
        #expect(prelu.perChannelSlopes == slopes)
        let fused = try conv(Epilogue(slopes: slopes))
        #expect(fused.epilogue.slopes == slopes)
        let x = randomFloats(input.count, seed: UInt64(10 + index))
        x.withUnsafeBufferPointer { xs in
            let unfused = produce(plain.outputShape.count) { plain.run(input: xs.baseAddress!, output: $0) }
            let expected = Self.separate(unfused, prelu: prelu)
            PiecesTests.expectSameBits(
                "conv \(inC)->\(outC) \(k)x\(k)/\(stride) + PReLU", count: expected.count, pieceCount: fused.pieceCount,
                seed: UInt64(index), whole: { $0.update(from: expected, count: expected.count) },
                piece: { fused.run(input: xs.baseAddress!, output: $0, pieces: $1) })
        }
        #expect(throws: KernelError.self) { try conv(Epilogue(slopes: [1, 2])) }  // one slope per channel
    }

    @Test("ADD + PRELU", arguments: [8, 13, 64, 3])
    func add(channels: Int) throws {
        let shape = Shape4(n: 2, h: 5, w: 6, c: channels)
        let add = try Add(lhsShape: shape, rhsShape: shape)
        let slopes = randomFloats(channels, seed: 5)
        let prelu = try PReLU(inputShape: shape, alphaShape: Shape4(n: 1, h: 1, w: 1, c: channels), alpha: slopes)
        let fused = try Add(lhsShape: shape, rhsShape: shape, epilogue: Epilogue(slopes: slopes))
        let a = randomFloats(shape.count, seed: 6), b = randomFloats(shape.count, seed: 7)
        a.withUnsafeBufferPointer { x in
            b.withUnsafeBufferPointer { y in
                let sum = produce(shape.count) { add.run(lhs: x.baseAddress!, rhs: y.baseAddress!, output: $0) }
                let expected = Self.separate(sum, prelu: prelu)
                PiecesTests.expectSameBits(
                    "add \(channels) + PReLU", count: expected.count, pieceCount: fused.pieceCount, seed: 1,
                    whole: { fused.run(lhs: x.baseAddress!, rhs: y.baseAddress!, output: $0) },
                    piece: { fused.run(lhs: x.baseAddress!, rhs: y.baseAddress!, output: $0, pieces: $1) })
                let whole = produce(shape.count) { fused.run(lhs: x.baseAddress!, rhs: y.baseAddress!, output: $0) }
                #expect(zip(whole, expected).allSatisfy { $0.0.bitPattern == $0.1.bitPattern })
            }
        }
        #expect(throws: KernelError.self) {  // a broadcast ADD has no slopes in its epilogue
            try Add(lhsShape: shape, rhsShape: Shape4(n: 1, h: 1, w: 1, c: channels), epilogue: Epilogue(slopes: slopes))
        }
        #expect(throws: KernelError.self) {
            try Add(lhsShape: shape, rhsShape: shape, epilogue: Epilogue(slopes: slopes), variant: .reference)
        }
    }
}
