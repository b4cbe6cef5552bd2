import BlazeKernels
import Testing

@Suite("Add")
struct AddTests {
    @Test func sameShapeSIMDMatchesReference() throws {
        for (index, count) in [1, 3, 7, 8, 9, 15, 16, 17, 24, 33, 100].enumerated() {
            let shape = Shape4(h: 1, w: 1, c: count)
            let a = randomFloats(count, seed: UInt64(index)), b = randomFloats(count, seed: UInt64(index) + 100)
            for activation in allActivations {
                let reference = try Add(lhsShape: shape, rhsShape: shape, epilogue: .clamp(activation), variant: .reference)
                let fast = try Add(lhsShape: shape, rhsShape: shape, epilogue: .clamp(activation))
                #expect(fast.apply(a, b) == reference.apply(a, b), "\(count) \(activation)")
            }
        }
    }

    static let broadcastCases: [(Shape4, Shape4)] = [
        (Shape4(h: 4, w: 5, c: 7), Shape4(h: 1, w: 1, c: 7)),
        (Shape4(h: 1, w: 1, c: 17), Shape4(h: 3, w: 5, c: 17)),
        (Shape4(h: 4, w: 5, c: 9), Shape4(h: 1, w: 5, c: 1)),
        (Shape4(n: 2, h: 1, w: 1, c: 1), Shape4(h: 3, w: 4, c: 5)),
        (Shape4(h: 3, w: 1, c: 16), Shape4(h: 1, w: 4, c: 1)),
        (Shape4(h: 2, w: 3, c: 1), Shape4(h: 2, w: 3, c: 24)),
        (Shape4(h: 1, w: 1, c: 1), Shape4(h: 1, w: 1, c: 1)),
    ]

    @Test func broadcastingSIMDMatchesReference() throws {
        for (index, (lhs, rhs)) in Self.broadcastCases.enumerated() {
            let a = randomFloats(lhs.count, seed: UInt64(index) * 2), b = randomFloats(rhs.count, seed: UInt64(index) * 2 + 1)
            let activation = allActivations[index % 4]
            let reference = try Add(lhsShape: lhs, rhsShape: rhs, epilogue: .clamp(activation), variant: .reference)
            let fast = try Add(lhsShape: lhs, rhsShape: rhs, epilogue: .clamp(activation))
            #expect(fast.outputShape == reference.outputShape)
            #expect(fast.apply(a, b) == reference.apply(a, b), "\(lhs) + \(rhs)")
        }
    }

    @Test(arguments: [KernelVariant.reference, .simd])
    func handWorkedBroadcast(_ variant: KernelVariant) throws {
        // [2, 1] + [1, 3] -> [2, 3], as [1, 2, 1, 1] and [1, 1, 1, 3] ... with channels last: [1, 1, 2, 1] + [1, 1, 1, 3].
        let add = try Add(lhsShape: Shape4(dimensions: [2, 1]), rhsShape: Shape4(dimensions: [3]), variant: variant)
        #expect(add.outputShape == Shape4(h: 1, w: 2, c: 3))
        #expect(add.apply([10, 20], [1, 2, 3]) == [11, 12, 13, 21, 22, 23])
        let relu = try Add(lhsShape: Shape4(h: 1, w: 1, c: 4), rhsShape: Shape4(h: 1, w: 1, c: 1),
                           epilogue: .clamp(.relu), variant: variant)
        #expect(relu.apply([-2, -1, 0, 3], [0.5]) == [0, 0, 0.5, 3.5])
    }

