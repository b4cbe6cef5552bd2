@testable import BlazeKernels
import Testing

/// Every instruction set this machine can run: the baseline always, AVX2/FMA and AVX-512 where the CPU has them.
/// The microkernels are compiled once per instruction set, so each fast path is checked against the reference
/// on every build.
let instructionSets: [KernelInstructionSet] = [.baseline, .avx2FMA, .avx512].filter(\.isSupported)

@Suite("Instruction sets")
struct InstructionSetTests {
    @Test func activeIsTheBestSupported() {
        #expect(KernelInstructionSet.baseline.isSupported)
        #expect(KernelInstructionSet.active.isSupported)
        #if arch(x86_64)
        // Unless the environment forces the baseline, the CPU decides.
        if getenvString("BLAZEFACE_KERNEL_ISA") == nil {
            let best: KernelInstructionSet = KernelInstructionSet.avx512.isSupported ? .avx512
                : KernelInstructionSet.avx2FMA.isSupported ? .avx2FMA : .baseline
            #expect(KernelInstructionSet.active == best)
        }
        #else
        #expect(KernelInstructionSet.active == .baseline)
        #expect(!KernelInstructionSet.avx2FMA.isSupported)
        #expect(!KernelInstructionSet.avx512.isSupported)
        #endif
    }

    @Test func requestedInstructionSetIsRecorded() throws {
        for isa in instructionSets {
            let conv = try Conv2D(inputShape: Shape4(h: 4, w: 4, c: 2), filterShape: Shape4(n: 3, h: 3, w: 3, c: 2),
                                  filter: Array(repeating: 0.5, count: 54), padding: .same, instructionSet: isa)
            #expect(conv.instructionSet == isa)
            let pointwise = try Conv2D(inputShape: Shape4(h: 4, w: 4, c: 2), filterShape: Shape4(n: 3, h: 1, w: 1, c: 2),
                                       filter: Array(repeating: 0.5, count: 6), padding: .same, instructionSet: isa)
            #expect(pointwise.instructionSet == isa)
        }
        // An unsupported request falls back to the baseline instead of faulting.
        let fallback = KernelInstructionSet.resolve(.avx2FMA)
        #expect(fallback == (KernelInstructionSet.avx2FMA.isSupported ? .avx2FMA : .baseline))
        #expect(KernelInstructionSet.resolve(.avx512) == (KernelInstructionSet.avx512.isSupported ? .avx512 : .baseline))
    }

    /// The AVX-512 GEMM tiles (8 rows of one 16-lane vector) make each output value with the AVX2 tiles'
    /// operations in the same order: the same bits, for pointwise and implicit-GEMM convolutions with every
    /// epilogue, whole and in pieces.
    @Test(.enabled(if: KernelInstructionSet.avx512.isSupported && KernelInstructionSet.avx2FMA.isSupported))
    func avx512MatchesAVX2() throws {
        var rng = SystemRandomNumberGenerator()
        for (shape, filter, activation) in [(Shape4(h: 7, w: 9, c: 13), Shape4(n: 37, h: 1, w: 1, c: 13), FusedActivation.relu6),
                                            (Shape4(h: 11, w: 10, c: 5), Shape4(n: 21, h: 3, w: 3, c: 5), .none),
                                            (Shape4(h: 12, w: 12, c: 16), Shape4(n: 32, h: 1, w: 1, c: 16), .relu)] {
            let weights = (0..<filter.count).map { _ in Float.random(in: -1...1, using: &rng) }
            let bias = (0..<filter.n).map { _ in Float.random(in: -1...1, using: &rng) }
            let input = (0..<shape.count).map { _ in Float.random(in: -2...2, using: &rng) }
            var outputs: [[UInt32]] = []
            for isa in [KernelInstructionSet.avx2FMA, .avx512] {
                let conv = try Conv2D(inputShape: shape, filterShape: filter, filter: weights, bias: bias,
                                      padding: .same, epilogue: .clamp(activation), instructionSet: isa)
                var output = [Float](repeating: .nan, count: conv.outputShape.count)
                input.withUnsafeBufferPointer { x in
                    output.withUnsafeMutableBufferPointer { conv.run(input: x.baseAddress!, output: $0.baseAddress!) }
                }
                outputs.append(output.map(\.bitPattern))
            }
            #expect(outputs[0] == outputs[1], "\(shape) * \(filter)")
        }
    }
}

