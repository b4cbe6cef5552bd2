// Register-tiled GEMM microkernels and their drivers: the pointwise (1x1) convolution as a GEMM over the
// [H·W, C] view, and any other dilation-1 convolution as an implicit GEMM (no im2col): for output pixel x and
// filter row ky, the kw·C taps are contiguous in the input row, so each filter row is a GEMM over rows
// `sw·C` apart, accumulated over the in-bounds filter rows.
//
// Packed weights (`PackedGEMM` in BlazeKernels): the output channels are split into column panels of 16
// and 8 (`nextPanel`; the last one may overlap the previous), each stored as [bias ×NR][depth rows ×NR]
// (zero-padded past the last output channel only when there are fewer than 8).
// For a convolution the depth rows are ordered (ky, kx, ic), so filter row ky is a contiguous block.

import BlazeKernelParameters

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
        var count = 0, covered = 0
        while covered < n {
            let panel = nextPanel(covered: covered, columns: n)
            covered = panel.start + 8 * panel.vectors
            count += 1
        }
        return count
    }

    /// Floats in the packed weights of `columns` output channels over `depth` rows (bias row included).
    package static func packedGEMMCount(columns n: Int, depth: Int) -> Int {
        var count = 0, covered = 0
        while covered < n {
            let panel = nextPanel(covered: covered, columns: n)
            count += 8 * panel.vectors * (depth + 1)
            covered = panel.start + 8 * panel.vectors
        }
        return count
    }
}

/// One call of a register tile: `rows` rows (at most the tile's) of `columns` outputs (at most its width).
struct TileRun {
    /// The first element of row 0's first segment.
    var a: UnsafePointer<Float>
    /// Floats between consecutive rows of A.
    var aRowStride: Int
    var rows: Int
    /// Depth (k) of one segment.
    var depth: Int
    /// Segments accumulated (filter rows of a convolution; 1 for a plain GEMM).
    var segments: Int
    /// Floats between consecutive segments in A.
    var aSegmentStride: Int
    /// The panel's first weight row of the first segment.
    var b: UnsafePointer<Float>
    /// Floats between consecutive segments in the panel.
    var bSegmentStride: Int
    /// The panel's bias row.
    var bias: UnsafePointer<Float>
    var c: UnsafeMutablePointer<Float>
    var cRowStride: Int
    /// Valid columns of the panel.
    var columns: Int
    /// PReLU slopes of the panel's columns (a PRELU fused into the epilogue, after the clamp), or nil.
    var alpha: UnsafePointer<Float>? = nil
    /// Values added to the tile before the clamp (an ADD fused into the epilogue), rows `residualRowStride`
    /// apart, or nil. Its first `residualLanes` columns are read (as full vectors when that is the panel's
    /// width or more: only for panels whose `columns` is their full width); the other columns get 0 added, as
    /// the channels a BlazeBlock shortcut's PAD appends do.
    var residual: UnsafePointer<Float>? = nil
    var residualRowStride: Int = 0
    var residualLanes: Int = 0
    /// Rows that wrap: consecutive rows are `aRowStride` apart within a line of `lineLength` rows, and a
    /// new line starts `lineJump` floats further than that (a convolution's output rows, run as one GEMM).
    /// `lineJump == 0`: no wrapping.
    var lineLength: Int = .max
    var lineJump: Int = 0
    /// The position of row 0 within its line.
    var lineStart: Int = 0
    /// TFLite's HARD_SWISH applied last in the epilogue (`hardSwish8`, after the clamp and the slopes): a
    /// HARD_SWISH fused into the convolution.
    var hardSwish: Bool = false

    /// Offset in A of row `r` from row 0.
    @inline(__always)
    func rowOffset(_ r: Int) -> Int {
        if lineJump == 0 { return r &* aRowStride }
        return r &* aRowStride &+ ((lineStart &+ r) / lineLength) &* lineJump
    }

    /// Moves row `r` to row 0.
    @inline(__always)
    mutating func advance(rows r: Int, cStep: Int) {
        a += rowOffset(r)
        c += r &* cStep
        if let added = residual { residual = added + r &* residualRowStride }
        if lineJump != 0 { lineStart = (lineStart &+ r) % lineLength }
    }
}