    @Test(arguments: [KernelVariant.reference, .simd])
    func inPlace(_ variant: KernelVariant) throws {
        let shape = Shape4(h: 3, w: 3, c: 11)
        let a = randomFloats(shape.count, seed: 1), b = randomFloats(shape.count, seed: 2)
        let add = try Add(lhsShape: shape, rhsShape: shape, epilogue: .clamp(.relu6), variant: variant)
        let expected = add.apply(a, b)
        var buffer = a
        buffer.withUnsafeMutableBufferPointer { p in
            b.withUnsafeBufferPointer { add.run(lhs: p.baseAddress!, rhs: $0.baseAddress!, output: p.baseAddress!) }
        }
        #expect(buffer == expected)
        // In place into the full-size operand of a broadcast.
        let bias = try Add(lhsShape: Shape4(h: 1, w: 1, c: 11), rhsShape: shape, variant: variant)
        let row = randomFloats(11, seed: 3)
        let broadcastExpected = bias.apply(row, b)
        var inPlace = b
        inPlace.withUnsafeMutableBufferPointer { p in
            row.withUnsafeBufferPointer { bias.run(lhs: $0.baseAddress!, rhs: p.baseAddress!, output: p.baseAddress!) }
        }
        #expect(inPlace == broadcastExpected)
    }

    @Test func notBroadcastableThrows() {
        expectError(.notBroadcastable(Shape4(h: 2, w: 3, c: 4), Shape4(h: 2, w: 2, c: 4))) {
            try Add(lhsShape: Shape4(h: 2, w: 3, c: 4), rhsShape: Shape4(h: 2, w: 2, c: 4))
        }
        expectThrows { try Add(lhsShape: Shape4(h: 0, w: 3, c: 4), rhsShape: Shape4(h: 1, w: 3, c: 4)) }
        expectThrows { try Shape4(dimensions: [1, 2, 3, 4, 5]) }
        expectThrows { try Shape4(dimensions: [1, -2]) }
    }

    /// Each operand is small enough; their broadcast has 2^64 elements, which an `Int` does not count: refused at
    /// creation (it used to pass, and counting the output then trapped), for ADD and for PRELU's broadcast alike.
    @Test func overflowingBroadcastThrows() {
        let lhs = Shape4(n: 1 << 32, h: 1, w: 1, c: 1), rhs = Shape4(n: 1, h: 1 << 32, w: 1, c: 1)
        expectError(.invalidShape("broadcast of \(lhs) and \(rhs) is too large")) {
            try Add(lhsShape: lhs, rhsShape: rhs)
        }
        let huge = Shape4(n: 1 << 32, h: 1 << 32, w: 1, c: 1), one = Shape4(n: 1, h: 1, w: 1, c: 1)
        expectError(.invalidShape("broadcast of \(huge) and \(one) is too large")) {
            try PReLU(inputShape: huge, alphaShape: one, alpha: [0.25])
        }
    }
}

@Suite("Activation")
struct ActivationTests {
    @Test func handWorked() throws {
        let input: [Float] = [-7, -1.5, -1, -0.25, 0, 0.5, 1, 5.5, 6, 9]
        let expected: [FusedActivation: [Float]] = [
            .none: input,
            .relu: [0, 0, 0, 0, 0, 0.5, 1, 5.5, 6, 9],
            .relu6: [0, 0, 0, 0, 0, 0.5, 1, 5.5, 6, 6],
            .reluN1To1: [-1, -1, -1, -0.25, 0, 0.5, 1, 1, 1, 1],
        ]
        for function in allActivations {
            for variant in [KernelVariant.reference, .simd] {
                let activation = try Activation(count: input.count, function: function, variant: variant)
                #expect(activation.apply(input) == expected[function], "\(function) \(variant)")
            }
        }
    }

    @Test func simdMatchesReferenceInPlace() throws {
        for count in [0, 1, 7, 8, 9, 17, 33] {
            let input = randomFloats(count, seed: UInt64(count)).map { $0 * 8 }
            for function in allActivations {
                let expected = try Activation(count: count, function: function, variant: .reference).apply(input)
                let fast = try Activation(count: count, function: function)
                var buffer = input
                buffer.withUnsafeMutableBufferPointer { p in
                    if let base = p.baseAddress { fast.run(input: base, output: base) }
                }
                #expect(buffer == expected)
            }
        }
    }

    @Test func nanPassesThrough() throws {
        for variant in [KernelVariant.reference, .simd] {
            let output = try Activation(count: 9, function: .relu6, variant: variant).apply(Array(repeating: .nan, count: 9))
            #expect(output.allSatisfy { $0.isNaN })
        }
        expectThrows { try Activation(count: -1, function: .relu) }
    }
}

