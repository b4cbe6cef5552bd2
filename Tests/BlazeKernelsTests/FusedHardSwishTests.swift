import BlazeKernels
import Testing

/// A HARD_SWISH run in the epilogue of the convolution before it (`Epilogue.function`) gives the two kernels' results, bit for bit,
/// and the scalar references' (reference convolution, then `Nonlinearity.hardSwish`) within the convolutions'
/// summation-order tolerance. Channel counts sweep around the tile widths (8 and 16).
@Suite("HARD_SWISH fused into convolutions")
struct FusedHardSwishTests {
    /// The scalar oracle: TFLite's float HARD_SWISH on every element.
    static func hardSwish(_ values: [Float]) -> [Float] { values.map(Nonlinearity.hardSwish) }

    /// Inputs in [-3, 3): the sums then cover HARD_SWISH's three pieces (0 below -3, the parabola, x above 3).
    static func inputs(_ count: Int, seed: UInt64) -> [Float] { randomFloats(count, seed: seed).map { 3 * $0 } }

    static func expectSameBits(_ actual: [Float], _ expected: [Float], _ name: String,
                               sourceLocation: SourceLocation = #_sourceLocation) {
        let differing = zip(actual, expected).filter { $0.0.bitPattern != $0.1.bitPattern }.count
        #expect(actual.count == expected.count && differing == 0, "\(name): \(differing) values differ",
                sourceLocation: sourceLocation)
    }

    /// Checks a fused kernel's output against the unfused kernel then the scalar HARD_SWISH (bit for bit, whole
    /// and in pieces) and against the reference kernel then the scalar HARD_SWISH (within the summation-order
    /// tolerance); returns the unfused result.
    static func expectFusion(
        _ name: String, _ x: [Float], plain: [Float], fused: [Float], reference: [Float], pieceCount: Int,
        seed: UInt64, piece: (UnsafePointer<Float>, UnsafeMutablePointer<Float>, Range<Int>) -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> [Float] {
        let separate = hardSwish(plain)
        expectSameBits(fused, separate, name, sourceLocation: sourceLocation)
        expectClose(fused, hardSwish(reference), name + " vs the references", sourceLocation: sourceLocation)
        x.withUnsafeBufferPointer { xs in
            PiecesTests.expectSameBits(
                name, count: separate.count, pieceCount: pieceCount, seed: seed,
                whole: { $0.update(from: separate, count: separate.count) }, piece: { piece(xs.baseAddress!, $0, $1) },
                sourceLocation: sourceLocation)
        }
        return separate
    }

    /// (input channels, output channels, kernel, stride): 1x1 GEMM around 8 and 16 output channels, the
    /// selfie models' shapes, and implicit GEMMs (3x3/2 from 3 channels as their first layer).
    static let convolutions: [(Int, Int, Int, Int)] = [
        (5, 8, 1, 1), (7, 9, 1, 1), (16, 15, 1, 1), (16, 16, 1, 1), (24, 17, 1, 1), (8, 23, 1, 1), (3, 24, 1, 1),
        (24, 31, 1, 1), (32, 33, 1, 1), (24, 96, 1, 1), (32, 128, 1, 1),
        (3, 16, 3, 2), (3, 5, 3, 2), (5, 17, 3, 1), (8, 24, 5, 2), (4, 9, 2, 2),
    ]

    @Test("convolution + HARD_SWISH", arguments: convolutions.indices)
    func convolution(index: Int) throws {
        let (inC, outC, k, stride) = Self.convolutions[index]
        let input = Shape4(n: 2, h: 9, w: 7, c: inC)
        let filterShape = Shape4(n: outC, h: k, w: k, c: inC)
        let filter = randomFloats(filterShape.count, seed: 1), bias = randomFloats(outC, seed: 2)
        func make(_ variant: KernelVariant, _ epilogue: Epilogue = .none) throws -> Conv2D {
            try Conv2D(inputShape: input, filterShape: filterShape, filter: filter, bias: bias, strideH: stride,
                       strideW: stride, padding: .same, epilogue: epilogue, variant: variant)
        }
        let conv = try make(.simd), reference = try make(.reference)
        let fused = try make(.simd, Epilogue(function: .hardSwish))
        let x = Self.inputs(input.count, seed: UInt64(10 + index))
        let name = "conv \(inC)->\(outC) \(k)x\(k)/\(stride) + HARD_SWISH"
        let separate = Self.expectFusion(
            name, x, plain: conv.apply(x), fused: fused.apply(x), reference: reference.apply(x),
            pieceCount: fused.pieceCount, seed: UInt64(index), piece: { fused.run(input: $0, output: $1, pieces: $2) })
        #expect(separate.contains { $0 == 0 } && separate.contains { $0 > 3 }, "\(name): every piece of HARD_SWISH")
        #expect(throws: KernelError.self) { try make(.reference, Epilogue(function: .hardSwish)) }
    }

    @Test("1x1 convolution with a fused ADD, then HARD_SWISH")
    func afterResidual() throws {
        let input = Shape4(n: 1, h: 5, w: 6, c: 12), outC = 24
        let filter = randomFloats(outC * 12, seed: 3), bias = randomFloats(outC, seed: 4)
        func make(_ epilogue: Epilogue) throws -> Conv2D {
            try Conv2D(inputShape: input, filterShape: Shape4(n: outC, h: 1, w: 1, c: 12), filter: filter, bias: bias,
                       padding: .valid, epilogue: epilogue)
        }
        let conv = try make(.none)
        let add = try Add(lhsShape: conv.outputShape, rhsShape: conv.outputShape)
        let fused = try make(Epilogue(residual: .add, function: .hardSwish))
        let x = Self.inputs(input.count, seed: 5), other = Self.inputs(conv.outputShape.count, seed: 6)
        let expected = Self.hardSwish(add.apply(conv.apply(x), other))
        let actual = produce(expected.count) { out in
            x.withUnsafeBufferPointer { xs in
                other.withUnsafeBufferPointer { o in
                    fused.run(input: xs.baseAddress!, residual: o.baseAddress!, output: out, pieces: 0..<fused.pieceCount)
                }
            }
        }
        Self.expectSameBits(actual, expected, "1x1 + ADD + HARD_SWISH")
        // An ADD after the HARD_SWISH cannot join: the residual is added before the function.
        #expect(Epilogue(function: .hardSwish).adding(.add, then: .none) == nil)
    }

    @Test("1x1 convolutions of fewer than 8 output channels and dilated ones do not take a HARD_SWISH")
    func refusals() throws {
        let swish = Epilogue(function: .hardSwish)
        #expect(throws: KernelError.self) {
            try Conv2D(inputShape: Shape4(n: 1, h: 4, w: 4, c: 8), filterShape: Shape4(n: 6, h: 1, w: 1, c: 8),
                       filter: randomFloats(48, seed: 1), padding: .valid, epilogue: swish)
        }
        #expect(throws: KernelError.self) {
            try Conv2D(inputShape: Shape4(n: 1, h: 8, w: 8, c: 4), filterShape: Shape4(n: 8, h: 3, w: 3, c: 4),
                       filter: randomFloats(288, seed: 2), dilationH: 2, dilationW: 2, padding: .same, epilogue: swish)
        }
        #expect(throws: KernelError.self) {
            try DepthwiseConv2D(
                inputShape: Shape4(n: 1, h: 8, w: 8, c: 8), filterShape: Shape4(n: 1, h: 3, w: 3, c: 16),
                filter: randomFloats(144, seed: 3), depthMultiplier: 2, padding: .same, epilogue: swish)
        }
    }

    /// (channels, kernel, stride, width): around the 8-channel groups (fewer than 8: the per-pixel path),
    /// 3x3 whole rows (stride 1 and 2, blocks of 8 and 4 pixels), 5x5 blocks and borders.
    static let depthwise: [(Int, Int, Int, Int)] = [
        (5, 3, 1, 9), (8, 3, 1, 12), (9, 3, 1, 9), (16, 3, 2, 11), (17, 3, 1, 5), (24, 3, 2, 8),
        (7, 5, 1, 9), (8, 5, 2, 12), (15, 5, 1, 13), (16, 5, 1, 20), (17, 5, 2, 9), (96, 5, 2, 10), (33, 5, 1, 6),
    ]

    @Test("depthwise + HARD_SWISH", arguments: depthwise.indices)
    func depthwiseConvolution(index: Int) throws {
        let (channels, k, stride, width) = Self.depthwise[index]
        let input = Shape4(n: 2, h: 7, w: width, c: channels)
        let filterShape = Shape4(n: 1, h: k, w: k, c: channels)
        let filter = randomFloats(filterShape.count, seed: 7), bias = randomFloats(channels, seed: 8)
        func make(_ variant: KernelVariant, _ epilogue: Epilogue = .none) throws -> DepthwiseConv2D {
            try DepthwiseConv2D(inputShape: input, filterShape: filterShape, filter: filter, bias: bias, strideH: stride,
                                strideW: stride, padding: .same, epilogue: epilogue, variant: variant)
        }
        let conv = try make(.simd), reference = try make(.reference)
        let fused = try make(.simd, Epilogue(function: .hardSwish))
        let x = Self.inputs(input.count, seed: UInt64(20 + index))
        let name = "depthwise \(channels) \(k)x\(k)/\(stride), width \(width) + HARD_SWISH"
        _ = Self.expectFusion(
            name, x, plain: conv.apply(x), fused: fused.apply(x), reference: reference.apply(x),
            pieceCount: fused.pieceCount, seed: UInt64(index), piece: { fused.run(input: $0, output: $1, pieces: $2) })
        #expect(throws: KernelError.self) { try make(.reference, Epilogue(function: .hardSwish)) }
    }

    @Test("both instruction sets", arguments: [KernelInstructionSet.baseline, .avx2FMA])
    func instructionSets(instructionSet: KernelInstructionSet) throws {
        let input = Shape4(n: 1, h: 6, w: 10, c: 20)
        func pointwise(_ epilogue: Epilogue) throws -> Conv2D {
            try Conv2D(inputShape: input, filterShape: Shape4(n: 24, h: 1, w: 1, c: 20), filter: randomFloats(480, seed: 1),
                       bias: randomFloats(24, seed: 2), padding: .valid, epilogue: epilogue, instructionSet: instructionSet)
        }
        func depthwise(_ epilogue: Epilogue) throws -> DepthwiseConv2D {
            try DepthwiseConv2D(
                inputShape: input, filterShape: Shape4(n: 1, h: 5, w: 5, c: 20), filter: randomFloats(500, seed: 3),
                bias: randomFloats(20, seed: 4), padding: .same, epilogue: epilogue, instructionSet: instructionSet)
        }
        let x = Self.inputs(input.count, seed: 5), swish = Epilogue(function: .hardSwish)
        Self.expectSameBits(try pointwise(swish).apply(x), Self.hardSwish(try pointwise(.none).apply(x)),
                            "1x1 on \(instructionSet)")
        Self.expectSameBits(try depthwise(swish).apply(x), Self.hardSwish(try depthwise(.none).apply(x)),
                            "depthwise on \(instructionSet)")
    }

    @Test("convolution + SiLU: the same bits as the convolution then the SiLU kernel, whole and in pieces",
          arguments: convolutions.indices, [Shape4(n: 2, h: 9, w: 7, c: 1), Shape4(n: 1, h: 4, w: 5, c: 1)])
    func convolutionSiLU(index: Int, image: Shape4) throws {
        let (inC, outC, k, stride) = Self.convolutions[index]
        let input = Shape4(n: image.n, h: image.h, w: image.w, c: inC)
        let filterShape = Shape4(n: outC, h: k, w: k, c: inC)
        let filter = randomFloats(filterShape.count, seed: 3), bias = randomFloats(outC, seed: 4)
        for isa in [KernelInstructionSet.baseline, .avx2FMA, .avx512].filter(\.isSupported) {
            func make(_ epilogue: Epilogue) throws -> Conv2D {
                try Conv2D(inputShape: input, filterShape: filterShape, filter: filter, bias: bias, strideH: stride,
                           strideW: stride, padding: .same, epilogue: epilogue, instructionSet: isa)
            }
            let plain = try make(.clamp(.relu6))
            guard let fused = try? make(Epilogue(activation: .relu6, function: .silu)) else {
                #expect(outC < 8 && k == 1, "conv \(inC)->\(outC) \(k)x\(k) refused SiLU")
                continue
            }
            let x = Self.inputs(input.count, seed: UInt64(30 + index))
            let silu = try Nonlinearity(shape: plain.outputShape, function: .silu, instructionSet: isa)
            let expected = silu.apply(plain.apply(x))
            Self.expectSameBits(fused.apply(x), expected, "conv \(inC)->\(outC) \(k)x\(k)/\(stride) \(image) SiLU \(isa)")
            x.withUnsafeBufferPointer { xs in
                PiecesTests.expectSameBits(
                    "conv \(inC)->\(outC) \(k)x\(k)/\(stride) \(image) SiLU \(isa) pieces", count: expected.count,
                    pieceCount: fused.pieceCount, seed: UInt64(index),
                    whole: { $0.update(from: expected, count: expected.count) },
                    piece: { fused.run(input: xs.baseAddress!, output: $0, pieces: $1) })
            }
        }
    }
}