/// TFLite's PRELU on a vector, as the standalone kernel computes it: `v < 0 ? v · a : v`.
@inline(__always)
func preluLanes(_ v: Vec8, _ a: Vec8) -> Vec8 {
    v.replacing(with: v * a, where: v .< Vec8())
}

/// Copies `rows` rows of `columns` floats from `scratch` (rows `scratchStride` floats apart) to `c` (rows
/// `cStride` apart): the stores of a tile whose last panel is narrower than the tile. Out of line, and
/// called once the accumulators are dead, so the tile loop keeps all its registers.
@inline(never)
func copyTileRows(
    _ scratch: UnsafePointer<Float>, scratchStride: Int, rows: Int, columns: Int,
    _ c: UnsafeMutablePointer<Float>, cStride: Int
) {
    for r in 0..<rows {
        let source = scratch + r * scratchStride, destination = c + r * cStride
        var i = 0
        while i + 8 <= columns {
            store8(load8(source + i), destination + i)
            i += 8
        }
        if i < columns { storePartial(load8(source + i), destination + i, columns - i) }
    }
}

extension Microkernels {
    /// 6 rows x 16 columns: 12 accumulators, 2 weight vectors, 1 broadcast.
    @inline(__always)
    static func tile6x16(_ t: TileRun, _ lo: Float, _ hi: Float) {
        let o1 = t.rows > 1 ? t.rowOffset(1) : 0
        let o2 = t.rows > 2 ? t.rowOffset(2) : o1
        let o3 = t.rows > 3 ? t.rowOffset(3) : o2
        let o4 = t.rows > 4 ? t.rowOffset(4) : o3
        let o5 = t.rows > 5 ? t.rowOffset(5) : o4
        var a0 = t.a, a1 = t.a + o1, a2 = t.a + o2, a3 = t.a + o3, a4 = t.a + o4, a5 = t.a + o5
        let bias0 = load8(t.bias), bias1 = load8(t.bias + 8)
        var c00 = bias0, c01 = bias1
        var c10 = bias0, c11 = bias1
        var c20 = bias0, c21 = bias1
        var c30 = bias0, c31 = bias1
        var c40 = bias0, c41 = bias1
        var c50 = bias0, c51 = bias1
        var segment = t.b
        for _ in 0..<t.segments {
            var w = segment
            for i in 0..<t.depth {
                let w0 = load8(w), w1 = load8(w + 8)
                var x = Vec8(repeating: a0[i])
                multiplyAdd(&c00, x, w0); multiplyAdd(&c01, x, w1)
                x = Vec8(repeating: a1[i])
                multiplyAdd(&c10, x, w0); multiplyAdd(&c11, x, w1)
                x = Vec8(repeating: a2[i])
                multiplyAdd(&c20, x, w0); multiplyAdd(&c21, x, w1)
                x = Vec8(repeating: a3[i])
                multiplyAdd(&c30, x, w0); multiplyAdd(&c31, x, w1)
                x = Vec8(repeating: a4[i])
                multiplyAdd(&c40, x, w0); multiplyAdd(&c41, x, w1)
                x = Vec8(repeating: a5[i])
                multiplyAdd(&c50, x, w0); multiplyAdd(&c51, x, w1)
                w += 16
            }
            let step = t.aSegmentStride
            a0 += step; a1 += step; a2 += step; a3 += step; a4 += step; a5 += step
            segment += t.bSegmentStride
        }
        if let r = t.residual {
            let rs = t.residualRowStride
            if t.residualLanes >= 16 {
                c00 += load8(r); c01 += load8(r + 8)
                if t.rows > 1 { c10 += load8(r + rs); c11 += load8(r + rs + 8) }
                if t.rows > 2 { c20 += load8(r + 2 &* rs); c21 += load8(r + 2 &* rs + 8) }
                if t.rows > 3 { c30 += load8(r + 3 &* rs); c31 += load8(r + 3 &* rs + 8) }
                if t.rows > 4 { c40 += load8(r + 4 &* rs); c41 += load8(r + 4 &* rs + 8) }
                if t.rows > 5 { c50 += load8(r + 5 &* rs); c51 += load8(r + 5 &* rs + 8) }
            } else {
                // A panel that reaches past the residual's channels: zeros added there.
                let l0 = t.residualLanes, l1 = t.residualLanes &- 8
                c00 += loadPartial(r, l0); c01 += loadPartial(r + 8, l1)
                if t.rows > 1 { c10 += loadPartial(r + rs, l0); c11 += loadPartial(r + rs + 8, l1) }
                if t.rows > 2 { c20 += loadPartial(r + 2 &* rs, l0); c21 += loadPartial(r + 2 &* rs + 8, l1) }
                if t.rows > 3 { c30 += loadPartial(r + 3 &* rs, l0); c31 += loadPartial(r + 3 &* rs + 8, l1) }
                if t.rows > 4 { c40 += loadPartial(r + 4 &* rs, l0); c41 += loadPartial(r + 4 &* rs + 8, l1) }
                if t.rows > 5 { c50 += loadPartial(r + 5 &* rs, l0); c51 += loadPartial(r + 5 &* rs + 8, l1) }
            }
        }
        if lo > -.infinity || hi < .infinity {  // no clamp at all for activation NONE
            let lower = Vec8(repeating: lo), upper = Vec8(repeating: hi)
            c00 = clamp(c00, lower, upper); c01 = clamp(c01, lower, upper)
            c10 = clamp(c10, lower, upper); c11 = clamp(c11, lower, upper)
            c20 = clamp(c20, lower, upper); c21 = clamp(c21, lower, upper)
            c30 = clamp(c30, lower, upper); c31 = clamp(c31, lower, upper)
            c40 = clamp(c40, lower, upper); c41 = clamp(c41, lower, upper)
            c50 = clamp(c50, lower, upper); c51 = clamp(c51, lower, upper)
        }
        if let alpha = t.alpha {
            let s0 = load8(alpha), s1 = load8(alpha + 8)
            c00 = preluLanes(c00, s0); c01 = preluLanes(c01, s1)
            c10 = preluLanes(c10, s0); c11 = preluLanes(c11, s1)
            c20 = preluLanes(c20, s0); c21 = preluLanes(c21, s1)
            c30 = preluLanes(c30, s0); c31 = preluLanes(c31, s1)
            c40 = preluLanes(c40, s0); c41 = preluLanes(c41, s1)
            c50 = preluLanes(c50, s0); c51 = preluLanes(c51, s1)
        }
        if t.hardSwish {
            c00 = hardSwish8(c00); c01 = hardSwish8(c01)
            c10 = hardSwish8(c10); c11 = hardSwish8(c11)
            c20 = hardSwish8(c20); c21 = hardSwish8(c21)
            c30 = hardSwish8(c30); c31 = hardSwish8(c31)
            c40 = hardSwish8(c40); c41 = hardSwish8(c41)
            c50 = hardSwish8(c50); c51 = hardSwish8(c51)
        }
        let c = t.c, cs = t.cRowStride
        if t.columns == 16 {
            store8(c00, c); store8(c01, c + 8)
            if t.rows > 1 { store8(c10, c + cs); store8(c11, c + cs + 8) }
            if t.rows > 2 { store8(c20, c + 2 &* cs); store8(c21, c + 2 &* cs + 8) }
            if t.rows > 3 { store8(c30, c + 3 &* cs); store8(c31, c + 3 &* cs + 8) }
            if t.rows > 4 { store8(c40, c + 4 &* cs); store8(c41, c + 4 &* cs + 8) }
            if t.rows > 5 { store8(c50, c + 5 &* cs); store8(c51, c + 5 &* cs + 8) }
        } else {
            withUnsafeTemporaryAllocation(of: Float.self, capacity: 96) { scratch in
                let p = scratch.baseAddress!
                store8(c00, p); store8(c01, p + 8)
                store8(c10, p + 16); store8(c11, p + 24)
                store8(c20, p + 32); store8(c21, p + 40)
                store8(c30, p + 48); store8(c31, p + 56)
                store8(c40, p + 64); store8(c41, p + 72)
                store8(c50, p + 80); store8(c51, p + 88)
                copyTileRows(p, scratchStride: 16, rows: t.rows, columns: t.columns, c, cStride: cs)
            }
        }
    }