func getenvString(_ name: String) -> String? {
    #if canImport(Glibc)
    guard let value = getenv(name) else { return nil }
    return String(cString: value)
    #else
    return nil
    #endif
}

#if canImport(Glibc)
import Glibc
#endif

@Suite("Fast paths on every instruction set")
struct FastPathTests {
    /// Rows around the 6- and 8-row tiles and the 48-row chunk, columns around the 8/16 panels and their
    /// overlapping last panel (including fewer than 8, the only partial case), assorted depths.
    @Test(arguments: instructionSets)
    func pointwise(_ isa: KernelInstructionSet) throws {
        let rows = [1, 5, 6, 7, 8, 9, 13, 48, 49, 100]
        let depths = [1, 3, 24, 33]
        let columns = [1, 2, 6, 7, 8, 9, 12, 15, 16, 17, 23, 24, 28, 33, 36, 42, 48]
        var index = 0
        for n in columns {
            for k in depths {
                let m = rows[index % rows.count]
                let activation = allActivations[index % 4]
                index += 1
                let shape = Shape4(h: 1, w: m, c: k)
                let input = randomFloats(m * k, seed: UInt64(index) * 3 + 1)
                let filter = randomFloats(n * k, seed: UInt64(index) * 3 + 2)
                let bias = randomFloats(n, seed: UInt64(index) * 3 + 3)
                let reference = try PointwiseConv2D(inputShape: shape, outputChannels: n, filter: filter, bias: bias,
                                                    epilogue: .clamp(activation), variant: .reference)
                let fast = try PointwiseConv2D(inputShape: shape, outputChannels: n, filter: filter, bias: bias,
                                               epilogue: .clamp(activation), variant: .simd, instructionSet: isa)
                #expect(fast.instructionSet == isa)
                expectClose(fast.apply(input), reference.apply(input), "M\(m) K\(k) N\(n) \(activation) \(isa)")
            }
        }
    }

    /// The implicit-GEMM convolution: kernel sizes 1...5, strides 1 and 2, both paddings, odd sizes, channel
    /// counts around the panels, every activation, two batches.
    @Test(arguments: instructionSets)
    func convolution(_ isa: KernelInstructionSet) throws {
        let geometries: [(kernel: Int, stride: Int, padding: Padding)] = [
            (1, 2, .valid), (2, 2, .valid), (2, 2, .same), (3, 1, .same), (3, 2, .same), (3, 2, .valid),
            (5, 2, .same), (5, 1, .same), (4, 1, .valid), (3, 1, .valid), (5, 2, .valid),
        ]
        let channels = [(1, 1), (3, 24), (3, 16), (3, 32), (8, 7), (9, 12), (4, 17), (2, 28), (5, 33)]
        let sizes = [(1, 1), (2, 3), (5, 7), (9, 8), (13, 11), (16, 16), (12, 17)]
        var index = 0
        for (inC, outC) in channels {
            for g in geometries {
                let (h, w) = sizes[index % sizes.count]
                let activation = allActivations[index % 4]
                let batches = 1 + index % 2
                index += 1
                guard WindowGeometry(inputH: h, inputW: w, kernelH: g.kernel, kernelW: g.kernel, strideH: g.stride,
                                     strideW: g.stride, padding: g.padding) != nil else { continue }
                let inputShape = Shape4(n: batches, h: h, w: w, c: inC)
                let filterShape = Shape4(n: outC, h: g.kernel, w: g.kernel, c: inC)
                let input = randomFloats(inputShape.count, seed: UInt64(index) * 5)
                let filter = randomFloats(filterShape.count, seed: UInt64(index) * 5 + 1)
                let bias = randomFloats(outC, seed: UInt64(index) * 5 + 2)
                func make(_ variant: KernelVariant) throws -> Conv2D {
                    try Conv2D(inputShape: inputShape, filterShape: filterShape, filter: filter, bias: bias,
                               strideH: g.stride, strideW: g.stride, padding: g.padding, epilogue: .clamp(activation),
                               variant: variant, instructionSet: isa)
                }
                let context = "\(inputShape) \(g.kernel)x\(g.kernel)/\(g.stride) \(inC)->\(outC) \(g.padding) \(activation) \(isa)"
                expectClose(try make(.simd).apply(input), try make(.reference).apply(input), context)
            }
        }
    }

