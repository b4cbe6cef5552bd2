// TFLite's STRIDED_SLICE indexing (tensorflow/lite/kernels/strided_slice.cc and internal/strided_slice_logic.h):
// how the begin, end and strides inputs and the five masks select the elements, resolved once into one `Axis`
// per input dimension.

extension StridedSlice {
    /// TFLite's options of a strided slice: bit `i` of a mask refers to entry `i` of begin/end/strides (bits of
    /// the begin, end and shrink masks at or past their length are ignored, as TFLite ignores them).
    package struct Masks: Hashable, Sendable {
        /// Take from the first element (the last for a negative stride), whatever `begin` says.
        package var begin: Int
        /// Take up to the end (the beginning for a negative stride), whatever `end` says.
        package var end: Int
        /// The entry stands for as many whole dimensions as the spec leaves (at most one bit).
        package var ellipsis: Int
        /// The entry inserts an output dimension of size 1 (ignored on the ellipsis' entry).
        package var newAxis: Int
        /// The entry takes the one element at `begin` and the output drops the dimension.
        package var shrinkAxis: Int
        /// `end` counts from the start (`end = start + end`).
        package var offset: Bool

        package init(begin: Int = 0, end: Int = 0, ellipsis: Int = 0, newAxis: Int = 0, shrinkAxis: Int = 0,
                    offset: Bool = false) {
            (self.begin, self.end, self.ellipsis, self.newAxis, self.shrinkAxis, self.offset) =
                (begin, end, ellipsis, newAxis, shrinkAxis, offset)
        }
    }

    /// A slice as TFLite computes it from its begin, end and strides inputs and masks.
    ///
    /// Per dimension of the effective input (the input with the new axes inserted, the ellipsis expanded and
    /// dimensions past the spec taken whole), with `D` its size and `s` its stride: a negative begin or end
    /// counts from `D`; begin is clamped to `0...D` (`-1...D-1` when `s < 0`) and end likewise; the begin
    /// mask makes it `0` (`D-1`), the end mask `D` (`-1`); the count is `ceil((end - begin) / s)`, at least 0.
    ///
    /// - Parameters:
    ///   - inputDimensions: The input's dimensions (rank 1...5).
    ///   - begin: One start per spec entry; `end` and `strides` have as many entries.
    ///   - masks: The masks and the offset flag.
    ///   - variant: The implementation.
    /// - Throws: `KernelError.invalidParameter` for specs TFLite does not define or computes inconsistently: a
    ///   zero stride, entries of different lengths, more entries than dimensions, more than one ellipsis, an
    ///   ellipsis or new-axis bit past the entries, a
    ///   shrunk axis with a negative stride or an index outside its dimension, `offset` with an ellipsis, a
    ///   new axis or fewer entries than dimensions, or an offset slice whose elements TFLite's output shape
    ///   does not match. `KernelError.invalidShape` for an input rank outside 1...5, more than 5 dimensions
    ///   with the new axes, or an empty output (the runtime has no empty tensors).
    package init(
        inputDimensions: [Int], begin: [Int], end: [Int], strides: [Int], masks: Masks,
        variant: KernelVariant = .automatic
    ) throws(KernelError) {
        let rank = inputDimensions.count
        guard (1...5).contains(rank) else {
            throw .invalidShape("strided slice input of rank \(rank); 1 to 5 are supported")
        }
        guard inputDimensions.allSatisfy({ $0 > 0 }) else {
            throw .invalidShape("input \(inputDimensions) has a dimension that is not positive")
        }
        let entries = begin.count
        guard end.count == entries, strides.count == entries else {
            throw .invalidParameter("begin, end and strides have \(begin.count), \(end.count) and \(strides.count) entries")
        }
        if let unsupported = masks.unsupportedCombination(entries: entries, rank: rank) {
            throw .invalidParameter(unsupported)
        }
        let ellipsis = masks.ellipsis
        let newAxes = masks.newAxis & ~ellipsis
        let dimensions = rank + newAxes.nonzeroBitCount
        guard dimensions <= 5 else {
            throw .invalidShape("\(dimensions) dimensions with the new axes; at most 5 are supported")
        }
        guard entries <= dimensions else {
            throw .invalidParameter("\(entries) spec entries for \(dimensions) dimensions (with the new axes)")
        }
        // The effective dimensions: where each comes from (a spec entry, the ellipsis or past the spec), and
        // whether it is a new axis (no input dimension).
        enum Source { case entry(Int), whole, newAxis }
        var sources: [Source] = []
        var e = 0
        while sources.count < dimensions {
            if e < entries && ellipsis & (1 << e) != 0 {
                // As many whole dimensions as the other entries leave (at least one, since entries ≤ dimensions).
                let covered = dimensions - (entries - 1)
                sources += Array(repeating: Source.whole, count: covered)
            } else if e < entries {
                sources.append(newAxes & (1 << e) != 0 ? .newAxis : .entry(e))
            } else {
                sources.append(.whole)
            }
            e += 1
        }

        var axes: [Axis] = []
        var output: [Int] = []
        var d = 0  // input dimension
        for source in sources {
            switch source {
            case .newAxis:
                output.append(1)
            case .whole:
                axes.append(Axis(start: 0, stride: 1, count: inputDimensions[d]))
                output.append(inputDimensions[d])
                d += 1
            case .entry(let k):
                let size = inputDimensions[d], s = strides[k], bit = 1 << k
                guard s != 0 else { throw .invalidParameter("stride 0 in entry \(k)") }
                if masks.shrinkAxis & bit != 0 {
                    guard s > 0 else { throw .invalidParameter("shrunk entry \(k) has the negative stride \(s)") }
                    let index = begin[k] < 0 ? begin[k] + size : begin[k]
                    guard (0..<size).contains(index) || masks.begin & bit != 0 else {
                        throw .invalidParameter("shrunk entry \(k) takes index \(begin[k]) of a dimension of \(size)")
                    }
                    axes.append(Axis(start: masks.begin & bit != 0 ? 0 : index, stride: 1, count: 1))
                } else {
                    let start = Self.start(begin[k], size: size, stride: s, masked: masks.begin & bit != 0)
                    let stop = Self.stop(masks.offset ? end[k] &+ start : end[k], size: size, stride: s,
                                         masked: masks.end & bit != 0)
                    let count = s > 0 ? (stop > start ? (stop - start + s - 1) / s : 0)
                                      : (start > stop ? (start - stop - s - 1) / -s : 0)
                    if masks.offset {
                        // TFLite sizes an offset slice by `ceil(end / stride)` but copies `count` elements.
                        let declared = max(Self.ceilDivide(end[k], s), 0)
                        guard declared == count else {
                            throw .invalidParameter("offset entry \(k) reaches past its dimension of \(size)")
                        }
                    }
                    guard count > 0 else { throw .invalidShape("entry \(k) takes no element: the output is empty") }
                    axes.append(Axis(start: start, stride: s, count: count))
                    output.append(count)
                }
                d += 1
            }
        }
        try self.init(inputDimensions: inputDimensions, axes: axes, outputDimensions: output, variant: variant)
    }

