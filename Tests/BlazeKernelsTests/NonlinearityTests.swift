import BlazeKernels
import Foundation
import Testing

extension Nonlinearity {
    func apply(_ input: [Float]) -> [Float] {
        input.withUnsafeBufferPointer { x in produce(count) { run(input: x.baseAddress!, output: $0) } }
    }

    /// The output computed in ragged ranges of pieces, then in ranges of rows.
    func applySplit(_ input: [Float]) -> (pieces: [Float], rows: [Float]) {
        input.withUnsafeBufferPointer { x in
            let pieces = produce(count) { out in
                var start = 0, step = 1
                while start < pieceCount {
                    let end = min(start + step, pieceCount)
                    run(input: x.baseAddress!, output: out, pieces: start..<end)
                    (start, step) = (end, step + 1)
                }
            }
            let rows = produce(count) { out in
                let rows = shape.n * shape.h
                for (a, b) in [(0, rows / 3), (rows / 3, rows / 3 + 1), (rows / 3 + 1, rows)] where a < b {
                    run(input: x.baseAddress!, output: out, outputRows: a..<b)
                }
            }
            return (pieces, rows)
        }
    }
}

/// Distance in units in the last place between two finite floats of the same sign (or both zero).
func ulps(_ a: Float, _ b: Float) -> Int {
    if a == b { return 0 }
    guard a.sign == b.sign else { return Int.max }
    return abs(Int(a.bitPattern) - Int(b.bitPattern))
}

@Suite("Nonlinearity (LOGISTIC, HARD_SWISH)")
struct NonlinearityTests {
    /// Values across every branch of both functions: the logistic's cutoffs and the hard swish's knees, ±0,
    /// tiny, huge and infinite inputs.
    static let edges: [Float] = [
        0, -0, 1e-30, -1e-30, 0.5, -0.5, 1, -1, 2.9999, -2.9999, 3, -3, 3.0001, -3.0001, 6, -6, 8.999, -8.999,
        9, -9, 9.001, -9.001, 16.619047, 16.619049, -16.62, 20, -20, 50, -50, 87, -87, -87.5, -88, -90, -100,
        -103, -104, 88, 89, 1e10, -1e10, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .infinity, -.infinity,
    ]

    static func inputs(_ count: Int, seed: UInt64) -> [Float] {
        let random = randomFloats(count, seed: seed).map { $0 * 24 }
        return (0..<count).map { $0 % 5 == 4 ? edges[($0 / 5) % edges.count] : random[$0] }
    }

    @Test func referenceMatchesTheFormulasComputedHere() throws {
        let x = Self.edges + randomFloats(300, seed: 7).map { $0 * 30 }
        let shape = Shape4(h: 1, w: 1, c: x.count)
        let logistic = try Nonlinearity(shape: shape, function: .logistic, variant: .reference).apply(x)
        let hardSwish = try Nonlinearity(shape: shape, function: .hardSwish, variant: .reference).apply(x)
        for (i, v) in x.enumerated() {
            // TFLite's reference_ops::Logistic and HardSwish for float, in Double where exact enough.
            let sigmoid: Float = v > 16.619047164916992188 ? 1 : v < -9 ? Float(Foundation.exp(Double(v)))
                : Float(1 / (1 + Foundation.exp(-Double(v))))
            #expect(ulps(logistic[i], sigmoid) <= 2 || abs(logistic[i] - sigmoid) < 1e-37, "logistic(\(v))")
            let swish: Float = v * min(max(v + 3, 0), 6) / 6
            #expect(hardSwish[i] == swish || (hardSwish[i].isNaN && swish.isNaN), "hard swish(\(v))")
        }
        #expect(logistic[Self.edges.firstIndex(of: 20)!] == 1)
        #expect(logistic[Self.edges.firstIndex(of: 0)!] == 0.5)
        #expect(hardSwish[Self.edges.firstIndex(of: -3)!] == 0 && hardSwish[Self.edges.firstIndex(of: 3)!] == 3)
        #expect(hardSwish[Self.edges.firstIndex(of: -.infinity)!].isNaN)
    }

