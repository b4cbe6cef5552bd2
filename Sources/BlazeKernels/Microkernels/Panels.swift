// The column panels of packed GEMM weights (`PackedGEMM` in BlazeKernels): the output channels split into panels
// of 16 and 8 (`nextPanel`; the last one may overlap the previous), each stored as [bias ×NR][depth rows ×NR], and
// `ColumnPanels`, the walk over them that packing, counting and the GEMM drivers (GEMM.swift) share.

extension Microkernels {
    /// The next column panel once columns `[0, covered)` are done: 16 columns (a 6x16 tile) while 16 remain,
    /// 8 (8x8) for exactly 8. A remainder of fewer than 16 or 8 columns becomes a full panel that ends at
    /// column `n` and overlaps the previous one (those columns are computed twice, identically), so every
    /// load and store is a full vector. Only `n < 8` gives a partial panel (`start = 0`, 8 wide).
    @inline(__always)
    package static func nextPanel(covered: Int, columns n: Int) -> (start: Int, vectors: Int) {
        let remaining = n - covered
        if remaining >= 16 { return (covered, 2) }
        if remaining == 8 { return (covered, 1) }
        if remaining > 8 { return n >= 16 ? (n - 16, 2) : (covered, 1) }
        return n >= 8 ? (n - 8, 1) : (covered, 1)
    }

    /// The number of column panels for `n` columns.
    package static func panelCount(columns n: Int) -> Int {
        ColumnPanels(columns: n, depth: 0).reduce(0) { count, _ in count + 1 }
    }

    /// Floats in the packed weights of `columns` output channels over `depth` rows (bias row included).
    package static func packedGEMMCount(columns n: Int, depth: Int) -> Int {
        ColumnPanels(columns: n, depth: depth).reduce(0) { count, panel in count + panel.floats(depth: depth) }
    }
}

/// The column panels of packed weights with `columns` output channels and depth `depth`, in `nextPanel` order:
/// the one walk that packing, counting and both GEMM drivers share.
package struct ColumnPanels: Sequence, IteratorProtocol {
    /// One panel.
    package struct Panel {
        /// Its position in `nextPanel` order (what `panels` ranges select).
        package var index: Int
        /// Its first output column.
        package var start: Int
        /// Its width in 8-float vectors (1 or 2).
        package var vectors: Int
        /// Floats from the start of the packed weights to its bias row.
        package var offset: Int
        /// Its width in floats.
        package var width: Int { 8 * vectors }

        /// Floats in this panel at depth `depth`: its bias row and `depth` weight rows.
        @inline(__always)
        package func floats(depth: Int) -> Int { width * (depth + 1) }
    }

    private let columns: Int
    private let depth: Int
    private var covered = 0, index = 0, offset = 0

    /// The panels of `columns` output channels over `depth` rows.
    @inline(__always)
    package init(columns: Int, depth: Int) {
        (self.columns, self.depth) = (columns, depth)
    }

    @inline(__always)
    package mutating func next() -> Panel? {
        guard covered < columns else { return nil }
        let (start, vectors) = Microkernels.nextPanel(covered: covered, columns: columns)
        let panel = Panel(index: index, start: start, vectors: vectors, offset: offset)
        covered = start + panel.width
        index += 1
        offset += panel.floats(depth: depth)
        return panel
    }
}
