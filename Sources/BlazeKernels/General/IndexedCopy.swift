/// A copy in which every output element is one input element, chosen axis by axis:
/// `output[i₀, …, iₖ] = input[sources₀[i₀] + … + sourcesₖ[iₖ]]`, where `sources_j` holds, for each index
/// along output axis `j`, an offset in input elements. Data movement only, so it is exact.
///
/// The runtime lowers to it every operator that picks elements by position:
/// - TRANSPOSE (`transpose`): each output axis walks one input axis with its stride;
/// - GATHER with constant indices (`gather`): the gathered axis takes the indices' offsets;
/// - MIRROR_PAD (`mirrorPad`): each axis reflects its indices at the borders;
/// - RESIZE_NEAREST_NEIGHBOR (`resizeNearest`): height and width take TFLite's nearest source rows and columns.
///
/// Implementations: one, exact; the innermost axis is copied as one run when its offsets are consecutive.
/// Pieces: the output's outer rows (all axes but the last), so every piece and thread gives the same bits.
///
/// Thread safety: immutable; `run` may be called concurrently with non-overlapping outputs. No overlap of
/// input and output is allowed.
package struct IndexedCopy: Sendable {
    /// The output's dimensions.
    package let output: TensorDimensions
    /// Per output axis, the input offset of each index (`output.sizes[j]` entries).
    package let sources: [[Int]]
    /// The number of input elements (every offset sum lies below it).
    package let inputCount: Int
    /// What the copy does, for the plan.
    package let name: String
    /// Whether the last axis's offsets are consecutive (a run of `output.sizes.last` elements).
    let innerIsRun: Bool

    /// - Throws: `KernelError.invalidParameter` when an axis has the wrong number of offsets, or an offset sum
    ///   can reach outside the input.
    package init(output: TensorDimensions, sources: [[Int]], inputCount: Int, name: String) throws(KernelError) {
        guard sources.count == output.rank else {
            throw .invalidParameter("\(sources.count) offset tables for an output of rank \(output.rank)")
        }
        var largest = 0
        for (axis, table) in sources.enumerated() {
            guard table.count == output.sizes[axis], let low = table.min(), let high = table.max(), low >= 0 else {
                throw .invalidParameter("offsets of axis \(axis) do not match the output \(output)")
            }
            largest += high
        }
        guard largest < max(inputCount, 1) else {
            throw .invalidParameter("an element at offset \(largest) lies outside the input's \(inputCount)")
        }
        self.output = output
        self.sources = sources
        self.inputCount = inputCount
        self.name = name
        if let last = sources.last {
            innerIsRun = zip(last, last.dropFirst()).allSatisfy { $1 == $0 + 1 }
        } else {
            innerIsRun = true
        }
    }

    /// Output rows: the product of every axis but the last (1 for rank ≤ 1).
    var rows: Int { output.rank <= 1 ? 1 : output.count / output.sizes[output.rank - 1] }

    /// Computes output rows `rows` (see `pieceCount`).
    func run(input: UnsafePointer<Float>, output out: UnsafeMutablePointer<Float>, rows: Range<Int>) {
        let rank = output.rank
        guard rank > 0 else {
            out[0] = input[0]
            return
        }
        let inner = output.sizes[rank - 1]
        sources.withUnsafeBufferPointer { tables in
            let last = tables[rank - 1]
            last.withUnsafeBufferPointer { lastOffsets in
                for row in rows {
                    // The base offset of this row: its outer indices, last axis first.
                    var base = 0, rest = row
                    var axis = rank - 2
                    while axis >= 0 {
                        let size = output.sizes[axis]
                        base += tables[axis][rest % size]
                        rest /= size
                        axis -= 1
                    }
                    let target = out + row * inner
                    if innerIsRun {
                        target.update(from: input + base + lastOffsets[0], count: inner)
                    } else {
                        for i in 0..<inner { target[i] = input[base + lastOffsets[i]] }
                    }
                }
            }
        }
    }
}

extension IndexedCopy: StepKernel {
    package var planDescription: String { "IndexedCopy(\(name))" }

    package var pieceCount: Int { rows }

    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>) {
        run(input: inputs[0], output: output, rows: 0..<rows)
    }

    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        run(input: inputs[0], output: output, rows: pieces)
    }
}

extension IndexedCopy {
    /// TRANSPOSE: output axis `j` is input axis `permutation[j]`.
    /// - Throws: `KernelError.invalidParameter` unless `permutation` is a permutation of the input's axes.
    package static func transpose(_ input: TensorDimensions, permutation: [Int]) throws(KernelError) -> IndexedCopy {
        guard permutation.count == input.rank, Set(permutation) == Set(0..<input.rank) else {
            throw .invalidParameter("\(permutation) is not a permutation of \(input.rank) axes")
        }
        let strides = input.strides
        let output = try TensorDimensions(permutation.map { input.sizes[$0] })
        let sources = permutation.map { axis in (0..<input.sizes[axis]).map { $0 * strides[axis] } }
        return try IndexedCopy(output: output, sources: sources, inputCount: input.count,
                               name: "transpose \(permutation)")
    }

