/// Places activation tensors in one arena so that tensors alive at the same time never overlap.
///
/// Greedy by size: the largest tensors are placed first, each at the lowest offset where it does not
/// overlap any already-placed tensor whose lifetime intersects its own. Offsets are multiples of
/// `alignment` bytes.
struct ArenaPlanner {
    struct Request {
        var tensor: Int
        var bytes: Int
        /// Step index of the first write (-1 for graph inputs).
        var first: Int
        /// Step index of the last read (Int.max for graph outputs).
        var last: Int
    }

    static let alignment = 64

    /// Returns the byte offset of each request (same order) and the arena size.
    static func plan(_ requests: [Request]) -> (offsets: [Int], size: Int) {
        let order = requests.indices.sorted {
            let a = requests[$0], b = requests[$1]
            return a.bytes != b.bytes ? a.bytes > b.bytes : a.first < b.first
        }
        var offsets = [Int](repeating: 0, count: requests.count)
        var placed = [Int]()
        var size = 0
        for i in order {
            let r = requests[i]
            let length = (r.bytes + alignment - 1) / alignment * alignment
            // Intervals taken by tensors alive at the same time, sorted by offset.
            let busy = placed
                .filter { requests[$0].first <= r.last && r.first <= requests[$0].last }
                .map { (offsets[$0], offsets[$0] + (requests[$0].bytes + alignment - 1) / alignment * alignment) }
                .sorted { $0.0 < $1.0 }
            var candidate = 0
            for (start, end) in busy {
                if candidate + length <= start { break }
                candidate = max(candidate, end)
            }
            offsets[i] = candidate
            size = max(size, candidate + length)
            placed.append(i)
        }
        return (offsets, size)
    }
}
