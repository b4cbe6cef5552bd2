import BlazeKernels
import Testing

extension Mul {
    func apply(_ lhs: [Float], _ rhs: [Float]) -> [Float] {
        produce(outputShape.count) { out in
            lhs.withUnsafeBufferPointer { l in
                rhs.withUnsafeBufferPointer { r in run(lhs: l.baseAddress!, rhs: r.baseAddress!, output: out) }
            }
        }
    }

    /// The output computed piece by piece in ragged ranges of pieces, then by ranges of output rows.
    func applySplit(_ lhs: [Float], _ rhs: [Float]) -> (pieces: [Float], rows: [Float]) {
        lhs.withUnsafeBufferPointer { l in
            rhs.withUnsafeBufferPointer { r in
                let pieces = produce(outputShape.count) { out in
                    var start = 0, step = 1
                    while start < pieceCount {
                        let end = min(start + step, pieceCount)
                        run(lhs: l.baseAddress!, rhs: r.baseAddress!, output: out, pieces: start..<end)
                        (start, step) = (end, step + 1)
                    }
                }
                let rows = produce(outputShape.count) { out in
                    let rows = outputShape.n * outputShape.h
                    for (a, b) in [(0, rows / 3), (rows / 3, rows / 3 + 1), (rows / 3 + 1, rows)] where a < b {
                        run(lhs: l.baseAddress!, rhs: r.baseAddress!, output: out, outputRows: a..<b)
                    }
                }
                return (pieces, rows)
            }
        }
    }
}

/// `act(lhs · rhs)` with NumPy broadcasting, computed element by element from each output coordinate.
func broadcastProduct(_ lhs: [Float], _ ls: Shape4, _ rhs: [Float], _ rs: Shape4, _ activation: FusedActivation) -> [Float] {
    let o = Shape4(n: max(ls.n, rs.n), h: max(ls.h, rs.h), w: max(ls.w, rs.w), c: max(ls.c, rs.c))
    func at(_ values: [Float], _ s: Shape4, _ n: Int, _ y: Int, _ x: Int, _ c: Int) -> Float {
        values[(((s.n == 1 ? 0 : n) * s.h + (s.h == 1 ? 0 : y)) * s.w + (s.w == 1 ? 0 : x)) * s.c + (s.c == 1 ? 0 : c)]
    }
    let (lo, hi) = activation.bounds
    var out: [Float] = []
    for n in 0..<o.n { for y in 0..<o.h { for x in 0..<o.w { for c in 0..<o.c {
        out.append(min(max(at(lhs, ls, n, y, x, c) * at(rhs, rs, n, y, x, c), lo), hi))
    } } } }
    return out
}

@Suite("Mul")
struct MulTests {
    @Test func sameShapeMatchesReferenceAndProducts() throws {
        for (index, count) in [1, 3, 7, 8, 9, 15, 16, 17, 24, 33, 100, 2047, 2049, 4100].enumerated() {
            let shape = Shape4(h: 1, w: 1, c: count)
            let a = randomFloats(count, seed: UInt64(index)).map { $0 * 4 }
            let b = randomFloats(count, seed: UInt64(index) + 100).map { $0 * 4 }
            for activation in allActivations {
                let reference = try Mul(lhsShape: shape, rhsShape: shape, activation: activation, variant: .reference)
                let fast = try Mul(lhsShape: shape, rhsShape: shape, activation: activation)
                #expect(fast.variant == .simd)
                let expected = broadcastProduct(a, shape, b, shape, activation)
                #expect(reference.apply(a, b) == expected, "\(count) \(activation)")
                #expect(fast.apply(a, b) == expected, "\(count) \(activation)")
                let split = fast.applySplit(a, b)
                #expect(split.pieces == expected && split.rows == expected, "\(count) \(activation) split")
                let baseline = try Mul(lhsShape: shape, rhsShape: shape, activation: activation, instructionSet: .baseline)
                #expect(baseline.apply(a, b) == expected, "\(count) \(activation) baseline")
            }
        }
    }