    /// GATHER along `axis` with constant `indices` (negative ones count from the end, as TFLite allows). The
    /// copy's output is the input's dimensions with `axis` of size `indices.count`: the same layout as TFLite's
    /// output, whose `axis` is replaced by the indices' shape.
    /// - Throws: `KernelError.invalidParameter` for no index, or an index outside the axis.
    package static func gather(_ input: TensorDimensions, axis: Int, indices: [Int]) throws(KernelError) -> IndexedCopy {
        guard axis >= 0, axis < input.rank else { throw .invalidParameter("axis \(axis) is outside rank \(input.rank)") }
        guard !indices.isEmpty else { throw .invalidParameter("no index to gather") }
        let size = input.sizes[axis], strides = input.strides
        var offsets: [Int] = []
        offsets.reserveCapacity(indices.count)
        for index in indices {
            guard index >= -size, index < size else {
                throw .invalidParameter("index \(index) is outside axis \(axis) of size \(size)")
            }
            offsets.append((index < 0 ? index + size : index) * strides[axis])
        }
        var sources = (0..<input.rank).map { a in (0..<input.sizes[a]).map { $0 * strides[a] } }
        sources[axis] = offsets
        var dims = input.sizes
        dims[axis] = offsets.count
        return try IndexedCopy(output: try TensorDimensions(dims), sources: sources, inputCount: input.count,
                               name: "gather axis \(axis)")
    }

    /// MIRROR_PAD: `paddings[j]` elements before and after axis `j`, mirrored (`.reflect` leaves out the border
    /// element, `.symmetric` repeats it).
    /// - Throws: `KernelError.invalidParameter` for a negative padding or one larger than the axis allows
    ///   (`size − 1` for reflect, `size` for symmetric).
    package static func mirrorPad(
        _ input: TensorDimensions, paddings: [(before: Int, after: Int)], symmetric: Bool
    ) throws(KernelError) -> IndexedCopy {
        guard paddings.count == input.rank else {
            throw .invalidParameter("\(paddings.count) paddings for rank \(input.rank)")
        }
        let strides = input.strides
        var sources: [[Int]] = []
        var dims: [Int] = []
        for axis in 0..<input.rank {
            let size = input.sizes[axis], (before, after) = paddings[axis]
            let limit = symmetric ? size : size - 1
            guard before >= 0, after >= 0, before <= limit, after <= limit else {
                throw .invalidParameter("padding (\(before), \(after)) of axis \(axis) (size \(size)) is more than \(limit)")
            }
            let table = (-before..<size + after).map { i -> Int in
                let source: Int
                if i < 0 { source = symmetric ? -i - 1 : -i }
                else if i >= size { source = symmetric ? 2 * size - i - 1 : 2 * size - i - 2 }
                else { source = i }
                return source * strides[axis]
            }
            sources.append(table)
            dims.append(table.count)
        }
        return try IndexedCopy(output: try TensorDimensions(dims), sources: sources, inputCount: input.count,
                               name: symmetric ? "mirror pad symmetric" : "mirror pad reflect")
    }

    /// RESIZE_NEAREST_NEIGHBOR of an NHWC input to `height` x `width`, TFLite's source positions: with
    /// `halfPixelCenters` `floor((y + 0.5) · scale)` (and `round` of that with `alignCorners`), else
    /// `floor(y · scale)`, clamped to the input; `scale` is `(in − 1) / (out − 1)` with `alignCorners`, else
    /// `in / out`.
    package static func resizeNearest(
        _ input: TensorDimensions, height: Int, width: Int, alignCorners: Bool, halfPixelCenters: Bool
    ) throws(KernelError) -> IndexedCopy {
        guard input.rank == 4 else { throw .invalidShape("input \(input) is not NHWC") }
        guard height > 0, width > 0 else { throw .invalidParameter("size \(height)x\(width) is not positive") }
        let strides = input.strides
        func table(_ inSize: Int, _ outSize: Int, stride: Int) -> [Int] {
            let scale: Float = alignCorners && outSize > 1 ? Float(inSize - 1) / Float(outSize - 1)
                : Float(inSize) / Float(outSize)
            let offset: Float = halfPixelCenters ? 0.5 : 0
            return (0..<outSize).map { y in
                let position = (Float(y) + offset) * scale
                let source = alignCorners ? Int(position.rounded(.toNearestOrAwayFromZero)) : Int(position.rounded(.down))
                return min(max(source, 0), inSize - 1) * stride
            }
        }
        let dims = [input.sizes[0], height, width, input.sizes[3]]
        let sources = [
            (0..<dims[0]).map { $0 * strides[0] }, table(input.sizes[1], height, stride: strides[1]),
            table(input.sizes[2], width, stride: strides[2]), Array(0..<dims[3]),
        ]
        return try IndexedCopy(output: try TensorDimensions(dims), sources: sources, inputCount: input.count,
                               name: "nearest \(input.sizes[1])x\(input.sizes[2]) -> \(height)x\(width)")
    }
}