    @Test("SIMD matches the reference on every length, instruction set, piece and row range",
          arguments: [Nonlinearity.Function.logistic, .hardSwish])
    func simdMatchesReference(function: Nonlinearity.Function) throws {
        let shapes = [1, 3, 7, 8, 9, 15, 16, 17, 33, 100].map { Shape4(h: 1, w: 1, c: $0) }
            + [Shape4(h: 5, w: 7, c: 3), Shape4(h: 33, w: 20, c: 8), Shape4(n: 2, h: 16, w: 16, c: 16),
               Shape4(h: 1, w: 4100, c: 1)]
        for (index, shape) in shapes.enumerated() {
            let x = Self.inputs(shape.count, seed: UInt64(index))
            let expected = try Nonlinearity(shape: shape, function: function, variant: .reference).apply(x)
            for set in [nil, KernelInstructionSet.baseline] {
                let fast = try Nonlinearity(shape: shape, function: function, instructionSet: set)
                #expect(fast.variant == .simd)
                let y = fast.apply(x)
                for i in 0..<x.count {
                    let close = function == .hardSwish
                        ? y[i].bitPattern == expected[i].bitPattern || (y[i].isNaN && expected[i].isNaN)
                        : ulps(y[i], expected[i]) <= 2 || abs(y[i] - expected[i]) < 1.2e-38
                    #expect(close, "\(function) \(shape) \(String(describing: set)) x=\(x[i]): \(y[i]) vs \(expected[i])")
                    if !close { break }
                }
                let split = fast.applySplit(x)
                #expect(split.pieces.map(\.bitPattern) == y.map(\.bitPattern), "\(function) \(shape) pieces")
                #expect(split.rows.map(\.bitPattern) == y.map(\.bitPattern), "\(function) \(shape) rows")
            }
        }
    }

    @Test("LOGISTIC and SiLU within 2 ulp of the reference on a dense sweep of [-90, 20], every instruction set",
          arguments: [KernelInstructionSet.baseline, .avx2FMA, .avx512].filter(\.isSupported))
    func logisticSweep(instructionSet: KernelInstructionSet) throws {
        // Every 2^-10 over the branches (exp(x) below -9, the quotient from -9 to 16.6, 1 above), plus the
        // neighbours of the cutoffs.
        let x = stride(from: Float(-90), through: 20, by: 1 / 1024) + [-9, 16.619047, 16.619049, -87.33654]
            .flatMap { [$0.nextDown, $0, $0.nextUp] }
        let shape = Shape4(h: 1, w: 1, c: x.count)
        let expected = try Nonlinearity(shape: shape, function: .logistic, variant: .reference).apply(x)
        let fast = try Nonlinearity(shape: shape, function: .logistic, instructionSet: instructionSet).apply(x)
        let silu = try Nonlinearity(shape: shape, function: .silu, instructionSet: instructionSet).apply(x)
        var worst = 0
        for i in x.indices where abs(expected[i]) >= 1.2e-38 {
            worst = max(worst, ulps(fast[i], expected[i]))
            #expect(silu[i].bitPattern == (x[i] * fast[i]).bitPattern, "SiLU(\(x[i])) is not x · logistic(x)")
        }
        #expect(worst <= 2, "\(instructionSet): worst \(worst) ulp")
    }

    @Test func nanPassesThroughAndInPlaceWorks() throws {
        for function in [Nonlinearity.Function.logistic, .hardSwish] {
            for variant in [KernelVariant.reference, .simd] {
                let x: [Float] = [.nan, 1, .nan, -20, 0, 4, 2, -2, .nan]
                let kernel = try Nonlinearity(shape: Shape4(h: 1, w: 1, c: x.count), function: function, variant: variant)
                let y = kernel.apply(x)
                #expect(y[0].isNaN && y[2].isNaN && y[8].isNaN && !y[1].isNaN, "\(function) \(variant)")
                var buffer = x
                buffer.withUnsafeMutableBufferPointer { kernel.run(input: $0.baseAddress!, output: $0.baseAddress!) }
                #expect(buffer.map(\.bitPattern) == y.map(\.bitPattern), "\(function) \(variant) in place")
            }
        }
    }

    @Test func rowLocalityAndPlanDescription() throws {
        let kernel = try Nonlinearity(shape: Shape4(h: 4, w: 3, c: 2), function: .hardSwish)
        #expect(kernel.rowLocality == RowLocality(windows: [.identity], output: kernel.shape, computesRowRanges: true))
        #expect(kernel.planDescription == "Nonlinearity.hardSwish.simd")
        #expect(try Nonlinearity(shape: Shape4(n: 2, h: 4, w: 3, c: 2), function: .logistic).rowLocality == nil)
        #expect(throws: KernelError.self) { try Nonlinearity(shape: Shape4(h: 0, w: 3, c: 2), function: .logistic) }
    }
}
