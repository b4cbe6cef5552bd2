// Register-tiled GEMM microkernels and their drivers: the pointwise (1x1) convolution as a GEMM over the
// [H·W, C] view, and any other dilation-1 convolution as an implicit GEMM (no im2col): for output pixel x and
// filter row ky, the kw·C taps are contiguous in the input row, so each filter row is a GEMM over rows
// `sw·C` apart, accumulated over the in-bounds filter rows.
//
// Packed weights (`PackedGEMM` in BlazeKernels): column panels of 16 and 8 output channels (Panels.swift), each
// [bias ×NR][depth rows ×NR] (zero-padded past the last output channel only when there are fewer than 8). For a
// convolution the depth rows are ordered (ky, kx, ic), so filter row ky is a contiguous block.

import BlazeKernelParameters

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
    /// SiLU (`x · logistic(x)`) applied last in the epilogue: a LOGISTIC and MUL (SiLU) fused into the convolution.
    var silu: Bool = false

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

/// The register tiles: 6 rows x 16 columns (12 accumulators, 2 weight vectors, 1 broadcast: 15 of the 16 ymm
/// registers) and 8 rows x 8 columns (8 accumulators, 1 weight vector, 1 broadcast).
typealias Tile6x16 = RegisterBlock6<TileRow<Vec8x2>>
typealias Tile8x8 = RegisterBlock8<TileRow<Vec8>>
#if BLAZE_KERNELS_AVX512
/// The AVX-512 build's 16-column tile: 8 rows of one zmm accumulator (8 of the 32 registers), the weights one
/// zmm, the broadcast folded into the multiply-add (`{1to16}`).
typealias Tile8x16 = RegisterBlock8<TileRow<Vec16>>
#endif

extension Microkernels {
    /// One register tile: `t.rows` rows (at most the tile's; the missing rows repeat the last row's pointer and
    /// are not stored) of `Tile.Element.Columns` columns, accumulated over `t.segments` segments of `t.depth`,
    /// then the epilogue: residual, clamp to `[lo, hi]`, PReLU slopes, HARD_SWISH, stores (through a scratch
    /// tile when the panel is narrower).
    @inline(__always)
    static func gemmTile<Tile: RegisterBlock<TileRow<Columns>>, Columns>(
        _ t: TileRun, _ lo: Float, _ hi: Float, _: Tile.Type
    ) {
        // Row r reads A at rowOffset(r); rows past t.rows repeat the last valid offset.
        var offset = 0
        var tile = Tile(repeating: TileRow(a: t.a, c: Columns(loading: t.bias)))
        tile.forEach { row, r in
            if r > 0 && t.rows > r { offset = t.rowOffset(r) }
            row.a = t.a + offset
        }
        var segment = t.b
        for _ in 0..<t.segments {
            var w = segment
            for i in 0..<t.depth {
                let weights = Columns(loading: w)
                tile.forEach { row, _ in row.c.accumulate(row.a[i], times: weights) }
                w += Columns.width
            }
            let step = t.aSegmentStride
            tile.forEach { row, _ in row.a += step }
            segment += t.bSegmentStride
        }
        if let residual = t.residual {
            let rs = t.residualRowStride, lanes = t.residualLanes, rows = t.rows
            if lanes >= Columns.width {
                tile.forEach { row, r in if r == 0 || rows > r { row.c.add(Columns(loading: residual + r &* rs)) } }
            } else {
                // A panel that reaches past the residual's channels: zeros added there.
                tile.forEach { row, r in
                    if r == 0 || rows > r { row.c.add(Columns(loadingPartial: residual + r &* rs, lanes: lanes)) }
                }
            }
        }
        if lo > -.infinity || hi < .infinity {  // no clamp at all for activation NONE
            tile.forEach(ClampTileRows<Columns>(lower: Vec8(repeating: lo), upper: Vec8(repeating: hi)))
        }
        if let alpha = t.alpha { tile.forEach(PReLUTileRows(slopes: Columns(loading: alpha))) }
        if t.hardSwish { tile.forEach(HardSwishTileRows<Columns>()) }
        let c = t.c, cs = t.cRowStride
        if t.columns == Columns.width {
            tile.forEach { row, r in if r == 0 || t.rows > r { row.c.store(c + r &* cs) } }
        } else {
            withUnsafeTemporaryAllocation(of: Float.self, capacity: Tile.width * Columns.width) { scratch in
                let p = scratch.baseAddress!
                tile.forEach { row, r in row.c.store(p + r &* Columns.width) }
                copyTileRows(p, scratchStride: Columns.width, rows: t.rows, columns: t.columns, c, cStride: cs)
            }
        }
        // SiLU last, over the stored rows (still in L1): its exponential's constants and temporaries would
        // crowd the accumulators out of the registers. The same operations on the same values as on them.
        if t.silu {
            for r in 0..<min(max(t.rows, 1), Tile.width) { silu(count: t.columns, input: c + r &* cs, output: c + r &* cs) }
        }
    }