    static let broadcastCases: [(Shape4, Shape4)] = [
        // Selfie segmentation's channel scales and the attention mesh's scalar product.
        (Shape4(h: 16, w: 16, c: 96), Shape4(h: 1, w: 1, c: 96)),
        (Shape4(h: 9, w: 16, c: 24), Shape4(h: 1, w: 1, c: 24)),
        (Shape4(h: 1, w: 1, c: 16), Shape4(n: 2, h: 3, w: 5, c: 16)),
        (Shape4(h: 3, w: 5, c: 12), Shape4(h: 3, w: 1, c: 12)),
        (Shape4(h: 1, w: 468, c: 3), Shape4(h: 1, w: 1, c: 1)),
        (Shape4(h: 1, w: 1, c: 1), Shape4(h: 1, w: 468, c: 3)),
        (Shape4(h: 4, w: 5, c: 7), Shape4(h: 1, w: 1, c: 7)),
        (Shape4(h: 1, w: 1, c: 17), Shape4(h: 3, w: 5, c: 17)),
        (Shape4(h: 4, w: 5, c: 9), Shape4(h: 1, w: 5, c: 1)),
        (Shape4(h: 4, w: 5, c: 9), Shape4(h: 4, w: 1, c: 1)),
        (Shape4(h: 4, w: 5, c: 9), Shape4(h: 4, w: 5, c: 1)),
        (Shape4(n: 2, h: 1, w: 1, c: 1), Shape4(h: 3, w: 4, c: 5)),
        (Shape4(n: 2, h: 3, w: 1, c: 16), Shape4(h: 1, w: 4, c: 1)),
        (Shape4(h: 2, w: 3, c: 1), Shape4(h: 2, w: 3, c: 24)),
        (Shape4(h: 1, w: 1, c: 1), Shape4(h: 1, w: 1, c: 1)),
    ]

    @Test func broadcastingMatchesReferenceAndProducts() throws {
        for (index, (lhs, rhs)) in Self.broadcastCases.enumerated() {
            let a = randomFloats(lhs.count, seed: UInt64(index) * 2).map { $0 * 3 }
            let b = randomFloats(rhs.count, seed: UInt64(index) * 2 + 1).map { $0 * 3 }
            for activation in allActivations {
                let reference = try Mul(lhsShape: lhs, rhsShape: rhs, activation: activation, variant: .reference)
                let fast = try Mul(lhsShape: lhs, rhsShape: rhs, activation: activation)
                let expected = broadcastProduct(a, lhs, b, rhs, activation)
                #expect(fast.outputShape == reference.outputShape)
                #expect(reference.apply(a, b) == expected, "\(lhs) · \(rhs) \(activation)")
                #expect(fast.apply(a, b) == expected, "\(lhs) · \(rhs) \(activation)")
                let split = fast.applySplit(a, b)
                #expect(split.pieces == expected && split.rows == expected, "\(lhs) · \(rhs) split")
                let baseline = try Mul(lhsShape: lhs, rhsShape: rhs, activation: activation, instructionSet: .baseline)
                #expect(baseline.apply(a, b) == expected, "\(lhs) · \(rhs) \(activation) baseline")
                // Multiplication commutes to the bit: the runtime may swap the operands.
                #expect(try Mul(lhsShape: rhs, rhsShape: lhs, activation: activation).apply(b, a) == expected)
            }
        }
    }