    /// The register-blocked depthwise kernel: channels around 8 (the overlapping last group, and fewer than
    /// 8), 3x3 and 5x5 (and 2x2, 1x1), strides 1 and 2, both paddings, widths around the 8- and 4-pixel blocks.
    @Test(arguments: instructionSets)
    func depthwise(_ isa: KernelInstructionSet) throws {
        let geometries: [(kernel: Int, stride: Int, padding: Padding)] = [
            (3, 1, .same), (3, 2, .same), (3, 1, .valid), (3, 2, .valid), (5, 1, .same), (5, 2, .same),
            (2, 2, .valid), (1, 1, .valid),
        ]
        let channels = [1, 3, 7, 8, 9, 12, 15, 16, 17, 24, 28, 33, 36, 42]
        let sizes = [(1, 1), (2, 2), (3, 5), (7, 7), (8, 9), (12, 17), (16, 16), (5, 22)]
        var index = 0
        for c in channels {
            for g in geometries {
                let (h, w) = sizes[index % sizes.count]
                let activation = allActivations[index % 4]
                let batches = 1 + index % 2
                index += 1
                guard WindowGeometry(inputH: h, inputW: w, kernelH: g.kernel, kernelW: g.kernel, strideH: g.stride,
                                     strideW: g.stride, padding: g.padding) != nil else { continue }
                let inputShape = Shape4(n: batches, h: h, w: w, c: c)
                let filterShape = Shape4(n: 1, h: g.kernel, w: g.kernel, c: c)
                let input = randomFloats(inputShape.count, seed: UInt64(index) * 7)
                let filter = randomFloats(filterShape.count, seed: UInt64(index) * 7 + 1)
                let bias = randomFloats(c, seed: UInt64(index) * 7 + 2)
                func make(_ variant: KernelVariant) throws -> DepthwiseConv2D {
                    try DepthwiseConv2D(inputShape: inputShape, filterShape: filterShape, filter: filter, bias: bias,
                                        strideH: g.stride, strideW: g.stride, padding: g.padding,
                                        epilogue: .clamp(activation), variant: variant, instructionSet: isa)
                }
                let fast = try make(.simd)
                #expect(fast.isBlocked)
                let context = "\(inputShape) \(g.kernel)x\(g.kernel)/\(g.stride) \(g.padding) \(activation) \(isa)"
                expectClose(fast.apply(input), try make(.reference).apply(input), context)
            }
        }
    }

    @Test(arguments: instructionSets)
    func maxPool(_ isa: KernelInstructionSet) throws {
        let geometries: [(Int, Int, Padding)] = [(2, 2, .same), (2, 2, .valid), (3, 2, .same), (3, 1, .same), (1, 1, .valid)]
        let sizes = [(1, 1), (2, 2), (3, 5), (7, 7), (8, 9), (6, 9)]
        var index = 0
        for channels in [1, 3, 7, 8, 9, 15, 16, 17, 28, 33] {
            for (filter, stride, padding) in geometries {
                let (h, w) = sizes[index % sizes.count]
                let activation = allActivations[index % 4]
                index += 1
                guard WindowGeometry(inputH: h, inputW: w, kernelH: filter, kernelW: filter, strideH: stride,
                                     strideW: stride, padding: padding) != nil else { continue }
                let shape = Shape4(n: 1 + index % 2, h: h, w: w, c: channels)
                let input = randomFloats(shape.count, seed: UInt64(index))
                func make(_ variant: KernelVariant) throws -> MaxPool2D {
                    try MaxPool2D(inputShape: shape, filterH: filter, filterW: filter, strideH: stride, strideW: stride,
                                  padding: padding, activation: activation, variant: variant, instructionSet: isa)
                }
                #expect(try make(.simd).apply(input) == make(.reference).apply(input), "\(shape) \(filter)/\(stride) \(padding) \(isa)")
            }
        }
    }

