import BlazeKernels
import Testing

extension TransposeConvBias {
    func apply(_ input: [Float]) -> [Float] {
        input.withUnsafeBufferPointer { x in produce(outputShape.count) { run(input: x.baseAddress!, output: $0) } }
    }

    /// The output computed in ragged ranges of pieces.
    func applyPieces(_ input: [Float]) -> [Float] {
        input.withUnsafeBufferPointer { x in
            produce(outputShape.count) { out in
                var start = 0, step = 1
                while start < pieceCount {
                    let end = min(start + step, pieceCount)
                    run(input: x.baseAddress!, output: out, pieces: start..<end)
                    (start, step) = (end, step + 1)
                }
            }
        }
    }
}

@Suite("TransposeConvBias (MediaPipe's Convolution2DTransposeBias)")
struct TransposeConvBiasTests {
    struct Case: CustomStringConvertible {
        var input: Shape4, outputChannels: Int, filter: Int, stride: Int, padding: Padding
        var description: String { "\(input) -> \(outputChannels) \(filter)x\(filter)/\(stride) \(padding)" }
    }

    static let cases: [Case] = [
        // The selfie models' last layer: 2x2/2 upsampling to one channel.
        Case(input: Shape4(h: 8, w: 8, c: 16), outputChannels: 1, filter: 2, stride: 2, padding: .same),
        Case(input: Shape4(h: 5, w: 7, c: 3), outputChannels: 9, filter: 3, stride: 2, padding: .same),
        Case(input: Shape4(h: 5, w: 7, c: 3), outputChannels: 9, filter: 3, stride: 2, padding: .valid),
        Case(input: Shape4(h: 4, w: 3, c: 5), outputChannels: 16, filter: 4, stride: 2, padding: .same),
        Case(input: Shape4(n: 2, h: 3, w: 4, c: 2), outputChannels: 8, filter: 3, stride: 1, padding: .same),
        Case(input: Shape4(h: 6, w: 6, c: 4), outputChannels: 3, filter: 2, stride: 3, padding: .valid),
        Case(input: Shape4(h: 1, w: 1, c: 7), outputChannels: 17, filter: 5, stride: 2, padding: .same),
        // Fewer than 8 output channels: vectors of output pixels, with edge pixels one by one.
        Case(input: Shape4(h: 6, w: 21, c: 5), outputChannels: 3, filter: 3, stride: 2, padding: .same),
        Case(input: Shape4(h: 4, w: 30, c: 2), outputChannels: 2, filter: 5, stride: 3, padding: .valid),
        Case(input: Shape4(n: 2, h: 3, w: 19, c: 4), outputChannels: 1, filter: 3, stride: 1, padding: .same),
        Case(input: Shape4(h: 5, w: 40, c: 16), outputChannels: 1, filter: 2, stride: 2, padding: .same),
    ]

    /// The transposed convolution written from its definition: the output at `(oy, ox)` is the bias plus
    /// `input(iy, ix) · filter(fy, fx)` over every `oy = iy·s − pad + fy`, `ox = ix·s − pad + fx`, added in
    /// input order. MediaPipe's padding: total `max(0, f − (in − 1) mod s − 1)`, half before.
    static func computedHere(_ c: Case, _ x: [Float], _ w: [Float], _ b: [Float]) -> (Shape4, [Float]) {
        let i = c.input, f = c.filter, s = c.stride
        let totalH = c.padding == .same ? max(0, f - (i.h - 1) % s - 1) : 0
        let totalW = c.padding == .same ? max(0, f - (i.w - 1) % s - 1) : 0
        let o = Shape4(n: i.n, h: s * (i.h - 1) + f - totalH, w: s * (i.w - 1) + f - totalW, c: c.outputChannels)
        var out = [Float](repeating: 0, count: o.count)
        for n in 0..<i.n {
            for p in 0..<(o.h * o.w) { for k in 0..<o.c { out[(n * o.h * o.w + p) * o.c + k] = b[k] } }
            for iy in 0..<i.h { for ix in 0..<i.w { for ic in 0..<i.c { for fy in 0..<f { for fx in 0..<f {
                let oy = iy * s - totalH / 2 + fy, ox = ix * s - totalW / 2 + fx
                if oy < 0 || oy >= o.h || ox < 0 || ox >= o.w { continue }
                for k in 0..<o.c {
                    out[((n * o.h + oy) * o.w + ox) * o.c + k] +=
                        x[((n * i.h + iy) * i.w + ix) * i.c + ic] * w[((k * f + fy) * f + fx) * i.c + ic]
                }
            } } } } }
        }
        return (o, out)
    }

    @Test(arguments: cases)
    func referenceAndSIMDMatchTheDefinition(c: Case) throws {
        let filterShape = Shape4(n: c.outputChannels, h: c.filter, w: c.filter, c: c.input.c)
        let x = randomFloats(c.input.count, seed: 1), w = randomFloats(filterShape.count, seed: 2)
        let b = randomFloats(c.outputChannels, seed: 3)
        let (shape, expected) = Self.computedHere(c, x, w, b)
        for variant in [KernelVariant.reference, .simd] {
            let kernel = try TransposeConvBias(inputShape: c.input, filterShape: filterShape, filter: w, bias: b,
                                               strideH: c.stride, strideW: c.stride, padding: c.padding, variant: variant)
            #expect(kernel.outputShape == shape, "\(c) \(variant)")
            #expect(kernel.apply(x).map(\.bitPattern) == expected.map(\.bitPattern), "\(c) \(variant)")
            #expect(kernel.applyPieces(x).map(\.bitPattern) == expected.map(\.bitPattern), "\(c) \(variant) pieces")
        }
    }

    @Test func knownValuesAndErrors() throws {
        // One input pixel of value 2, a 2x2 filter 1, 2, 3, 4, bias 10, VALID stride 2: the filter scaled, plus 10.
        let kernel = try TransposeConvBias(inputShape: Shape4(h: 1, w: 1, c: 1), filterShape: Shape4(n: 1, h: 2, w: 2, c: 1),
                                           filter: [1, 2, 3, 4], bias: [10], strideH: 2, strideW: 2, padding: .valid)
        #expect(kernel.outputShape == Shape4(h: 2, w: 2, c: 1))
        #expect(kernel.apply([2]) == [12, 14, 16, 18])
        let filterShape = Shape4(n: 1, h: 2, w: 2, c: 1)
        #expect(throws: KernelError.self) {
            try TransposeConvBias(inputShape: Shape4(h: 1, w: 1, c: 2), filterShape: filterShape, filter: [1, 2, 3, 4],
                                  bias: [0], strideH: 2, strideW: 2, padding: .same)
        }
        #expect(throws: KernelError.self) {
            try TransposeConvBias(inputShape: Shape4(h: 1, w: 1, c: 1), filterShape: filterShape, filter: [1, 2, 3, 4],
                                  bias: [0, 1], strideH: 2, strideW: 2, padding: .same)
        }
        #expect(throws: KernelError.self) {
            try TransposeConvBias(inputShape: Shape4(h: 1, w: 1, c: 1), filterShape: filterShape, filter: [1, 2, 3, 4],
                                  bias: [0], strideH: 0, strideW: 2, padding: .same)
        }
        #expect(throws: KernelError.self) {  // explicit padding is a folded PAD's, which only convolutions take
            try TransposeConvBias(inputShape: Shape4(h: 1, w: 1, c: 1), filterShape: filterShape, filter: [1, 2, 3, 4],
                                  bias: [0], strideH: 2, strideW: 2, padding: .explicit(top: 0, bottom: 0, left: 0, right: 0))
        }
    }
}
