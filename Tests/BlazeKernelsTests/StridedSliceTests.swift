import BlazeKernels
import BlazeTestSupport
import Testing

extension StridedSlice {
    func apply(_ input: [Float]) -> [Float] {
        produce(outputCount) { out in input.withUnsafeBufferPointer { run(input: $0.baseAddress!, output: out) } }
    }
}

/// The elements of a tensor of `dims` at the index lists `indices` (one list per dimension), row-major: how
/// the tests state a slice's expected output independently of the kernel.
func gather(_ input: [Float], _ dims: [Int], _ indices: [[Int]]) -> [Float] {
    var out: [Float] = []
    func visit(_ axis: Int, _ offset: Int) {
        if axis == dims.count {
            out.append(input[offset])
            return
        }
        for i in indices[axis] { visit(axis + 1, offset * dims[axis] + i) }
    }
    visit(0, 0)
    return out
}

func iota(_ count: Int) -> [Float] { (0..<count).map(Float.init) }

@Suite("StridedSlice")
struct StridedSliceTests {
    /// One hand-written spec: TFLite inputs and masks, the expected output dimensions, and per input dimension
    /// the indices it takes (written out by hand, as NumPy's `x[...]` would take them).
    struct Case: CustomStringConvertible {
        var name: String
        var dims: [Int]
        var begin: [Int], end: [Int], strides: [Int]
        var masks = StridedSlice.Masks()
        var output: [Int]
        var indices: [[Int]]
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "x[0:2, 1:3, 0:4:2]", dims: [2, 3, 4], begin: [0, 1, 0], end: [2, 3, 4], strides: [1, 1, 2],
             output: [2, 2, 2], indices: [[0, 1], [1, 2], [0, 2]]),
        Case(name: "identity, attention mesh", dims: [1, 1, 1, 12], begin: [0, 0, 0, 0], end: [1, 1, 1, 12],
             strides: [1, 1, 1, 1], output: [1, 1, 1, 12], indices: [[0], [0], [0], Array(0..<12)]),
        Case(name: "x[:, ::-1, :] by masks", dims: [2, 3, 4], begin: [0, 0, 0], end: [0, 0, 0], strides: [1, -1, 1],
             masks: .init(begin: 7, end: 7), output: [2, 3, 4], indices: [[0, 1], [2, 1, 0], [0, 1, 2, 3]]),
        Case(name: "x[:, 2:0:-1, 3:0:-2]", dims: [2, 3, 4], begin: [0, 2, 3], end: [2, 0, 0], strides: [1, -1, -2],
             output: [2, 2, 2], indices: [[0, 1], [2, 1], [3, 1]]),
        Case(name: "x[-1:, -2:, -3:-1]", dims: [2, 3, 4], begin: [-1, -2, -3], end: [2, 3, -1], strides: [1, 1, 1],
             output: [1, 2, 2], indices: [[1], [1, 2], [1, 2]]),
        Case(name: "x[-100:100] clamps", dims: [5], begin: [-100], end: [100], strides: [1],
             output: [5], indices: [Array(0..<5)]),
        Case(name: "x[100:-100:-2] clamps", dims: [5], begin: [100], end: [-100], strides: [-2],
             output: [3], indices: [[4, 2, 0]]),
        Case(name: "x[1, :, 2] shrinks", dims: [2, 3, 4], begin: [1, 0, 2], end: [0, 0, 0], strides: [1, 1, 1],
             masks: .init(begin: 2, end: 2, shrinkAxis: 5), output: [3], indices: [[1], [0, 1, 2], [2]]),
        Case(name: "x[-1, 1:] shrinks a negative index", dims: [2, 3], begin: [-1, 1], end: [0, 3], strides: [1, 1],
             masks: .init(shrinkAxis: 1), output: [2], indices: [[1], [1, 2]]),
        Case(name: "x[..., 1] ellipsis", dims: [2, 3, 4], begin: [0, 1], end: [0, 2], strides: [1, 1],
             masks: .init(ellipsis: 1, shrinkAxis: 2), output: [2, 3], indices: [[0, 1], [0, 1, 2], [1]]),
        Case(name: "x[1, ..., ::-1] ellipsis in the middle", dims: [2, 3, 2, 4], begin: [1, 0, 0], end: [2, 0, 0],
             strides: [1, 1, -1], masks: .init(begin: 4, end: 4, ellipsis: 2, shrinkAxis: 1), output: [3, 2, 4],
             indices: [[1], [0, 1, 2], [0, 1], [3, 2, 1, 0]]),
        Case(name: "x[:, None, 1:2]", dims: [2, 4], begin: [0, 0, 1], end: [0, 0, 2], strides: [1, 1, 1],
             masks: .init(begin: 1, end: 1, newAxis: 2), output: [2, 1, 1], indices: [[0, 1], [1]]),
        Case(name: "x[None, ..., None] ellipsis beats a new axis on its entry", dims: [2, 3], begin: [0, 0, 0],
             end: [0, 0, 0], strides: [1, 1, 1], masks: .init(ellipsis: 2, newAxis: 7), output: [1, 2, 3, 1],
             indices: [[0, 1], [0, 1, 2]]),
        Case(name: "x[1:] on rank 3: the rest whole", dims: [3, 2, 2], begin: [1], end: [3], strides: [1],
             output: [2, 2, 2], indices: [[1, 2], [0, 1], [0, 1]]),
        Case(name: "offset: x[0:0+2, 1:1+2, 1:1+3]", dims: [2, 3, 4], begin: [0, 1, 1], end: [2, 2, 3], strides: [1, 1, 1],
             masks: .init(offset: true), output: [2, 2, 3], indices: [[0, 1], [1, 2], [1, 2, 3]]),
        Case(name: "rank 5", dims: [2, 2, 3, 2, 5], begin: [1, 0, 2, 0, 4], end: [2, 2, 0, 2, 0], strides: [1, 1, -2, 1, -3],
             output: [1, 2, 1, 2, 2], indices: [[1], [0, 1], [2], [0, 1], [4, 1]]),
    ]

    @Test(arguments: cases, [KernelVariant.reference, .simd])
    func handWritten(_ c: Case, variant: KernelVariant) throws {
        let slice = try StridedSlice(inputDimensions: c.dims, begin: c.begin, end: c.end, strides: c.strides,
                                     masks: c.masks, variant: variant)
        #expect(slice.outputDimensions == c.output)
        let input = iota(c.dims.reduce(1, *))
        #expect(slice.apply(input) == gather(input, c.dims, c.indices))
    }

    @Test func simdMatchesReferenceOnRandomSlices() throws {
        var rng = SplitMix64(seed: 13)
        for trial in 0..<400 {
            let rank = 1 + Int(rng.next() % 5)
            let dims = (0..<rank).map { _ in 1 + Int(rng.next() % 6) }
            let axes = dims.map { size -> StridedSlice.Axis in
                let stride = [1, 1, 2, 3, -1, -2][Int(rng.next() % 6)]
                let start = Int(rng.next() % UInt64(size))
                let room = stride > 0 ? (size - 1 - start) / stride : start / -stride
                return .init(start: start, stride: stride, count: 1 + Int(rng.next() % UInt64(room + 1)))
            }
            let output = axes.map(\.count)
            let input = iota(dims.reduce(1, *))
            let reference = try StridedSlice(inputDimensions: dims, axes: axes, outputDimensions: output, variant: .reference)
            let fast = try StridedSlice(inputDimensions: dims, axes: axes, outputDimensions: output)
            let indices = axes.map { a in (0..<a.count).map { a.start + $0 * a.stride } }
            let expected = gather(input, dims, indices)
            #expect(reference.apply(input) == expected, "trial \(trial): \(dims) \(axes)")
            #expect(fast.apply(input) == expected, "trial \(trial): \(dims) \(axes)")
        }
    }

    @Test func invalidSpecsThrow() {
        func slice(_ dims: [Int], _ b: [Int], _ e: [Int], _ s: [Int], _ m: StridedSlice.Masks = .init()) throws -> StridedSlice {
            try StridedSlice(inputDimensions: dims, begin: b, end: e, strides: s, masks: m)
        }
        expectError(.invalidParameter("stride 0 in entry 1")) { try slice([2, 3], [0, 0], [2, 3], [1, 0]) }
        expectThrows { try slice([2, 3], [0, 0], [2], [1, 1]) }
        expectThrows { try slice([2, 3], [0, 0, 0], [2, 3, 1], [1, 1, 1]) }  // more entries than dimensions
        expectThrows { try slice([2, 3, 4, 5, 6, 7], [0], [1], [1]) }  // rank 6
        expectThrows { try slice([2, 3, 4, 5, 6], [0, 0], [1, 1], [1, 1], .init(newAxis: 1)) }  // 6 with the new axis
        expectThrows { try slice([2, 3], [1, 0], [1, 3], [1, 1]) }  // empty
        expectThrows { try slice([2, 3], [2, 0], [0, 3], [1, 1], .init(shrinkAxis: 1)) }  // shrink index out of range
        expectThrows { try slice([2, 3], [-3, 0], [0, 3], [1, 1], .init(shrinkAxis: 1)) }
        expectThrows { try slice([2, 3], [1, 0], [0, 3], [-1, 1], .init(shrinkAxis: 1)) }  // shrink, negative stride
        expectThrows { try slice([2, 3], [0, 0], [1, 3], [1, 1], .init(ellipsis: 3)) }  // two ellipses
        expectThrows { try slice([2, 3], [0], [1], [1], .init(ellipsis: 2)) }  // ellipsis past the spec
        expectThrows { try slice([2, 3], [0], [1], [1], .init(newAxis: 4)) }  // new axis past the spec
        expectThrows { try slice([2, 3], [0], [1], [1], .init(offset: true)) }  // offset, fewer entries
        expectThrows { try slice([4], [2], [5], [1], .init(offset: true)) }  // offset past the end
        // Resolved axes.
        expectThrows { try StridedSlice(inputDimensions: [4], axes: [.init(start: 1, stride: 2, count: 3)], outputDimensions: [3]) }
        expectThrows { try StridedSlice(inputDimensions: [4], axes: [.init(start: 1, stride: 1, count: 2)], outputDimensions: [3]) }
        expectThrows { try StridedSlice(inputDimensions: [4], axes: [.init(start: 0, stride: 1, count: 0)], outputDimensions: []) }
        expectThrows {
            try StridedSlice(inputDimensions: [4], axes: [.init(start: 3, stride: Int.max, count: 3)], outputDimensions: [3])
        }
        #expect(StridedSlice.Masks(ellipsis: 3).unsupportedCombination(entries: 2, rank: 2) != nil)
        #expect(StridedSlice.Masks(begin: 0xFF, end: 0xFF, shrinkAxis: 0xF0).unsupportedCombination(entries: 2, rank: 2) == nil)
    }
}
