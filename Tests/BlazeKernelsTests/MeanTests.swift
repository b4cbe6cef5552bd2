import BlazeKernels
import Testing

extension Mean {
    func apply(_ input: [Float]) -> [Float] {
        input.withUnsafeBufferPointer { x in produce(outputShape.count) { run(input: x.baseAddress!, output: $0) } }
    }
}

/// The mean over `axes` of an NHWC tensor, each output element summed in row-major order from its coordinates.
func meanComputedHere(_ x: [Float], _ s: Shape4, axes: Set<Int>) -> [Float] {
    let dims = [s.n, s.h, s.w, s.c]
    let out = (0..<4).map { axes.contains($0) ? 1 : dims[$0] }
    var result: [Float] = []
    for b in 0..<out[0] { for y in 0..<out[1] { for w in 0..<out[2] { for c in 0..<out[3] {
        var sum: Float = 0, count = 0
        for i in 0..<dims[0] / out[0] { for j in 0..<dims[1] / out[1] { for k in 0..<dims[2] / out[2] {
            for l in 0..<dims[3] / out[3] {
                sum += x[(((b + i) * s.h + y + j) * s.w + w + k) * s.c + c + l]
                count += 1
            }
        } } }
        result.append(sum / Float(count))
    } } } }
    return result
}

@Suite("Mean")
struct MeanTests {
    static let axisSets: [Set<Int>] = [[1, 2], [1], [2], [0], [3], [0, 1, 2], [2, 3], [0, 1, 2, 3], [], [0, 2]]
    static let shapes = [Shape4(h: 9, w: 16, c: 24), Shape4(h: 4, w: 4, c: 3), Shape4(n: 2, h: 3, w: 5, c: 17),
                         Shape4(h: 1, w: 1, c: 8), Shape4(h: 18, w: 32, c: 64)]

    @Test func everyAxisSetMatchesTheMeanComputedHere() throws {
        for (index, shape) in Self.shapes.enumerated() {
            let x = randomFloats(shape.count, seed: UInt64(index)).map { $0 * 10 }
            for axes in Self.axisSets {
                let expected = meanComputedHere(x, shape, axes: axes)
                let reference = try Mean(inputShape: shape, axes: axes, variant: .reference)
                #expect(reference.apply(x) == expected, "\(shape) \(axes.sorted()) reference")
                for set in [nil, KernelInstructionSet.baseline] {
                    let fast = try Mean(inputShape: shape, axes: axes, instructionSet: set)
                    #expect(fast.variant == (axes.contains(3) ? .reference : .simd))
                    #expect(fast.outputShape.count == expected.count)
                    #expect(fast.apply(x).map(\.bitPattern) == expected.map(\.bitPattern),
                            "\(shape) \(axes.sorted()) \(String(describing: set))")
                }
            }
        }
    }

    @Test func knownValuesAndErrors() throws {
        // [1, 2, 2, 2]: channel 0 holds 1, 2, 3, 4 and channel 1 holds 10, 20, 30, 40.
        let x: [Float] = [1, 10, 2, 20, 3, 30, 4, 40]
        let spatial = try Mean(inputShape: Shape4(h: 2, w: 2, c: 2), axes: [1, 2])
        #expect(spatial.outputShape == Shape4(h: 1, w: 1, c: 2))
        #expect(spatial.apply(x) == [2.5, 25])
        #expect(try Mean(inputShape: Shape4(h: 2, w: 2, c: 2), axes: [3]).apply(x) == [5.5, 11, 16.5, 22])
        #expect(throws: KernelError.self) { try Mean(inputShape: Shape4(h: 2, w: 2, c: 2), axes: [4]) }
        #expect(throws: KernelError.self) { try Mean(inputShape: Shape4(h: 0, w: 2, c: 2), axes: [1]) }
    }
}
