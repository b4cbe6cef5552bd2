extension PointwiseConv2D {
    /// Columns per packed tile (two `SIMD8<Float>`).
    static let tileColumns = 16
    /// Rows per register tile.
    static let tileRows = 4

    /// Packs the `[outC, inC]` filter per 16-column tile as `[bias ×16][inC][×16]`, zero-padded.
    static func packSIMD(inputChannels k: Int, outputChannels n: Int, filter: [Float], bias: [Float]) -> PackedBuffer<Float> {
        let tiles = (n + tileColumns - 1) / tileColumns
        let tileSize = tileColumns * (k + 1)
        let packed = PackedBuffer<Float>(count: tiles * tileSize, repeating: 0)
        for o in 0..<n {
            let tile = packed.pointer + (o / tileColumns) * tileSize
            let lane = o % tileColumns
            tile[lane] = bias[o]
            for i in 0..<k {
                tile[tileColumns * (i + 1) + lane] = filter[o * k + i]
            }
        }
        return packed
    }

    /// Register-tiled GEMM: rows in blocks of 4 (then single rows), columns in packed tiles of 16.
    func runSIMD(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let m = rows, k = inputChannels, n = outputChannels
        let tileColumns = PointwiseConv2D.tileColumns
        let tiles = (n + tileColumns - 1) / tileColumns
        let tileSize = tileColumns * (k + 1)
        let (lo, hi) = activation.bounds
        let lower = Vec8(repeating: lo), upper = Vec8(repeating: hi)
        let weights = UnsafePointer(packed.pointer)
        var row = 0
        while row + 4 <= m {
            let a = input + row * k
            let c = output + row * n
            for t in 0..<tiles {
                PointwiseConv2D.kernel4x16(
                    a: a, k: k, tile: weights + t * tileSize, c: c + t * tileColumns, ldc: n,
                    columns: min(tileColumns, n - t * tileColumns), lower: lower, upper: upper)
            }
            row += 4
        }
        while row < m {
            let a = input + row * k
            let c = output + row * n
            for t in 0..<tiles {
                PointwiseConv2D.kernel1x16(
                    a: a, k: k, tile: weights + t * tileSize, c: c + t * tileColumns,
                    columns: min(tileColumns, n - t * tileColumns), lower: lower, upper: upper)
            }
            row += 1
        }
    }

    /// Stores up to 16 columns of one output row from two vectors.
    @inline(__always)
    static func storeRow(_ v0: Vec8, _ v1: Vec8, _ c: UnsafeMutablePointer<Float>, columns: Int) {
        if columns >= 16 {
            store8(v0, c)
            store8(v1, c + 8)
        } else if columns > 8 {
            store8(v0, c)
            storePartial(v1, c + 8, columns - 8)
        } else if columns == 8 {
            store8(v0, c)
        } else {
            storePartial(v0, c, columns)
        }
    }

    /// `C[4, columns] = act(A[4, k] × tile + bias)`; `a` rows are `k` apart, `c` rows `ldc` apart.
    @inline(__always)
    static func kernel4x16(
        a: UnsafePointer<Float>, k: Int, tile: UnsafePointer<Float>, c: UnsafeMutablePointer<Float>,
        ldc: Int, columns: Int, lower: Vec8, upper: Vec8
    ) {
        let bias0 = load8(tile), bias1 = load8(tile + 8)
        var c00 = bias0, c01 = bias1
        var c10 = bias0, c11 = bias1
        var c20 = bias0, c21 = bias1
        var c30 = bias0, c31 = bias1
        let a0 = a, a1 = a + k, a2 = a + 2 * k, a3 = a + 3 * k
        var b = tile + 16
        for i in 0..<k {
            let b0 = load8(b), b1 = load8(b + 8)
            let x0 = Vec8(repeating: a0[i])
            c00 += x0 * b0
            c01 += x0 * b1
            let x1 = Vec8(repeating: a1[i])
            c10 += x1 * b0
            c11 += x1 * b1
            let x2 = Vec8(repeating: a2[i])
            c20 += x2 * b0
            c21 += x2 * b1
            let x3 = Vec8(repeating: a3[i])
            c30 += x3 * b0
            c31 += x3 * b1
            b += 16
        }
        storeRow(clamp(c00, lower, upper), clamp(c01, lower, upper), c, columns: columns)
        storeRow(clamp(c10, lower, upper), clamp(c11, lower, upper), c + ldc, columns: columns)
        storeRow(clamp(c20, lower, upper), clamp(c21, lower, upper), c + 2 * ldc, columns: columns)
        storeRow(clamp(c30, lower, upper), clamp(c31, lower, upper), c + 3 * ldc, columns: columns)
    }

    /// `C[1, columns] = act(A[1, k] × tile + bias)`.
    @inline(__always)
    static func kernel1x16(
        a: UnsafePointer<Float>, k: Int, tile: UnsafePointer<Float>, c: UnsafeMutablePointer<Float>,
        columns: Int, lower: Vec8, upper: Vec8
    ) {
        var c0 = load8(tile), c1 = load8(tile + 8)
        var b = tile + 16
        for i in 0..<k {
            let x = Vec8(repeating: a[i])
            c0 += x * load8(b)
            c1 += x * load8(b + 8)
            b += 16
        }
        storeRow(clamp(c0, lower, upper), clamp(c1, lower, upper), c, columns: columns)
    }
}
