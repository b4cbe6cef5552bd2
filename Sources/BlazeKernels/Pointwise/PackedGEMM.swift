/// Packs a row-major `[columns, depth]` weight matrix and its bias for the GEMM microkernels: the column
/// panels of `Microkernels.nextPanel` (16 or 8 wide, the last possibly overlapping the previous one), each
/// `[bias ×NR][depth rows ×NR]`, zero-padded past the last column when there are fewer than 8. A
/// convolution's OHWI filter is such a matrix with depth `kh·kw·inC` in (ky, kx, ic) order.
enum PackedGEMM {
    static func pack(columns n: Int, depth: Int, weights: [Float], bias: [Float]) -> PackedBuffer<Float> {
        let packed = PackedBuffer<Float>(count: Microkernels.packedGEMMCount(columns: n, depth: depth), repeating: 0)
        for p in ColumnPanels(columns: n, depth: depth) {
            let panel = packed.pointer + p.offset, width = p.width
            for j in 0..<min(width, n - p.start) {
                let o = p.start + j
                panel[j] = bias[o]
                for t in 0..<depth {
                    panel[width * (t + 1) + j] = weights[o * depth + t]
                }
            }
        }
        return packed
    }
}
