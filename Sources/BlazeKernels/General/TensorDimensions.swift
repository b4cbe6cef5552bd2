/// The dimensions of a dense row-major float32 tensor of any rank up to `maximumRank`, checked once: every
/// dimension positive and the element count within `Int`. The general-purpose kernels (TRANSPOSE, GATHER,
/// BATCH_MATMUL, the reductions, broadcasting of rank above 4, ...) take their shapes as this.
package struct TensorDimensions: Hashable, Sendable, CustomStringConvertible {
    /// The largest rank accepted (TFLite's reference kernels stop at 6 for TRANSPOSE and broadcasting).
    package static let maximumRank = 6

    /// The dimensions, outermost first (empty for a scalar).
    package let sizes: [Int]
    /// The number of elements (1 for a scalar).
    package let count: Int

    /// - Throws: `KernelError.invalidShape` for a rank above `maximumRank`, a dimension that is not positive or
    ///   more elements than an `Int` counts.
    package init(_ sizes: [Int], role: String = "tensor") throws(KernelError) {
        guard sizes.count <= Self.maximumRank else {
            throw .invalidShape("\(role) \(sizes) has rank \(sizes.count), more than \(Self.maximumRank)")
        }
        var count = 1
        for size in sizes {
            guard size > 0 else { throw .invalidShape("\(role) \(sizes) has a dimension that is not positive") }
            let (product, overflow) = count.multipliedReportingOverflow(by: size)
            guard !overflow else { throw .invalidShape("\(role) \(sizes) has more elements than an Int counts") }
            count = product
        }
        self.sizes = sizes
        self.count = count
    }

    package var rank: Int { sizes.count }

    /// Row-major strides in elements, one per dimension.
    package var strides: [Int] {
        var strides = [Int](repeating: 1, count: sizes.count)
        var stride = 1
        for axis in sizes.indices.reversed() {
            strides[axis] = stride
            stride *= sizes[axis]
        }
        return strides
    }

    /// The product of the dimensions in `axes`.
    package func product(_ axes: Range<Int>) -> Int { sizes[axes].reduce(1, *) }

    /// `axis`, counted from the end when negative, as an index below `rank` (`extra` more allowed: PACK and
    /// EXPAND_DIMS insert an axis).
    /// - Throws: `KernelError.invalidParameter` when it lies outside.
    package func normalized(axis: Int, extra: Int = 0) throws(KernelError) -> Int {
        let limit = rank + extra
        guard axis >= -limit, axis < limit else {
            throw .invalidParameter("axis \(axis) is outside rank \(limit)")
        }
        return axis < 0 ? axis + limit : axis
    }

    package var description: String { "\(sizes)" }

    /// NumPy's broadcast of two shapes: the shorter one padded with leading 1s, then per axis the larger size
    /// where they differ only by a 1. Returns both padded shapes and the result.
    /// - Throws: `KernelError.invalidShape` when an axis has two sizes neither of which is 1.
    package static func broadcast(_ lhs: [Int], _ rhs: [Int]) throws(KernelError) -> (lhs: [Int], rhs: [Int], output: [Int]) {
        let rank = max(lhs.count, rhs.count)
        let a = [Int](repeating: 1, count: rank - lhs.count) + lhs
        let b = [Int](repeating: 1, count: rank - rhs.count) + rhs
        var output: [Int] = []
        for axis in 0..<rank {
            guard a[axis] == b[axis] || a[axis] == 1 || b[axis] == 1 else {
                throw .invalidShape("shapes \(lhs) and \(rhs) cannot be broadcast together")
            }
            output.append(a[axis] == 1 ? b[axis] : a[axis])
        }
        return (a, b, output)
    }
}
