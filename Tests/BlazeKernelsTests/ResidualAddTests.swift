import BlazeKernels
import Testing

/// The fused BlazeBlock shortcut against the operators it replaces, run one after the other: the same
/// values to the bit.
@Suite("ResidualAdd")
struct ResidualAddTests {
    /// (shortcut channels, output channels, output height, width, pooled)
    static let cases: [(Int, Int, Int, Int, Bool)] = [
        (24, 28, 5, 7, false), (28, 32, 4, 6, true), (88, 96, 3, 4, true), (96, 96, 3, 3, false),
        (5, 7, 4, 5, true), (3, 16, 2, 3, false), (30, 30, 3, 2, true), (17, 29, 2, 5, false),
    ]

    @Test("equals MAX_POOL_2D + PAD + ADD bit for bit", arguments: cases.indices)
    func matchesUnfused(index: Int) throws {
        let (cin, c, h, w, pooled) = Self.cases[index]
        let n = 2
        let factor = pooled ? 2 : 1
        let shortcutShape = Shape4(n: n, h: h * factor, w: w * factor, c: cin)
        let outputShape = Shape4(n: n, h: h, w: w, c: c)
        var shortcut = randomFloats(shortcutShape.count, seed: UInt64(10 + index))
        var main = randomFloats(outputShape.count, seed: UInt64(20 + index))
        // Signed zeros: the padding's 0 + (-0) must come out as +0, as in the unfused ADD.
        main[0] = -0.0
        shortcut[1] = -0.0
        for activation in [FusedActivation.none, .relu, .relu6] {
            for shortcutFirst in [true, false] {
                let pool = try MaxPool2D(inputShape: shortcutShape, filterH: 2, filterW: 2, strideH: 2, strideW: 2,
                                         padding: .valid)
                let pooledShape = pooled ? pool.outputShape : shortcutShape
                let pad = try Pad(inputShape: [n, h, w, cin], paddings: [(0, 0), (0, 0), (0, 0), (0, c - cin)])
                let add = try Add(lhsShape: outputShape, rhsShape: outputShape, epilogue: .clamp(activation))
                let fused = try ResidualAdd(shortcutShape: shortcutShape, outputShape: outputShape, pooled: pooled,
                                            shortcutFirst: shortcutFirst, epilogue: .clamp(activation))
                let expected = shortcut.withUnsafeBufferPointer { s in
                    main.withUnsafeBufferPointer { m in
                        let poolOut = produce(pooledShape.count) { pool.run(input: s.baseAddress!, output: $0) }
                        let padOut = (pooled ? poolOut : Array(s)).withUnsafeBufferPointer { x in
                            produce(outputShape.count) { pad.run(input: x.baseAddress!, output: $0) }
                        }
                        return padOut.withUnsafeBufferPointer { p in
                            produce(outputShape.count) { out in
                                if shortcutFirst {
                                    add.run(lhs: p.baseAddress!, rhs: m.baseAddress!, output: out)
                                } else {
                                    add.run(lhs: m.baseAddress!, rhs: p.baseAddress!, output: out)
                                }
                            }
                        }
                    }
                }
                let context = "cin \(cin) c \(c) \(h)x\(w) pooled \(pooled) \(activation) shortcut first \(shortcutFirst)"
                shortcut.withUnsafeBufferPointer { s in
                    main.withUnsafeBufferPointer { m in
                        PiecesTests.expectSameBits(
                            context, count: outputShape.count, pieceCount: fused.pieceCount, seed: UInt64(index),
                            whole: { out in out.update(from: expected, count: expected.count) },
                            piece: { fused.run(shortcut: s.baseAddress!, main: m.baseAddress!, output: $0, pieces: $1) })
                    }
                }
            }
        }
    }

    @Test("with a PRELU fused: equals ResidualAdd then PRELU bit for bit", arguments: cases.indices)
    func matchesUnfusedPReLU(index: Int) throws {
        let (cin, c, h, w, pooled) = Self.cases[index]
        let factor = pooled ? 2 : 1
        let shortcutShape = Shape4(n: 2, h: h * factor, w: w * factor, c: cin)
        let outputShape = Shape4(n: 2, h: h, w: w, c: c)
        let shortcut = randomFloats(shortcutShape.count, seed: UInt64(30 + index))
        let main = randomFloats(outputShape.count, seed: UInt64(40 + index))
        let slopes = randomFloats(c, seed: UInt64(50 + index))
        for isa in instructionSets {
            for activation in [FusedActivation.none, .relu6] {
                func make(_ epilogue: Epilogue) throws -> ResidualAdd {
                    try ResidualAdd(shortcutShape: shortcutShape, outputShape: outputShape, pooled: pooled,
                                    shortcutFirst: index % 2 == 0, epilogue: epilogue, instructionSet: isa)
                }
                let plain = try make(.clamp(activation))
                let fused = try make(Epilogue(activation: activation, slopes: slopes))
                #expect(fused.epilogue.slopes == slopes)
                let prelu = try PReLU(inputShape: outputShape, alphaShape: Shape4(n: 1, h: 1, w: 1, c: c),
                                      alpha: slopes, instructionSet: isa)
                shortcut.withUnsafeBufferPointer { s in
                    main.withUnsafeBufferPointer { m in
                        let sum = produce(outputShape.count) { plain.run(shortcut: s.baseAddress!, main: m.baseAddress!, output: $0) }
                        let expected = sum.withUnsafeBufferPointer { x in
                            produce(outputShape.count) { prelu.run(input: x.baseAddress!, output: $0) }
                        }
                        PiecesTests.expectSameBits(
                            "cin \(cin) c \(c) \(h)x\(w) pooled \(pooled) \(activation) \(isa) + PRELU",
                            count: expected.count, pieceCount: fused.pieceCount, seed: UInt64(index),
                            whole: { $0.update(from: expected, count: expected.count) },
                            piece: { fused.run(shortcut: s.baseAddress!, main: m.baseAddress!, output: $0, pieces: $1) })
                    }
                }
                #expect(throws: KernelError.self) { try make(Epilogue(slopes: Array(slopes.dropLast()))) }
                #expect(throws: KernelError.self) { try make(Epilogue(function: .silu)) }
            }
        }
    }

    @Test("shapes that do not fit are invalidShape", arguments: [
        (Shape4(n: 1, h: 4, w: 4, c: 8), Shape4(n: 1, h: 4, w: 4, c: 4), false),   // more shortcut channels
        (Shape4(n: 1, h: 4, w: 4, c: 4), Shape4(n: 1, h: 4, w: 4, c: 8), true),    // pooled but same size
        (Shape4(n: 2, h: 4, w: 4, c: 4), Shape4(n: 1, h: 4, w: 4, c: 8), false),   // batch
        (Shape4(n: 1, h: 8, w: 7, c: 4), Shape4(n: 1, h: 4, w: 4, c: 8), true),    // odd width
    ])
    func rejectsShapes(shortcut: Shape4, output: Shape4, pooled: Bool) {
        #expect(throws: KernelError.self) {
            try ResidualAdd(shortcutShape: shortcut, outputShape: output, pooled: pooled)
        }
    }
}