    /// 8 rows x 8 columns: 8 accumulators, 1 weight vector, 1 broadcast.
    @inline(__always)
    static func tile8x8(_ t: TileRun, _ lo: Float, _ hi: Float) {
        let o1 = t.rows > 1 ? t.rowOffset(1) : 0
        let o2 = t.rows > 2 ? t.rowOffset(2) : o1
        let o3 = t.rows > 3 ? t.rowOffset(3) : o2
        let o4 = t.rows > 4 ? t.rowOffset(4) : o3
        let o5 = t.rows > 5 ? t.rowOffset(5) : o4
        let o6 = t.rows > 6 ? t.rowOffset(6) : o5
        let o7 = t.rows > 7 ? t.rowOffset(7) : o6
        var a0 = t.a, a1 = t.a + o1, a2 = t.a + o2, a3 = t.a + o3
        var a4 = t.a + o4, a5 = t.a + o5, a6 = t.a + o6, a7 = t.a + o7
        let bias0 = load8(t.bias)
        var c0 = bias0, c1 = bias0, c2 = bias0, c3 = bias0, c4 = bias0, c5 = bias0, c6 = bias0, c7 = bias0
        var segment = t.b
        for _ in 0..<t.segments {
            var w = segment
            for i in 0..<t.depth {
                let w0 = load8(w)
                multiplyAdd(&c0, Vec8(repeating: a0[i]), w0)
                multiplyAdd(&c1, Vec8(repeating: a1[i]), w0)
                multiplyAdd(&c2, Vec8(repeating: a2[i]), w0)
                multiplyAdd(&c3, Vec8(repeating: a3[i]), w0)
                multiplyAdd(&c4, Vec8(repeating: a4[i]), w0)
                multiplyAdd(&c5, Vec8(repeating: a5[i]), w0)
                multiplyAdd(&c6, Vec8(repeating: a6[i]), w0)
                multiplyAdd(&c7, Vec8(repeating: a7[i]), w0)
                w += 8
            }
            let step = t.aSegmentStride
            a0 += step; a1 += step; a2 += step; a3 += step; a4 += step; a5 += step; a6 += step; a7 += step
            segment += t.bSegmentStride
        }
        if let r = t.residual {
            let rs = t.residualRowStride
            if t.residualLanes >= 8 {
                c0 += load8(r)
                if t.rows > 1 { c1 += load8(r + rs) }
                if t.rows > 2 { c2 += load8(r + 2 &* rs) }
                if t.rows > 3 { c3 += load8(r + 3 &* rs) }
                if t.rows > 4 { c4 += load8(r + 4 &* rs) }
                if t.rows > 5 { c5 += load8(r + 5 &* rs) }
                if t.rows > 6 { c6 += load8(r + 6 &* rs) }
                if t.rows > 7 { c7 += load8(r + 7 &* rs) }
            } else {
                // A panel that reaches past the residual's channels: zeros added there.
                let l = t.residualLanes
                c0 += loadPartial(r, l)
                if t.rows > 1 { c1 += loadPartial(r + rs, l) }
                if t.rows > 2 { c2 += loadPartial(r + 2 &* rs, l) }
                if t.rows > 3 { c3 += loadPartial(r + 3 &* rs, l) }
                if t.rows > 4 { c4 += loadPartial(r + 4 &* rs, l) }
                if t.rows > 5 { c5 += loadPartial(r + 5 &* rs, l) }
                if t.rows > 6 { c6 += loadPartial(r + 6 &* rs, l) }
                if t.rows > 7 { c7 += loadPartial(r + 7 &* rs, l) }
            }
        }
        if lo > -.infinity || hi < .infinity {  // no clamp at all for activation NONE
            let lower = Vec8(repeating: lo), upper = Vec8(repeating: hi)
            c0 = clamp(c0, lower, upper); c1 = clamp(c1, lower, upper)
            c2 = clamp(c2, lower, upper); c3 = clamp(c3, lower, upper)
            c4 = clamp(c4, lower, upper); c5 = clamp(c5, lower, upper)
            c6 = clamp(c6, lower, upper); c7 = clamp(c7, lower, upper)
        }
        if let alpha = t.alpha {
            let s0 = load8(alpha)
            c0 = preluLanes(c0, s0); c1 = preluLanes(c1, s0); c2 = preluLanes(c2, s0); c3 = preluLanes(c3, s0)
            c4 = preluLanes(c4, s0); c5 = preluLanes(c5, s0); c6 = preluLanes(c6, s0); c7 = preluLanes(c7, s0)
        }
        if t.hardSwish {
            c0 = hardSwish8(c0); c1 = hardSwish8(c1); c2 = hardSwish8(c2); c3 = hardSwish8(c3)
            c4 = hardSwish8(c4); c5 = hardSwish8(c5); c6 = hardSwish8(c6); c7 = hardSwish8(c7)
        }
        let c = t.c, cs = t.cRowStride
        if t.columns == 8 {
            store8(c0, c)
            if t.rows > 1 { store8(c1, c + cs) }
            if t.rows > 2 { store8(c2, c + 2 &* cs) }
            if t.rows > 3 { store8(c3, c + 3 &* cs) }
            if t.rows > 4 { store8(c4, c + 4 &* cs) }
            if t.rows > 5 { store8(c5, c + 5 &* cs) }
            if t.rows > 6 { store8(c6, c + 6 &* cs) }
            if t.rows > 7 { store8(c7, c + 7 &* cs) }
        } else {
            withUnsafeTemporaryAllocation(of: Float.self, capacity: 64) { scratch in
                let p = scratch.baseAddress!
                store8(c0, p); store8(c1, p + 8); store8(c2, p + 16); store8(c3, p + 24)
                store8(c4, p + 32); store8(c5, p + 40); store8(c6, p + 48); store8(c7, p + 56)
                copyTileRows(p, scratchStride: 8, rows: t.rows, columns: t.columns, c, cStride: cs)
            }
        }
    }

