import BlazeTFLite

/// Expands a sparse constant (TFLite's sparsity format: traversal order, block map and per-dimension
/// DENSE / SPARSE_CSR metadata) into a dense, row-major array of the same element type.
///
/// Values are stored in traversal order; a dense level iterates its `size` positions, a CSR level the
/// stored coordinates of the current segment. Every index is checked before use, so inconsistent
/// metadata is an error and never an out-of-bounds access. The work is bounded by the stored levels:
/// dense levels multiply positions, CSR levels visit each stored index once per parent.
struct Densifier {
    let shape: [Int]
    let sparsity: Sparsity
    let elementSize: Int

    enum Failure: Error { case invalid(String) }

    /// Dense element count at which densifying is refused (matches the reader's tensor element limit).
    static let maximumWork = 1 << 32

    func densify(values: UnsafeRawBufferPointer) throws(Failure) -> [UInt8] {
        let rank = shape.count
        let order = sparsity.traversalOrder
        let blockMap = sparsity.blockMap
        let metadata = sparsity.dimensionMetadata
        let levels = order.count
        guard levels == rank + blockMap.count else {
            throw .invalid("traversal order has \(levels) entries for rank \(rank) with \(blockMap.count) block dimensions")
        }
        guard metadata.count == levels else {
            throw .invalid("\(metadata.count) dimension metadata entries for \(levels) levels")
        }
        guard Set(order) == Set(0..<levels) else { throw .invalid("traversal order \(order) is not a permutation") }
        guard order.prefix(rank).allSatisfy({ $0 < rank }) else {
            throw .invalid("traversal order \(order) lists block dimensions before tensor dimensions")
        }
        // Block sizes: the dense size of each block level.
        var blockSize = [Int](repeating: 1, count: blockMap.count)
        for (b, dim) in blockMap.enumerated() {
            guard (0..<rank).contains(dim) else { throw .invalid("block map entry \(dim) is not a dimension") }
            guard case let .dense(size) = metadata[order.firstIndex(of: rank + b)!], size > 0 else {
                throw .invalid("block dimension \(b) is not dense with a positive size")
            }
            blockSize[b] = size
        }
        // Expected size of each level.
        var levelSize = [Int](repeating: 0, count: levels)
        for level in 0..<levels {
            let d = order[level]
            if d < rank {
                var size = shape[d]
                for (b, dim) in blockMap.enumerated() where dim == d {
                    guard size % blockSize[b] == 0 else {
                        throw .invalid("dimension \(d) of size \(shape[d]) is not a multiple of block size \(blockSize[b])")
                    }
                    size /= blockSize[b]
                }
                levelSize[level] = size
            } else {
                levelSize[level] = blockSize[d - rank]
            }
            if case let .dense(size) = metadata[level], size != levelSize[level] {
                throw .invalid("level \(level) is dense with size \(size), expected \(levelSize[level])")
            }
        }
        let denseCount = shape.reduce(1, *)
        guard denseCount <= Self.maximumWork else { throw .invalid("dense size \(denseCount) is too large") }
        let valueCount = values.count / max(elementSize, 1)
        guard values.count == valueCount * elementSize else { throw .invalid("value bytes are not whole elements") }

        var output = [UInt8](repeating: 0, count: denseCount * elementSize)
        var coordinates = [Int](repeating: 0, count: levels)
        var consumed = 0
        var work = 0
        // Row-major strides of the dense tensor.
        var strides = [Int](repeating: 1, count: rank)
        if rank > 1 { for d in stride(from: rank - 2, through: 0, by: -1) { strides[d] = strides[d + 1] * shape[d + 1] } }

        do {
            func place() throws(Failure) {
                var index = 0
                var original = [Int](repeating: 0, count: rank)
                for level in 0..<rank { original[order[level]] = coordinates[level] }
                for level in rank..<levels {
                    let b = order[level] - rank
                    let d = blockMap[b]
                    original[d] = original[d] * blockSize[b] + coordinates[level]
                }
                for d in 0..<rank {
                    guard original[d] < shape[d] else { throw .invalid("coordinate \(original[d]) outside dimension \(d)") }
                    index += original[d] * strides[d]
                }
                guard consumed < valueCount else { throw .invalid("more positions than the \(valueCount) stored values") }
                for byte in 0..<elementSize { output[index * elementSize + byte] = values[consumed * elementSize + byte] }
                consumed += 1
            }
            func visit(level: Int, parent: Int) throws(Failure) {
                work += 1
                guard work <= Self.maximumWork else { throw .invalid("sparsity metadata describes too many positions") }
                if level == levels { try place(); return }
                switch metadata[level] {
                case let .dense(size):
                    for i in 0..<size {
                        coordinates[level] = i
                        try visit(level: level + 1, parent: parent * size + i)
                    }
                case let .sparseCSR(segments, indices):
                    guard parent + 1 < segments.count else {
                        throw .invalid("level \(level) has \(segments.count) segment entries, needs more than \(parent + 1)")
                    }
                    let start = segments[parent], end = segments[parent + 1]
                    guard start >= 0, start <= end, end <= indices.count else {
                        throw .invalid("level \(level) segment \(parent) is \(start)..<\(end) with \(indices.count) indices")
                    }
                    for k in start..<end {
                        let coordinate = indices[k]
                        guard coordinate >= 0, coordinate < levelSize[level] else {
                            throw .invalid("level \(level) index \(coordinate) outside 0..<\(levelSize[level])")
                        }
                        coordinates[level] = coordinate
                        try visit(level: level + 1, parent: k)
                    }
                }
            }
            if denseCount > 0 { try visit(level: 0, parent: 0) }
        }
        guard consumed == valueCount else {
            throw .invalid("metadata addresses \(consumed) values but \(valueCount) are stored")
        }
        return output
    }
}