    @Test(arguments: instructionSets)
    func elementwise(_ isa: KernelInstructionSet) throws {
        for (index, count) in [1, 3, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 100].enumerated() {
            let shape = Shape4(h: 1, w: 1, c: count)
            let a = randomFloats(count, seed: UInt64(index)), b = randomFloats(count, seed: UInt64(index) + 100)
            for activation in allActivations {
                let reference = try Add(lhsShape: shape, rhsShape: shape, epilogue: .clamp(activation), variant: .reference)
                let fast = try Add(lhsShape: shape, rhsShape: shape, epilogue: .clamp(activation), instructionSet: isa)
                #expect(fast.apply(a, b) == reference.apply(a, b), "add \(count) \(activation) \(isa)")
                let clamp = try Activation(count: count, function: activation, instructionSet: isa)
                let clampReference = try Activation(count: count, function: activation, variant: .reference)
                #expect(clamp.apply(a) == clampReference.apply(a), "clamp \(count) \(activation) \(isa)")
            }
        }
        for (index, (lhs, rhs)) in AddTests.broadcastCases.enumerated() {
            let a = randomFloats(lhs.count, seed: UInt64(index) * 2), b = randomFloats(rhs.count, seed: UInt64(index) * 2 + 1)
            let reference = try Add(lhsShape: lhs, rhsShape: rhs, epilogue: .clamp(.relu6), variant: .reference)
            let fast = try Add(lhsShape: lhs, rhsShape: rhs, epilogue: .clamp(.relu6), instructionSet: isa)
            #expect(fast.apply(a, b) == reference.apply(a, b), "\(lhs) + \(rhs) \(isa)")
        }
        for channels in [1, 5, 8, 13, 16, 28, 33] {
            let shape = Shape4(h: 3, w: 4, c: channels)
            let alphaShape = Shape4(h: 1, w: 1, c: channels)
            let input = randomFloats(shape.count, seed: UInt64(channels))
            let alpha = randomFloats(channels, seed: UInt64(channels) + 1)
            let reference = try PReLU(inputShape: shape, alphaShape: alphaShape, alpha: alpha, variant: .reference)
            let fast = try PReLU(inputShape: shape, alphaShape: alphaShape, alpha: alpha, instructionSet: isa)
            let expected = reference.apply(input)
            #expect(fast.apply(input) == expected, "prelu \(channels) \(isa)")
            // In place (the runtime may alias input and output).
            var buffer = input
            buffer.withUnsafeMutableBufferPointer { fast.run(input: UnsafePointer($0.baseAddress!), output: $0.baseAddress!) }
            #expect(buffer == expected, "prelu in place \(channels) \(isa)")
            // Channel padding (BlazeBlock shortcuts) and spatial padding.
            for paddings in [[(0, 0), (0, 0), (0, 0), (0, 4)], [(0, 0), (1, 2), (0, 1), (3, 5)]] {
                let reference = try Pad(inputShape: shape.dimensions, paddings: paddings.map { ($0.0, $0.1) },
                                        constantValue: 0.5, variant: .reference)
                let fast = try Pad(inputShape: shape.dimensions, paddings: paddings.map { ($0.0, $0.1) },
                                   constantValue: 0.5, instructionSet: isa)
                #expect(fast.apply(input) == reference.apply(input), "pad \(channels) \(paddings) \(isa)")
            }
        }
    }
}