    /// Runs `count` rows through a panel of `vectors` vectors, in tiles, starting from `t` (whose `rows`
    /// is ignored); A and C advance by `aStep` and `cStep` per row.
    @inline(__always)
    static func runPanel(vectors: Int, _ t: TileRun, count: Int, aStep: Int, cStep: Int, _ lo: Float, _ hi: Float) {
        switch vectors {
        case 2:
            #if BLAZE_KERNELS_AVX512
            panel(t, Tile8x16.self, count: count, aStep: aStep, cStep: cStep, lo, hi)
            #else
            panel(t, Tile6x16.self, count: count, aStep: aStep, cStep: cStep, lo, hi)
            #endif
        default: panel(t, Tile8x8.self, count: count, aStep: aStep, cStep: cStep, lo, hi)
        }
    }

    // One function per tile shape (a specialization each), not inlined into the drivers, so that the register
    // allocator sees only the tile loop. (A 4x24 tile, 12 accumulators + 3 weight vectors + 1 broadcast = all
    // 16 registers, spilled an accumulator in its inner loop; 6x16 needs 15.)

    @inline(never)
    static func panel<Tile: RegisterBlock<TileRow<Columns>>, Columns>(
        _ start: TileRun, _: Tile.Type, count: Int, aStep: Int, cStep: Int, _ lo: Float, _ hi: Float
    ) {
        let height = Tile.width
        var t = start
        t.rows = height
        var done = 0
        while done &+ height <= count {
            gemmTile(t, lo, hi, Tile.self)  // rows constant: the row selects and store guards fold away
            t.advance(rows: height, cStep: cStep); done &+= height
        }
        if done < count {
            t.rows = count &- done
            partialTile(t, lo, hi, Tile.self)
        }
    }