    /// Runs `count` rows through a panel of `vectors` vectors, in tiles, starting from `t` (whose `rows`
    /// is ignored); A and C advance by `aStep` and `cStep` per row.
    @inline(__always)
    static func runPanel(vectors: Int, _ t: TileRun, count: Int, aStep: Int, cStep: Int, _ lo: Float, _ hi: Float) {
        switch vectors {
        case 2: panel6x16(t, count: count, aStep: aStep, cStep: cStep, lo, hi)
        default: panel8x8(t, count: count, aStep: aStep, cStep: cStep, lo, hi)
        }
    }

    // One function per tile shape, not inlined into the drivers, so that the register allocator sees only
    // the tile loop. (A 4x24 tile, 12 accumulators + 3 weight vectors + 1 broadcast = all 16 registers,
    // spilled an accumulator in its inner loop; 6x16 needs 15.)

    @inline(never)
    static func panel6x16(_ start: TileRun, count: Int, aStep: Int, cStep: Int, _ lo: Float, _ hi: Float) {
        var t = start
        t.rows = 6
        var done = 0
        while done &+ 6 <= count {
            tile6x16(t, lo, hi)  // rows constant: the row selects and store guards fold away
            t.advance(rows: 6, cStep: cStep); done &+= 6
        }
        if done < count {
            t.rows = count &- done
            partialTile6x16(t, lo, hi)
        }
    }

