/// TFLite's float reductions over any set of axes: `SUM`, `MEAN` (the sum divided by the count), `REDUCE_MAX`,
/// `REDUCE_MIN` and `REDUCE_PROD`. Each output value accumulates its input elements in increasing input order,
/// as TFLite's reference kernel does, starting from the first of them.
///
/// When the input's last axis is kept, each output row of that axis is accumulated as a run; otherwise each
/// output value walks its reduced elements. Offsets are computed from the axes as the walk goes (no table of
/// the tensor's size). Pieces: output rows (every kept axis but a kept last one), so every piece and thread
/// gives the same bits.
///
/// Aliasing: none allowed. Thread safety: immutable.
package struct Reduce: Sendable, StepKernel {
    package enum Operation: String, Hashable, Sendable { case sum, mean, maximum, minimum, product }

    package let operation: Operation
    /// The input's dimensions and the reduced axes.
    package let input: TensorDimensions
    package let axes: Set<Int>
    /// Floats of one output row (the last axis when kept, else 1).
    let rowWidth: Int
    /// The kept axes that index output rows, and the reduced axes: sizes and input strides, outermost first.
    let rowSizes: [Int], rowStrides: [Int]
    /// The reduced axes but the innermost (walked by index), and the innermost (walked directly).
    let outerSizes: [Int], outerStrides: [Int]
    let innerSize: Int, innerStride: Int
    /// Output rows, and input elements (or runs) reduced into each.
    let rows: Int
    let reducedCount: Int

    /// - Throws: `KernelError.invalidParameter` for an axis outside the input's rank.
    package init(_ operation: Operation, input: TensorDimensions, axes: [Int]) throws(KernelError) {
        var set = Set<Int>()
        for axis in axes { set.insert(try input.normalized(axis: axis)) }
        self.operation = operation
        self.input = input
        self.axes = set
        let strides = input.strides, rank = input.rank
        let lastKept = rank > 0 && !set.contains(rank - 1)
        rowWidth = lastKept ? input.sizes[rank - 1] : 1
        let kept = (0..<rank).filter { !set.contains($0) && !(lastKept && $0 == rank - 1) }
        let reduced = (0..<rank).filter { set.contains($0) }
        (rowSizes, rowStrides) = (kept.map { input.sizes[$0] }, kept.map { strides[$0] })
        let reducedSizes = reduced.map { input.sizes[$0] }, reducedStrides = reduced.map { strides[$0] }
        (innerSize, innerStride) = (reducedSizes.last ?? 1, reducedStrides.last ?? 0)
        (outerSizes, outerStrides) = (Array(reducedSizes.dropLast()), Array(reducedStrides.dropLast()))
        rows = rowSizes.reduce(1, *)
        reducedCount = reducedSizes.reduce(1, *)
    }

    package var planDescription: String { "Reduce(\(operation.rawValue))" }
    package var pieceCount: Int { rows }

    /// The input offset of position `index` of a walk over axes of `sizes` and `strides`.
    @inline(__always)
    static func offset(_ index: Int, _ sizes: [Int], _ strides: [Int]) -> Int {
        var (offset, rest) = (0, index)
        var axis = sizes.count - 1
        while axis >= 0 {
            offset += (rest % sizes[axis]) * strides[axis]
            rest /= sizes[axis]
            axis -= 1
        }
        return offset
    }

    func run(input x: UnsafePointer<Float>, output y: UnsafeMutablePointer<Float>, rows range: Range<Int>) {
        let width = rowWidth
        let outerCount = reducedCount / innerSize
        for row in range {
            let base = x + Self.offset(row, rowSizes, rowStrides), out = y + row * width
            out.update(from: base, count: width)
            for outer in 0..<outerCount {
                let start = base + Self.offset(outer, outerSizes, outerStrides)
                for inner in (outer == 0 ? 1 : 0)..<innerSize {
                    accumulate(start + inner * innerStride, into: out, width)
                }
            }
            if operation == .mean {
                let count = Float(reducedCount)
                for c in 0..<width { out[c] = out[c] / count }
            }
        }
    }

    @inline(__always)
    func accumulate(_ source: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>, _ width: Int) {
        switch operation {
        case .sum, .mean: for c in 0..<width { out[c] += source[c] }
        case .product: for c in 0..<width { out[c] *= source[c] }
        case .maximum: for c in 0..<width where source[c] > out[c] { out[c] = source[c] }
        case .minimum: for c in 0..<width where source[c] < out[c] { out[c] = source[c] }
        }
    }

    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>) {
        run(input: inputs[0], output: output, rows: 0..<rows)
    }

    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        run(input: inputs[0], output: output, rows: pieces)
    }
}