    /// The first index along a dimension of `size`.
    static func start(_ begin: Int, size: Int, stride: Int, masked: Bool) -> Int {
        if masked { return stride > 0 ? 0 : size - 1 }
        let index = begin < 0 ? begin + size : begin
        return stride > 0 ? min(max(index, 0), size) : min(max(index, -1), size - 1)
    }

    /// The index one past the last along a dimension of `size` (in the stride's direction).
    static func stop(_ end: Int, size: Int, stride: Int, masked: Bool) -> Int {
        if masked { return stride > 0 ? size : -1 }
        let index = end < 0 ? end + size : end
        return stride > 0 ? min(max(index, 0), size) : min(max(index, -1), size - 1)
    }

    static func ceilDivide(_ a: Int, _ b: Int) -> Int {
        let q = a / b
        return (a % b != 0 && (a < 0) == (b < 0)) ? q + 1 : q
    }
}

extension StridedSlice.Masks {
    /// A description of the masks' part that this kernel refuses for a spec of `entries` entries on an input
    /// of rank `rank`, or nil. TFLite reads the ellipsis and new-axis masks by position in the expanded
    /// dimensions, so a bit past the spec, or a second ellipsis, would select dimensions it does not size
    /// consistently; it sizes an offset slice from the raw `end` of each expanded dimension, which is defined
    /// only with one entry per input dimension and no ellipsis or new axis.
    package func unsupportedCombination(entries: Int, rank: Int) -> String? {
        let used = entries >= 32 ? -1 : (1 << entries) - 1
        if ellipsis & ~used != 0 { return "ellipsis_mask \(ellipsis) with a bit past the \(entries) spec entries" }
        if newAxis & ~used != 0 { return "new_axis_mask \(newAxis) with a bit past the \(entries) spec entries" }
        if ellipsis & (ellipsis - 1) != 0 { return "ellipsis_mask \(ellipsis) with more than one bit" }
        if offset && (ellipsis != 0 || newAxis != 0 || entries != rank) {
            return "offset with an ellipsis_mask, a new_axis_mask or fewer spec entries than dimensions"
        }
        return nil
    }
}