    /// The last, partial tile of a panel: out of line, so that the full tiles' loop inlines its only call.
    @inline(never)
    static func partialTile6x16(_ t: TileRun, _ lo: Float, _ hi: Float) {
        tile6x16(t, lo, hi)
    }

    @inline(never)
    static func partialTile8x8(_ t: TileRun, _ lo: Float, _ hi: Float) {
        tile8x8(t, lo, hi)
    }

    @inline(never)
    static func panel8x8(_ start: TileRun, count: Int, aStep: Int, cStep: Int, _ lo: Float, _ hi: Float) {
        var t = start
        t.rows = 8
        var done = 0
        while done &+ 8 <= count {
            tile8x8(t, lo, hi)
            t.advance(rows: 8, cStep: cStep); done &+= 8
        }
        if done < count {
            t.rows = count &- done
            partialTile8x8(t, lo, hi)
        }
    }

    /// `output[m, n] = clamp(input[m, k] × W + bias (+ residual[m, n]))` with W packed as described above
    /// (depth `k`), then PReLU with `alpha[n]` when given (readable to `n + 16`), then TFLite's HARD_SWISH
    /// when `hardSwish` (the same operations as the standalone kernel, so the same bits). A `residual` (not
    /// overlapping the output) needs `n >= 8`; it has `residualChannels` (1...n; 0 means n) channels per row,
    /// and 0 is added in the columns beyond them (a shortcut zero-padded in channels). Computes the column
    /// panels `panels` only (indices in `nextPanel` order); every output value is computed the same way
    /// whatever the rows and panels.
    package static func pointwise(_ a: PointwiseArguments) {
        let m = a.rows, k = a.depth, n = a.columns, input = a.input, packed = a.packed, output = a.output
        let lo = a.bounds.lower, hi = a.bounds.upper, alpha = a.alpha, residual = a.residual
        let residualChannels = a.residualChannels, panels = a.panels, hardSwish = a.hardSwish
        let rc = residualChannels > 0 ? min(residualChannels, n) : n
        // Row chunks (a multiple of every tile height) keep the chunk of A in L1 across the panels.
        let chunk = 48
        var row = 0
        while row < m {
            let count = min(chunk, m - row)
            var panel = packed
            var covered = 0, index = 0
            while covered < n {
                let (column, vectors) = nextPanel(covered: covered, columns: n)
                let width = 8 * vectors
                defer { panel += width * (k + 1); covered = column + width; index += 1 }
                guard panels.contains(index) else { continue }
                let t = TileRun(
                    a: input + row * k, aRowStride: k, rows: 0, depth: k, segments: 1, aSegmentStride: 0,
                    b: panel + width, bSegmentStride: 0, bias: panel, c: output + row * n + column, cRowStride: n,
                    columns: min(width, n - column), alpha: alpha.map { $0 + column },
                    residual: residual.map { $0 + row * rc + min(column, rc) }, residualRowStride: rc,
                    residualLanes: rc - column, hardSwish: hardSwish)
                runPanel(vectors: vectors, t, count: count, aStep: k, cStep: n, lo, hi)
            }
            row += count
        }
    }