    /// The last, partial tile of a panel: out of line, so that the full tiles' loop inlines its only call.
    @inline(never)
    static func partialTile<Tile: RegisterBlock<TileRow<Columns>>, Columns>(
        _ t: TileRun, _ lo: Float, _ hi: Float, _: Tile.Type
    ) {
        gemmTile(t, lo, hi, Tile.self)
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
        let residualChannels = a.residualChannels, panels = a.panels, hardSwish = a.hardSwish, silu = a.silu
        let rc = residualChannels > 0 ? min(residualChannels, n) : n
        // With every panel computed here, SiLU runs once per chunk of rows (contiguous in the output, in L1)
        // instead of once per tile row.
        let siluPerChunk = silu && panels.lowerBound <= 0 && panels.upperBound >= panelCount(columns: n)
        // Row chunks (a multiple of every tile height) keep the chunk of A in L1 across the panels.
        let chunk = 48
        var row = 0
        while row < m {
            let count = min(chunk, m - row)
            for p in ColumnPanels(columns: n, depth: k) where panels.contains(p.index) {
                let panel = packed + p.offset, column = p.start, width = p.width
                let t = TileRun(
                    a: input + row * k, aRowStride: k, rows: 0, depth: k, segments: 1, aSegmentStride: 0,
                    b: panel + width, bSegmentStride: 0, bias: panel, c: output + row * n + column, cRowStride: n,
                    columns: min(width, n - column), alpha: alpha.map { $0 + column },
                    residual: residual.map { $0 + row * rc + min(column, rc) }, residualRowStride: rc,
                    residualLanes: rc - column, hardSwish: hardSwish, silu: silu && !siluPerChunk)
                runPanel(vectors: p.vectors, t, count: count, aStep: k, cStep: n, lo, hi)
            }
            if siluPerChunk { Microkernels.silu(count: count * n, input: output + row * n, output: output + row * n) }
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
        let io = a.operands
        let input = io.input, inH = io.inputExtent.height, inW = io.inputExtent.width, inC = io.inputExtent.channels
        let output = io.output, outH = io.outputExtent.height, outW = io.outputExtent.width
        let outC = io.outputExtent.channels
        let kh = io.window.kernelHeight, kw = io.window.kernelWidth, sh = io.window.strideHeight
        let sw = io.window.strideWidth, padTop = io.window.padTop, padLeft = io.window.padLeft
        let packed = a.packed, lo = io.bounds.lower, hi = io.bounds.upper, outputRows = io.outputRows
        let alpha = a.alpha, panels = a.panels, hardSwish = a.hardSwish, silu = a.silu
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

        for p in ColumnPanels(columns: outC, depth: depth) where panels.contains(p.index) {
            let panel = packed + p.offset, column = p.start, width = p.width, vectors = p.vectors
            let weights = panel + width
            let columns = min(width, outC - column)
            let slopes = alpha.map { $0 + column }
            // Rows of tiles from `a` (rows `aStride` apart, `segments` filter rows of `depth`) with weights `b`,
            // to `c` (rows `cStride` apart); `line`: the wrapping of output rows (see `TileRun`).
            @inline(__always) func runTiles(
                a: UnsafePointer<Float>, aStride: Int, depth: Int, segments: Int, b: UnsafePointer<Float>,
                c: UnsafeMutablePointer<Float>, cStride: Int, count: Int, line: (length: Int, jump: Int) = (.max, 0)
            ) {
                var t = TileRun(
                    a: a, aRowStride: aStride, rows: 0, depth: depth, segments: segments, aSegmentStride: inRow,
                    b: b, bSegmentStride: rowDepth * width, bias: panel, c: c, cRowStride: cStride, columns: columns,
                    alpha: slopes, lineLength: line.length, lineJump: line.jump, lineStart: 0)
                t.hardSwish = hardSwish
                t.silu = silu
                runPanel(vectors: vectors, t, count: count, aStep: aStride, cStep: cStride, lo, hi)
            }
            // Interior columns, one output row at a time. With no border column, the interior rows (whose
            // windows are inside vertically too) run as one GEMM whose tiles wrap from one output row to the
            // next: small images (4x4, 2x2) then fill whole tiles.
            let wrapRows = interiorStart == 0 && interiorEnd == outW && rowsEnd - rowsStart > 1
            if wrapRows {
                let iy0 = rowsStart * sh - padTop
                runTiles(
                    a: input + iy0 * inRow - padLeft * inC, aStride: sw * inC, depth: rowDepth, segments: kh,
                    b: weights, c: output + rowsStart * outRowSize + column, cStride: outC,
                    count: (rowsEnd - rowsStart) * outW, line: (outW, sh * inRow - outW * sw * inC))
            }
            if interiorEnd > interiorStart {
                for oy in firstRow..<max(firstRow, endRow) where !(wrapRows && oy >= rowsStart && oy < rowsEnd) {
                    let iy0 = oy * sh - padTop
                    let kyStart = max(0, -iy0)
                    let kyEnd = min(kh, inH - iy0)
                    let ox = interiorStart
                    runTiles(
                        a: input + (iy0 + kyStart) * inRow + (ox * sw - padLeft) * inC, aStride: sw * inC,
                        depth: rowDepth, segments: max(kyEnd - kyStart, 0), b: weights + kyStart * rowDepth * width,
                        c: output + oy * outRowSize + ox * outC + column, cStride: outC,
                        count: interiorEnd - interiorStart)
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
                    runTiles(
                        a: input + iy0 * inRow + (ix0 + kxStart) * inC, aStride: sh * inRow, depth: columnDepth,
                        segments: kh, b: weights + kxStart * inC * width,
                        c: output + rowsStart * outRowSize + ox * outC + column, cStride: outRowSize,
                        count: rowsEnd - rowsStart)
                }
                var oy = firstRow
                while oy < endRow {
                    if oy == rowsStart && rowsEnd > rowsStart { oy = rowsEnd; continue }
                    let iy0 = oy * sh - padTop
                    let kyStart = max(0, -iy0)
                    let kyEnd = min(kh, inH - iy0)
                    // One pixel: a tile of one row.
                    runTiles(
                        a: input + (iy0 + kyStart) * inRow + (ix0 + kxStart) * inC, aStride: 0, depth: columnDepth,
                        segments: max(kyEnd - kyStart, 0), b: weights + (kyStart * kw + kxStart) * inC * width,
                        c: output + oy * outRowSize + ox * outC + column, cStride: outC, count: 1)
                    oy += 1
                }
                ox += 1
            }
        }
    }
}
