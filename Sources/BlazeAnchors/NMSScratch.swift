/// Reusable working memory for `NonMaxSuppression`: grows to the largest input seen, never shrinks.
///
/// Keep one per thread next to the output array; after the first call with N detections, calls with at
/// most N detections make no heap allocation.
public struct NMSScratch: Sendable {
    /// Detection indices, sorted by score (descending; ties by input position).
    var order: [Int] = []
    /// The other half of the merge sort's ping-pong.
    var mergeBuffer: [Int] = []
    /// Sort keys: the scores, with NaN replaced by -infinity.
    var keys: [Float] = []
    /// Per detection: already merged into (or suppressed by) an earlier one.
    var removed: [Bool] = []

    /// An empty scratch; it grows on first use.
    public init() {}

    /// The number of detections it can handle without growing.
    public var capacity: Int {
        min(order.count, mergeBuffer.count, keys.count, removed.count)
    }

    /// Grows to handle `count` detections without allocating later.
    /// - Parameter count: the number of detections.
    public mutating func reserveCapacity(_ count: Int) {
        Self.grow(&order, to: count, with: 0)
        Self.grow(&mergeBuffer, to: count, with: 0)
        Self.grow(&keys, to: count, with: 0)
        Self.grow(&removed, to: count, with: false)
    }

    private static func grow<T>(_ array: inout [T], to count: Int, with value: T) {
        if array.count < count {
            array.reserveCapacity(count)
            array.append(contentsOf: repeatElement(value, count: count - array.count))
        }
    }
}

extension NMSScratch {
    /// Fills `order` with 0..<n sorted by (key descending, index ascending), stable and allocation-free:
    /// insertion sort on short runs, then bottom-up merges.
    mutating func sortIndices(byScoresOf detections: UnsafeBufferPointer<Detection>) {
        let n = detections.count
        reserveCapacity(n)
        keys.withUnsafeMutableBufferPointer { keys in
            order.withUnsafeMutableBufferPointer { order in
                mergeBuffer.withUnsafeMutableBufferPointer { other in
                    for i in 0..<n {
                        let score = detections[i].score
                        keys[i] = score.isNaN ? -.infinity : score
                        order[i] = i
                    }
                    Self.mergeSort(count: n, keys: UnsafeBufferPointer(keys), order: order, other: other)
                }
            }
        }
    }

    /// Whether index `a` sorts before index `b`.
    @inline(__always)
    private static func precedes(_ a: Int, _ b: Int, _ keys: UnsafeBufferPointer<Float>) -> Bool {
        let ka = keys[a], kb = keys[b]
        return ka > kb || (ka == kb && a < b)
    }

    private static func mergeSort(
        count n: Int,
        keys: UnsafeBufferPointer<Float>,
        order: UnsafeMutableBufferPointer<Int>,
        other: UnsafeMutableBufferPointer<Int>
    ) {
        let run = 16
        var start = 0
        while start < n {
            let end = min(start + run, n)
            var i = start + 1
            while i < end {
                let value = order[i]
                var j = i
                while j > start && precedes(value, order[j - 1], keys) {
                    order[j] = order[j - 1]
                    j -= 1
                }
                order[j] = value
                i += 1
            }
            start = end
        }

        var source = order
        var target = other
        var width = run
        while width < n {
            var low = 0
            while low < n {
                let mid = min(low + width, n)
                let high = min(low + 2 * width, n)
                var a = low, b = mid, t = low
                while a < mid && b < high {
                    // Take from the right run only when it strictly precedes: stable.
                    if precedes(source[b], source[a], keys) {
                        target[t] = source[b]; b += 1
                    } else {
                        target[t] = source[a]; a += 1
                    }
                    t += 1
                }
                while a < mid { target[t] = source[a]; a += 1; t += 1 }
                while b < high { target[t] = source[b]; b += 1; t += 1 }
                low = high
            }
            swap(&source, &target)
            width *= 2
        }
        if source.baseAddress != order.baseAddress {
            for i in 0..<n { order[i] = source[i] }
        }
    }
}