@Suite("PReLU")
struct PReLUTests {
    @Test(arguments: [KernelVariant.reference, .simd])
    func handWorked(_ variant: KernelVariant) throws {
        // [1, 2, 1, 3] with alpha [3] (rank 1: broadcast over the channels).
        let prelu = try PReLU(inputShape: Shape4(h: 2, w: 1, c: 3), alphaShape: Shape4(dimensions: [3]),
                              alpha: [0.5, 2, -1], variant: variant)
        #expect(prelu.apply([-2, -2, -2, 4, 0, -3]) == [-1, -4, 2, 4, 0, 3])
    }

    static let cases: [(Shape4, Shape4)] = [
        (Shape4(h: 4, w: 5, c: 7), Shape4(h: 1, w: 1, c: 7)),
        (Shape4(h: 3, w: 3, c: 33), Shape4(h: 1, w: 1, c: 33)),
        (Shape4(h: 4, w: 5, c: 16), Shape4(h: 4, w: 1, c: 1)),
        (Shape4(h: 2, w: 3, c: 9), Shape4(h: 2, w: 3, c: 9)),
        (Shape4(h: 1, w: 1, c: 1), Shape4(h: 2, w: 2, c: 17)),
        (Shape4(n: 2, h: 3, w: 1, c: 8), Shape4(h: 1, w: 4, c: 8)),
    ]

    @Test func simdMatchesReference() throws {
        for (index, (inputShape, alphaShape)) in Self.cases.enumerated() {
            let input = randomFloats(inputShape.count, seed: UInt64(index) + 40)
            let alpha = randomFloats(alphaShape.count, seed: UInt64(index) + 80)
            let reference = try PReLU(inputShape: inputShape, alphaShape: alphaShape, alpha: alpha, variant: .reference)
            let fast = try PReLU(inputShape: inputShape, alphaShape: alphaShape, alpha: alpha)
            #expect(fast.variant == .simd)
            #expect(fast.apply(input) == reference.apply(input), "\(inputShape) alpha \(alphaShape)")
        }
    }

    @Test func invalidParametersThrow() {
        expectError(.weightCountMismatch(name: "alpha", expected: 3, actual: 2)) {
            try PReLU(inputShape: Shape4(h: 2, w: 2, c: 3), alphaShape: Shape4(h: 1, w: 1, c: 3), alpha: [1, 2])
        }
        expectThrows {
            try PReLU(inputShape: Shape4(h: 2, w: 2, c: 3), alphaShape: Shape4(h: 1, w: 1, c: 2), alpha: [1, 2])
        }
    }

    @Test("ADD and MUL of a picture and one vector of channels: the channel-pattern loops give the reference's bits",
          arguments: instructionSets)
    func channelVectors(instructionSet: KernelInstructionSet) throws {
        for c in [1, 2, 3, 5, 7, 8, 9, 16, 24, 31, 33, 40] {
            let full = Shape4(n: 2, h: 3, w: 11, c: c), vector = Shape4(n: 1, h: 1, w: 1, c: c)
            let x = randomFloats(full.count, seed: UInt64(c)), v = randomFloats(c, seed: UInt64(100 + c))
            for (lhs, rhs, a, b) in [(full, vector, x, v), (vector, full, v, x)] {
                for multiply in [false, true] {
                    func run(_ variant: KernelVariant) throws -> [Float] {
                        if multiply {
                            let k = try Mul(lhsShape: lhs, rhsShape: rhs, activation: .relu6, variant: variant,
                                            instructionSet: instructionSet)
                            return k.apply(a, b)
                        }
                        let k = try Add(lhsShape: lhs, rhsShape: rhs, epilogue: .clamp(.relu6), variant: variant,
                                        instructionSet: instructionSet)
                        return k.apply(a, b)
                    }
                    let expected = try run(.reference), actual = try run(.simd)
                    #expect(actual.map(\.bitPattern) == expected.map(\.bitPattern),
                            "\(multiply ? "MUL" : "ADD") \(lhs) \(rhs) on \(instructionSet)")
                }
            }
        }
    }
}