    /// A dilation-1 convolution of one image (NHWC) as an implicit GEMM; weights packed with depth
    /// `kh·kw·inC` in (ky, kx, ic) order. Interior pixels of each output row run as tile rows `sw·inC` apart.
    /// A border column (whose window crosses the left or right edge) runs down the image instead, its tile rows
    /// `sh` input rows apart over the in-bounds filter columns; only the pixels that are on both a border row
    /// and a border column run alone. Computes output rows `outputRows` only (a subrange of `0..<outH`), and
    /// column panels `panels` only (indices in `nextPanel` order); every output value is computed the same way
    /// whatever the ranges. `hardSwish`: TFLite's HARD_SWISH applied last, as in `pointwise`.
    package static func convolution(_ a: ConvolutionArguments) {
        let input = a.input, inH = a.inputExtent.height, inW = a.inputExtent.width, inC = a.inputExtent.channels
        let output = a.output, outH = a.outputExtent.height, outW = a.outputExtent.width
        let outC = a.outputExtent.channels
        let kh = a.window.kernelHeight, kw = a.window.kernelWidth, sh = a.window.strideHeight
        let sw = a.window.strideWidth, padTop = a.window.padTop, padLeft = a.window.padLeft
        let packed = a.packed, lo = a.bounds.lower, hi = a.bounds.upper, outputRows = a.outputRows
        let alpha = a.alpha, panels = a.panels, hardSwish = a.hardSwish
        let depth = kh * kw * inC
        let rowDepth = kw * inC
        let inRow = inW * inC
        let outRowSize = outW * outC
        // Output columns whose window lies inside the input horizontally: [interiorStart, interiorEnd); the same
        // for rows.
        let interiorStart = min((padLeft + sw - 1) / sw, outW)
        let lastStart = inW - kw + padLeft  // the largest x·sw that stays inside
        let interiorEnd = lastStart < 0 ? interiorStart : max(interiorStart, min(outW, lastStart / sw + 1))
        let allRowsStart = min((padTop + sh - 1) / sh, outH)
        let lastRowStart = inH - kh + padTop
        let allRowsEnd = lastRowStart < 0 ? allRowsStart : max(allRowsStart, min(outH, lastRowStart / sh + 1))
        // The interior rows within the requested range (an empty range stays empty).
        let firstRow = max(outputRows.lowerBound, 0), endRow = min(outputRows.upperBound, outH)
        let rowsStart = min(max(allRowsStart, firstRow), endRow)
        let rowsEnd = max(min(allRowsEnd, endRow), rowsStart)

        var panel = packed
        var covered = 0, index = 0
        while covered < outC {
            let (column, vectors) = nextPanel(covered: covered, columns: outC)
            let width = 8 * vectors
            defer { panel += width * (depth + 1); covered = column + width; index += 1 }
            guard panels.contains(index) else { continue }
            let weights = panel + width
            let columns = min(width, outC - column)
            let slopes = alpha.map { $0 + column }
            // Interior columns, one output row at a time. With no border column, the interior rows (whose
            // windows are inside vertically too) run as one GEMM whose tiles wrap from one output row to the
            // next: small images (4x4, 2x2) then fill whole tiles.
            let wrapRows = interiorStart == 0 && interiorEnd == outW && rowsEnd - rowsStart > 1
            if wrapRows {
                let iy0 = rowsStart * sh - padTop
                var t = TileRun(
                    a: input + iy0 * inRow - padLeft * inC, aRowStride: sw * inC, rows: 0,
                    depth: rowDepth, segments: kh, aSegmentStride: inRow,
                    b: weights, bSegmentStride: rowDepth * width, bias: panel,
                    c: output + rowsStart * outRowSize + column, cRowStride: outC, columns: columns, alpha: slopes,
                    lineLength: outW, lineJump: sh * inRow - outW * sw * inC, lineStart: 0)
                t.hardSwish = hardSwish
                runPanel(vectors: vectors, t, count: (rowsEnd - rowsStart) * outW, aStep: sw * inC, cStep: outC,
                         lo, hi)
            }
            if interiorEnd > interiorStart {
                for oy in firstRow..<max(firstRow, endRow) where !(wrapRows && oy >= rowsStart && oy < rowsEnd) {
                    let iy0 = oy * sh - padTop
                    let kyStart = max(0, -iy0)
                    let kyEnd = min(kh, inH - iy0)
                    let ox = interiorStart
                    var t = TileRun(
                        a: input + (iy0 + kyStart) * inRow + (ox * sw - padLeft) * inC, aRowStride: sw * inC, rows: 0,
                        depth: rowDepth, segments: max(kyEnd - kyStart, 0), aSegmentStride: inRow,
                        b: weights + kyStart * rowDepth * width, bSegmentStride: rowDepth * width, bias: panel,
                        c: output + oy * outRowSize + ox * outC + column, cRowStride: outC, columns: columns, alpha: slopes)
                    t.hardSwish = hardSwish
                    runPanel(vectors: vectors, t, count: interiorEnd - interiorStart, aStep: sw * inC, cStep: outC,
                             lo, hi)
                }
            }
            // Border columns: down the interior rows as one run of tiles, then the corner pixels alone.
            var ox = 0
            while ox < outW {
                if ox == interiorStart && interiorEnd > interiorStart { ox = interiorEnd; continue }
                let ix0 = ox * sw - padLeft
                let kxStart = max(0, -ix0)
                let columnDepth = max(min(kw, inW - ix0) - kxStart, 0) * inC
                if rowsEnd > rowsStart {
                    let iy0 = rowsStart * sh - padTop
                    var t = TileRun(
                        a: input + iy0 * inRow + (ix0 + kxStart) * inC, aRowStride: sh * inRow, rows: 0,
                        depth: columnDepth, segments: kh, aSegmentStride: inRow,
                        b: weights + kxStart * inC * width, bSegmentStride: rowDepth * width,
                        bias: panel, c: output + rowsStart * outRowSize + ox * outC + column, cRowStride: outRowSize,
                        columns: columns, alpha: slopes)
                    t.hardSwish = hardSwish
                    runPanel(vectors: vectors, t, count: rowsEnd - rowsStart, aStep: sh * inRow, cStep: outRowSize,
                             lo, hi)
                }
                var oy = firstRow
                while oy < endRow {
                    if oy == rowsStart && rowsEnd > rowsStart { oy = rowsEnd; continue }
                    let iy0 = oy * sh - padTop
                    let kyStart = max(0, -iy0)
                    let kyEnd = min(kh, inH - iy0)
                    var t = TileRun(
                        a: input + (iy0 + kyStart) * inRow + (ix0 + kxStart) * inC, aRowStride: 0, rows: 1,
                        depth: columnDepth, segments: max(kyEnd - kyStart, 0), aSegmentStride: inRow,
                        b: weights + (kyStart * kw + kxStart) * inC * width, bSegmentStride: rowDepth * width,
                        bias: panel, c: output + oy * outRowSize + ox * outC + column, cRowStride: outC,
                        columns: columns, alpha: slopes)
                    t.hardSwish = hardSwish
                    runPanel(vectors: vectors, t, count: 1, aStep: 0, cStep: 0, lo, hi)
                    oy += 1
                }
                ox += 1
            }
        }
    }
}
