import BlazeKernels
import Testing

@Suite("Pad")
struct PadTests {
    @Test(arguments: [KernelVariant.reference, .simd])
    func spatialAndChannelPadding(_ variant: KernelVariant) throws {
        let pad = try Pad(inputShape: [1, 2, 2, 1], paddings: [(0, 0), (1, 0), (0, 1), (1, 1)], constantValue: 9,
                          variant: variant)
        #expect(pad.outputDimensions == [1, 3, 3, 3])
        #expect(pad.outputShape == Shape4(h: 3, w: 3, c: 3))
        let expected: [Float] = Array(repeating: 9, count: 9)
            + [9, 1, 9, 9, 2, 9, 9, 9, 9]
            + [9, 3, 9, 9, 4, 9, 9, 9, 9]
        #expect(pad.apply([1, 2, 3, 4]) == expected)
    }

    @Test(arguments: [KernelVariant.reference, .simd])
    func lowerRankAndBatchPadding(_ variant: KernelVariant) throws {
        let matrix = try Pad(inputShape: [2, 3], paddings: [(1, 0), (0, 2)], variant: variant)
        #expect(matrix.outputDimensions == [3, 5])
        #expect(matrix.apply([1, 2, 3, 4, 5, 6]) == [0, 0, 0, 0, 0, 1, 2, 3, 0, 0, 4, 5, 6, 0, 0])
        let batch = try Pad(inputShape: [1, 1, 1, 2], paddings: [(1, 1), (0, 0), (0, 0), (0, 0)], variant: variant)
        #expect(batch.apply([7, 8]) == [0, 0, 7, 8, 0, 0])
    }

    @Test func simdMatchesReference() throws {
        let cases: [([Int], [(before: Int, after: Int)])] = [
            ([1, 16, 16, 24], [(0, 0), (0, 0), (0, 0), (0, 8)]),
            ([1, 7, 7, 3], [(0, 0), (1, 2), (2, 1), (0, 0)]),
            ([2, 3, 5, 9], [(1, 0), (0, 1), (1, 1), (3, 4)]),
            ([1, 1, 1, 1], [(0, 0), (0, 0), (0, 0), (0, 0)]),
            ([5, 17], [(2, 3), (1, 0)]),
        ]
        for (index, (shape, paddings)) in cases.enumerated() {
            let input = randomFloats(shape.reduce(1, *), seed: UInt64(index))
            let reference = try Pad(inputShape: shape, paddings: paddings, constantValue: -0.5, variant: .reference)
            let fast = try Pad(inputShape: shape, paddings: paddings, constantValue: -0.5)
            #expect(fast.apply(input) == reference.apply(input), "\(shape)")
        }
    }

    @Test func invalidParametersThrow() {
        expectThrows { try Pad(inputShape: [1, 2, 2, 1], paddings: [(0, 0), (-1, 0), (0, 0), (0, 0)]) }
        expectThrows { try Pad(inputShape: [1, 2, 2, 1], paddings: [(0, 0), (0, 0), (0, -2), (0, 0)]) }
        expectThrows { try Pad(inputShape: [1, 2, 2, 1], paddings: [(0, 0), (1, 1)]) }
        expectThrows { try Pad(inputShape: [1, 2, 2, 1, 1], paddings: Array(repeating: (0, 0), count: 5)) }
        expectThrows { try Pad(inputShape: [1, 0, 2, 1], paddings: Array(repeating: (0, 0), count: 4)) }
    }
}