    @Test(arguments: [KernelVariant.reference, .simd])
    func handWorked(_ variant: KernelVariant) throws {
        // [2, 1] · [3] -> [2, 3]: an outer product.
        let outer = try Mul(lhsShape: Shape4(dimensions: [2, 1]), rhsShape: Shape4(dimensions: [3]), variant: variant)
        #expect(outer.outputShape == Shape4(h: 1, w: 2, c: 3))
        #expect(outer.apply([10, -2], [1, 2, 3]) == [10, 20, 30, -2, -4, -6])
        let values: [Float] = [-3, -1.5, -0.5, 0, 0.25, 2, 4, 9]
        let expected: [FusedActivation: [Float]] = [
            .none: [-6, -3, -1, 0, 0.5, 4, 8, 18],
            .relu: [0, 0, 0, 0, 0.5, 4, 8, 18],
            .relu6: [0, 0, 0, 0, 0.5, 4, 6, 6],
            .reluN1To1: [-1, -1, -1, 0, 0.5, 1, 1, 1],
        ]
        for activation in allActivations {
            let scale = try Mul(lhsShape: Shape4(h: 1, w: 1, c: 8), rhsShape: Shape4(h: 1, w: 1, c: 1),
                                activation: activation, variant: variant)
            #expect(scale.apply(values, [2]) == expected[activation], "\(activation)")
        }
        let nan = try Mul(lhsShape: Shape4(h: 1, w: 1, c: 9), rhsShape: Shape4(h: 1, w: 1, c: 9), activation: .relu6,
                          variant: variant)
        let nans = nan.apply(Array(repeating: .nan, count: 9), Array(repeating: 1, count: 9))
        #expect(nans.allSatisfy { $0.isNaN })
    }

    @Test(arguments: [KernelVariant.reference, .simd])
    func inPlace(_ variant: KernelVariant) throws {
        let shape = Shape4(h: 3, w: 3, c: 11)
        let a = randomFloats(shape.count, seed: 1), b = randomFloats(shape.count, seed: 2)
        let mul = try Mul(lhsShape: shape, rhsShape: shape, activation: .relu6, variant: variant)
        let expected = mul.apply(a, b)
        var buffer = a
        buffer.withUnsafeMutableBufferPointer { p in
            b.withUnsafeBufferPointer { mul.run(lhs: p.baseAddress!, rhs: $0.baseAddress!, output: p.baseAddress!) }
        }
        #expect(buffer == expected)
    }

    @Test func rowLocality() throws {
        let scale = try Mul(lhsShape: Shape4(h: 4, w: 5, c: 8), rhsShape: Shape4(h: 1, w: 1, c: 8))
        #expect(scale.rowLocality?.windows == [.identity])
        #expect(scale.rowLocality?.computesRowRanges == true)
        let same = try Mul(lhsShape: Shape4(h: 4, w: 5, c: 8), rhsShape: Shape4(h: 4, w: 5, c: 8))
        #expect(same.rowLocality?.windows == [.identity, .identity])
        // The broadcast operand first: no row-locality (the runtime swaps the operands instead).
        #expect(try Mul(lhsShape: Shape4(h: 1, w: 1, c: 8), rhsShape: Shape4(h: 4, w: 5, c: 8)).rowLocality == nil)
        #expect(try Mul(lhsShape: Shape4(h: 4, w: 5, c: 8), rhsShape: Shape4(h: 4, w: 5, c: 8), variant: .reference)
            .rowLocality == nil)
    }

    @Test func invalidShapesThrow() {
        expectError(.notBroadcastable(Shape4(h: 2, w: 3, c: 4), Shape4(h: 2, w: 2, c: 4))) {
            try Mul(lhsShape: Shape4(h: 2, w: 3, c: 4), rhsShape: Shape4(h: 2, w: 2, c: 4))
        }
        expectThrows { try Mul(lhsShape: Shape4(h: 0, w: 3, c: 4), rhsShape: Shape4(h: 1, w: 3, c: 4)) }
        // Each operand is small enough; their broadcast has 2^64 elements.
        expectThrows {
            try Mul(lhsShape: Shape4(n: 1 << 32, h: 1, w: 1, c: 1), rhsShape: Shape4(n: 1, h: 1 << 32, w: 1, c: 1))
        }
    }
}
