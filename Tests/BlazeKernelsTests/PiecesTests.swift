import BlazeKernels
import BlazeTestSupport
import Testing

/// Every kernel that can be split (`pieceCount`, `run(…, pieces:)`) must give, piece by piece, exactly the
/// whole-output result (bit for bit), whatever the split: that is what makes the interpreter's results
/// identical for any thread count.
@Suite("Kernels split into pieces")
struct PiecesTests {
    /// Splits of `count` pieces: whole, halves, thirds, single pieces, and a ragged random split.
    static func splits(_ count: Int, seed: UInt64) -> [[Range<Int>]] {
        var result: [[Range<Int>]] = [[0..<count]]
        for parts in [2, 3, 7] where parts <= count {
            result.append((0..<parts).map { Pieces.range(part: $0, of: parts, count: count) })
        }
        result.append((0..<count).map { $0..<($0 + 1) })
        var rng = SplitMix64(seed: seed)
        var ragged: [Range<Int>] = []
        var start = 0
        while start < count {
            let end = min(count, start + 1 + Int(rng.next() % 5))
            ragged.append(start..<end)
            start = end
        }
        result.append(ragged)
        return result
    }

    /// Runs `whole` once and `piece` over every split, each into a NaN-filled buffer, and expects the same bits.
    static func expectSameBits(
        _ name: String, count: Int, pieceCount: Int, seed: UInt64,
        whole: (UnsafeMutablePointer<Float>) -> Void, piece: (UnsafeMutablePointer<Float>, Range<Int>) -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let expected = produce(count, whole)
        for split in splits(pieceCount, seed: seed) {
            let actual = produce(count) { output in
                for range in split { piece(output, range) }
            }
            let differing = zip(actual, expected).filter { $0.0.bitPattern != $0.1.bitPattern }.count
            #expect(differing == 0, "\(name), split \(split.count) ways: \(differing) of \(count) values differ",
                    sourceLocation: sourceLocation)
        }
    }

    static let variants: [KernelVariant] = [.simd, .blas, .reference]

    @Test("convolutions (pointwise, implicit GEMM, 5x5 stride 2 from 3 channels, small outputs split by columns)",
          arguments: variants)
    func convolutions(variant: KernelVariant) throws {
        // (input, filter, stride, padding, column groups of the SIMD GEMM)
        let cases: [(Shape4, Shape4, Int, Padding, Int)] = [
            (Shape4(n: 2, h: 9, w: 7, c: 24), Shape4(n: 28, h: 1, w: 1, c: 24), 1, .valid, 1),
            (Shape4(n: 1, h: 16, w: 16, c: 96), Shape4(n: 6, h: 1, w: 1, c: 96), 1, .valid, 1),
            (Shape4(n: 1, h: 13, w: 11, c: 3), Shape4(n: 24, h: 5, w: 5, c: 3), 2, .same, 2),  // 7x6 outputs
            (Shape4(n: 2, h: 8, w: 9, c: 5), Shape4(n: 17, h: 3, w: 3, c: 5), 1, .same, 1),
            (Shape4(n: 1, h: 10, w: 6, c: 8), Shape4(n: 16, h: 3, w: 2, c: 8), 2, .valid, 1),
            // Fewer than `Pieces.columnSplitPixels` output pixels: also split by column panels.
            (Shape4(n: 2, h: 2, w: 2, c: 64), Shape4(n: 24, h: 1, w: 1, c: 64), 1, .valid, 2),
            (Shape4(n: 1, h: 4, w: 4, c: 32), Shape4(n: 40, h: 2, w: 2, c: 32), 2, .valid, 3),
            (Shape4(n: 2, h: 2, w: 2, c: 64), Shape4(n: 213, h: 2, w: 2, c: 64), 1, .valid, 8),
            (Shape4(n: 1, h: 5, w: 5, c: 16), Shape4(n: 8, h: 3, w: 3, c: 16), 1, .same, 1),
        ]
        for (index, (input, filter, stride, padding, groups)) in cases.enumerated() {
            let seed = UInt64(index)
            let x = randomFloats(input.count, seed: seed)
            let conv = try Conv2D(
                inputShape: input, filterShape: filter, filter: randomFloats(filter.count, seed: seed + 10),
                bias: randomFloats(filter.n, seed: seed + 20), strideH: stride, strideW: stride, padding: padding,
                epilogue: .clamp(.relu6), variant: variant)
            // OpenBLAS's sums depend on how many rows a call gets, so the BLAS kernel is not split.
            let split = variant == .simd || (variant == .blas && filter.h > 1)
            // The 1x1 GEMM's pieces are runs of one tile's rows (6, or 8 under 16 channels); others', output rows.
            let o = conv.outputShape, tile = filter.n < 16 ? 8 : 6
            let rowPieces = filter.h == 1 && filter.w == 1 && stride == 1 ? (o.n * o.h * o.w + tile - 1) / tile : o.n * o.h
            #expect(conv.pieceCount == (split ? rowPieces * groups : 1), "Conv2D \(filter) on \(input) \(variant)")
            x.withUnsafeBufferPointer { xs in
                Self.expectSameBits(
                    "Conv2D \(filter) on \(input) \(variant)", count: conv.outputShape.count,
                    pieceCount: conv.pieceCount, seed: seed,
                    whole: { conv.run(input: xs.baseAddress!, output: $0) },
                    piece: { conv.run(input: xs.baseAddress!, output: $0, pieces: $1) })
            }
        }
    }

    @Test("depthwise convolutions 3x3 and 5x5, stride 1 and 2, with and without the blocked kernel",
          arguments: [KernelVariant.simd, .reference])
    func depthwise(variant: KernelVariant) throws {
        let cases: [(Shape4, Int, Int, Padding, Int)] = [
            (Shape4(n: 2, h: 12, w: 11, c: 24), 3, 1, .same, 1),
            (Shape4(n: 1, h: 16, w: 16, c: 28), 3, 2, .same, 1),
            (Shape4(n: 1, h: 9, w: 10, c: 36), 5, 1, .same, 1),
            (Shape4(n: 1, h: 11, w: 9, c: 5), 5, 2, .valid, 1),
            (Shape4(n: 2, h: 7, w: 6, c: 4), 3, 1, .same, 2),  // depth multiplier 2: the unblocked kernel
        ]
        for (index, (input, k, stride, padding, multiplier)) in cases.enumerated() {
            let seed = UInt64(100 + index)
            let filter = Shape4(n: 1, h: k, w: k, c: input.c * multiplier)
            let x = randomFloats(input.count, seed: seed)
            let dw = try DepthwiseConv2D(
                inputShape: input, filterShape: filter, filter: randomFloats(filter.count, seed: seed + 10),
                bias: randomFloats(filter.c, seed: seed + 20), strideH: stride, strideW: stride, padding: padding,
                epilogue: .clamp(.relu), variant: variant)
            x.withUnsafeBufferPointer { xs in
                Self.expectSameBits(
                    "DepthwiseConv2D \(k)x\(k)/\(stride) on \(input) \(variant)", count: dw.outputShape.count,
                    pieceCount: dw.pieceCount, seed: seed,
                    whole: { dw.run(input: xs.baseAddress!, output: $0) },
                    piece: { dw.run(input: xs.baseAddress!, output: $0, pieces: $1) })
            }
        }
    }

    @Test("add, activation, PReLU, pad and max-pool", arguments: [KernelVariant.simd, .reference])
    func memoryBound(variant: KernelVariant) throws {
        let shape = Shape4(n: 2, h: 17, w: 13, c: 28)
        let a = randomFloats(shape.count, seed: 200), b = randomFloats(shape.count, seed: 201)
        let add = try Add(lhsShape: shape, rhsShape: shape, epilogue: .clamp(.relu), variant: variant)
        let activation = try Activation(count: shape.count, function: .relu6, variant: variant)
        let prelu = try PReLU(inputShape: shape, alphaShape: Shape4(n: 1, h: 1, w: 1, c: 28),
                              alpha: randomFloats(28, seed: 202), variant: variant)
        let pad = try Pad(inputShape: [2, 17, 13, 28], paddings: [(0, 0), (1, 2), (0, 1), (0, 4)], variant: variant)
        let pool = try MaxPool2D(inputShape: shape, filterH: 2, filterW: 2, strideH: 2, strideW: 2, padding: .same,
                                 variant: variant)
        if variant == .simd {
            #expect(add.pieceCount == Pieces.blockCount(shape.count))
            #expect(prelu.pieceCount == 34 && pad.pieceCount == 2 * 20 && pool.pieceCount == 2 * 9)
        }
        a.withUnsafeBufferPointer { xs in
            b.withUnsafeBufferPointer { ys in
                let x = xs.baseAddress!, y = ys.baseAddress!
                Self.expectSameBits("Add \(variant)", count: shape.count, pieceCount: add.pieceCount, seed: 1,
                                    whole: { add.run(lhs: x, rhs: y, output: $0) },
                                    piece: { add.run(lhs: x, rhs: y, output: $0, pieces: $1) })
                Self.expectSameBits("Activation \(variant)", count: shape.count, pieceCount: activation.pieceCount,
                                    seed: 2, whole: { activation.run(input: x, output: $0) },
                                    piece: { activation.run(input: x, output: $0, pieces: $1) })
                Self.expectSameBits("PReLU \(variant)", count: shape.count, pieceCount: prelu.pieceCount, seed: 3,
                                    whole: { prelu.run(input: x, output: $0) },
                                    piece: { prelu.run(input: x, output: $0, pieces: $1) })
                Self.expectSameBits("Pad \(variant)", count: pad.outputShape.count, pieceCount: pad.pieceCount,
                                    seed: 4, whole: { pad.run(input: x, output: $0) },
                                    piece: { pad.run(input: x, output: $0, pieces: $1) })
                Self.expectSameBits("MaxPool2D \(variant)", count: pool.outputShape.count,
                                    pieceCount: pool.pieceCount, seed: 5, whole: { pool.run(input: x, output: $0) },
                                    piece: { pool.run(input: x, output: $0, pieces: $1) })
            }
        }
    }

    @Test("Pieces.range covers 0..<count without gaps or overlaps")
    func ranges() {
        for count in [0, 1, 5, 64, 97] {
            for parts in 1...6 {
                var next = 0
                for part in 0..<parts {
                    let range = Pieces.range(part: part, of: parts, count: count)
                    #expect(range.lowerBound == next, "count \(count), part \(part) of \(parts)")
                    next = range.upperBound
                }
                #expect(next == count)
            }
        }
    }
}