@Suite("Concatenation")
struct ConcatenationTests {
    @Test(arguments: [KernelVariant.reference, .simd])
    func eachAxis(_ variant: KernelVariant) throws {
        let a: [Float] = [1, 2, 3, 4]  // [1, 1, 2, 2]
        func concat(_ shapes: [[Int]], _ axis: Int, _ inputs: [[Float]]) throws -> ([Float], [Int]) {
            let kernel = try Concatenation(inputShapes: shapes, axis: axis, variant: variant)
            return (kernel.apply(inputs), kernel.outputDimensions)
        }
        #expect(try concat([[1, 1, 2, 2], [1, 1, 2, 1]], 3, [a, [5, 6]]) == ([1, 2, 5, 3, 4, 6], [1, 1, 2, 3]))
        #expect(try concat([[1, 1, 2, 2], [1, 1, 1, 2]], 2, [a, [5, 6]]) == ([1, 2, 3, 4, 5, 6], [1, 1, 3, 2]))
        #expect(try concat([[1, 1, 2, 2], [1, 2, 2, 2]], 1, [a, (5...12).map(Float.init)])
                == ((1...12).map(Float.init), [1, 3, 2, 2]))
        #expect(try concat([[1, 1, 2, 2], [1, 1, 2, 2]], 0, [a, [5, 6, 7, 8]]) == ((1...8).map(Float.init), [2, 1, 2, 2]))
        // Axis 1 with an outer dimension: [2, 1, 1, 1] ++ [2, 2, 1, 1].
        #expect(try concat([[2, 1, 1, 1], [2, 2, 1, 1]], 1, [[1, 2], [3, 4, 5, 6]]) == ([1, 3, 4, 2, 5, 6], [2, 3, 1, 1]))
        // Rank 2 with a negative axis.
        #expect(try concat([[2, 1], [2, 2]], -1, [[1, 2], [3, 4, 5, 6]]) == ([1, 3, 4, 2, 5, 6], [2, 3]))
    }

    @Test func simdMatchesReference() throws {
        let base = [2, 3, 5, 4]
        for axis in 0..<4 {
            for activation in allActivations {
                var shapes: [[Int]] = []
                for extra in [1, 3, 9] {
                    var shape = base
                    shape[axis] = extra
                    shapes.append(shape)
                }
                let inputs = shapes.enumerated().map { randomFloats($1.reduce(1, *), seed: UInt64($0 + 10 * axis)).map { $0 * 8 } }
                let reference = try Concatenation(inputShapes: shapes, axis: axis, activation: activation, variant: .reference)
                let fast = try Concatenation(inputShapes: shapes, axis: axis, activation: activation)
                #expect(fast.variant == .simd)
                #expect(fast.apply(inputs) == reference.apply(inputs), "axis \(axis) \(activation)")
            }
        }
    }

    @Test func invalidParametersThrow() {
        expectThrows { try Concatenation(inputShapes: [], axis: 0) }
        expectThrows { try Concatenation(inputShapes: [[1, 2, 3], [1, 2, 4]], axis: 1) }
        expectThrows { try Concatenation(inputShapes: [[1, 2, 3], [1, 2]], axis: 1) }
        expectThrows { try Concatenation(inputShapes: [[1, 2, 3], [1, 2, 3]], axis: 3) }
        expectThrows { try Concatenation(inputShapes: [[1, 2, 3], [1, 2, 3]], axis: -4) }
        expectThrows { try Concatenation(inputShapes: [[1, 1, 1, 1, 2]], axis: 0) }
    }
}

@Suite("DepthToSpace")
struct DepthToSpaceTests {
    @Test(arguments: [KernelVariant.reference, .simd])
    func ordering(_ variant: KernelVariant) throws {
        let single = try DepthToSpace(inputShape: Shape4(h: 1, w: 1, c: 4), blockSize: 2, variant: variant)
        #expect(single.outputShape == Shape4(h: 2, w: 2, c: 1))
        #expect(single.apply([0, 1, 2, 3]) == [0, 1, 2, 3])
        // Two output channels: (by, bx) blocks of 2 channels each.
        let two = try DepthToSpace(inputShape: Shape4(h: 1, w: 1, c: 8), blockSize: 2, variant: variant)
        #expect(two.apply((0..<8).map(Float.init)) == (0..<8).map(Float.init))
        // Two input pixels side by side: the output rows interleave them.
        let wide = try DepthToSpace(inputShape: Shape4(h: 1, w: 2, c: 4), blockSize: 2, variant: variant)
        #expect(wide.apply([0, 1, 2, 3, 10, 11, 12, 13]) == [0, 1, 10, 11, 2, 3, 12, 13])
    }

    @Test func matchesFormula() throws {
        let shape = Shape4(n: 2, h: 3, w: 5, c: 18)
        let b = 3
        let input = randomFloats(shape.count, seed: 99)
        let outC = shape.c / (b * b)
        var expected: [Float] = []
        for n in 0..<2 {
            for y in 0..<(3 * b) {
                for x in 0..<(5 * b) {
                    for c in 0..<outC {
                        let ic = ((y % b) * b + x % b) * outC + c
                        expected.append(input[((n * 3 + y / b) * 5 + x / b) * shape.c + ic])
                    }
                }
            }
        }
        for variant in [KernelVariant.reference, .simd] {
            #expect(try DepthToSpace(inputShape: shape, blockSize: b, variant: variant).apply(input) == expected)
        }
    }

    @Test func invalidParametersThrow() {
        expectThrows { try DepthToSpace(inputShape: Shape4(h: 2, w: 2, c: 6), blockSize: 2) }
        expectThrows { try DepthToSpace(inputShape: Shape4(h: 2, w: 2, c: 4), blockSize: 0) }
        expectThrows { try DepthToSpace(inputShape: Shape4(h: 2, w: 2, c: 4), blockSize: -2) }
    }
}
