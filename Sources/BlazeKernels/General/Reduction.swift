/// TFLite's float reductions over any set of axes: `SUM`, `MEAN` (the sum divided by the count), `REDUCE_MAX`,
/// `REDUCE_MIN` and `REDUCE_PROD`. Each output value accumulates its input elements in increasing input order,
/// as TFLite's reference kernel does, starting from the first of them.
///
/// When the input's last axis is kept, each output row of that axis is accumulated as a vector run; otherwise
/// each output value walks its reduced elements. Pieces: output rows (every kept axis but a kept last one), so
/// every piece and thread gives the same bits.
///
/// Aliasing: none allowed. Thread safety: immutable.
package struct Reduce: Sendable, StepKernel {
    package enum Operation: String, Hashable, Sendable { case sum, mean, maximum, minimum, product }

    package let operation: Operation
    /// The input's dimensions and the reduced axes.
    package let input: TensorDimensions
    package let axes: Set<Int>
    /// The kept axes' sizes (the output with `keep_dims` false).
    package let keptSizes: [Int]
    /// Floats of one output row (the last axis when kept, else 1).
    let rowWidth: Int
    /// Input offset of each output row, and of each reduced position relative to a row's.
    let rowOffsets: [Int]
    let reducedOffsets: [Int]

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
        keptSizes = (0..<rank).filter { !set.contains($0) }.map { input.sizes[$0] }
        func offsets(_ selected: [Int]) -> [Int] {
            var result = [0]
            for axis in selected {
                let size = input.sizes[axis], stride = strides[axis]
                result = result.flatMap { base in (0..<size).map { base + $0 * stride } }
            }
            return result
        }
        let kept = (0..<rank).filter { !set.contains($0) && !(lastKept && $0 == rank - 1) }
        rowOffsets = offsets(kept)
        reducedOffsets = offsets((0..<rank).filter { set.contains($0) })
    }

    package var planDescription: String { "Reduce(\(operation.rawValue))" }
    package var pieceCount: Int { rowOffsets.count }

    func run(input x: UnsafePointer<Float>, output y: UnsafeMutablePointer<Float>, rows: Range<Int>) {
        let width = rowWidth, count = Float(reducedOffsets.count)
        reducedOffsets.withUnsafeBufferPointer { reduced in
            for row in rows {
                let base = x + rowOffsets[row], out = y + row * width
                out.update(from: base + reduced[0], count: width)
                for r in 1..<reduced.count {
                    let source = base + reduced[r]
                    switch operation {
                    case .sum, .mean: for c in 0..<width { out[c] += source[c] }
                    case .product: for c in 0..<width { out[c] *= source[c] }
                    case .maximum: for c in 0..<width where source[c] > out[c] { out[c] = source[c] }
                    case .minimum: for c in 0..<width where source[c] < out[c] { out[c] = source[c] }
                    }
                }
                if operation == .mean { for c in 0..<width { out[c] = out[c] / count } }
            }
        }
    }

    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>) {
        run(input: inputs[0], output: output, rows: 0..<pieceCount)
    }

    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        run(input: inputs[0], output: output, rows: pieces)
    }
}
