// Depthwise 3x3 kernels with stride 1 or 2 (BlazeFace's every depthwise layer but the 5x5 ones): whole output
// rows, borders included, with each input column loaded once per filter row and shared by the neighbouring
// output pixels (a sliding window of three columns). The general register-blocked kernels and the driver are
// in Depthwise.swift; the packed weights and `DepthwiseRow` are described there.

extension Microkernels {
    /// `Block.width` output pixels of a 3x3 filter with stride 1 or 2, every channel group. Each input column
    /// is loaded once per filter row and shared by the pixels that read it: with stride 1 a sliding window of
    /// three columns, with stride 2 the even columns (each shared by two pixels). One running pointer per filter
    /// row keeps the addressing in two registers (with every column offset live, the offsets spilled).
    /// `skipFirst`/`skipLast`: the block's first or last input column lies in the padding (a border pixel), so
    /// its taps are skipped. Per pixel the taps are added in filter order, as in the reference.
    @inline(__always)
    static func depthwise3x3Block<Block: RegisterBlock<Vec8>>(
        _ r: DepthwiseRow, _: Block.Type, stride: Int, skipFirst: Bool, skipLast: Bool
    ) {
        let c = r.channels, step = stride &* c, last = Block.width &- 1
        depthwiseGroups(r, Block.self) { acc, p, w in
            let w0 = load8(w), w1 = load8(w + 8), w2 = load8(w + 16)
            var q = p
            // The pixel's first and (stride 1) middle columns, carried over from the previous pixel.
            var x0 = skipFirst ? Vec8() : load8(q)
            var x1 = stride == 1 ? load8(q + c) : Vec8()
            acc.forEach { a, i in
                if i > 0 || !skipFirst { multiplyAdd(&a, x0, w0) }
                multiplyAdd(&a, stride == 1 ? x1 : load8(q + c), w1)
                if i < last || !skipLast {
                    let y = load8(q + 2 &* c)
                    multiplyAdd(&a, y, w2)
                    if stride == 1 { x0 = x1; x1 = y } else { x0 = y }
                    q += step
                }
            }
        }
    }

    /// A whole output row of a 3x3 filter with stride 1 or 2 (at least 4 output pixels, at most one padding
    /// column on each side): blocks of 8 (stride 1) or 4 pixels, the last block shifted back to end at the last
    /// pixel (a few pixels computed twice, identically), the border pixels inside the first and last blocks.
    @inline(__always)
    static func depthwise3x3Row(_ row: DepthwiseRow, pixels: Int, stride: Int, skipLeft: Bool, skipRight: Bool) {
        // Stride 2 in blocks of 4: its loads (9 input columns and 3 weights per filter row for 12 FMAs) bound it
        // anyway, and the 8-pixel block spilled.
        switch (pixels >= 8, stride) {
        case (true, 1):
            depthwise3x3Stride1Row(
                row, RegisterBlock8<Vec8>.self, pixels: pixels, skipLeft: skipLeft, skipRight: skipRight)
        case (false, 1):
            depthwise3x3Stride1Row(
                row, RegisterBlock4<Vec8>.self, pixels: pixels, skipLeft: skipLeft, skipRight: skipRight)
        default:
            depthwise3x3Stride2Row4(row, pixels: pixels, skipLeft: skipLeft, skipRight: skipRight)
        }
    }

    /// A stride-1 row in blocks of `Block.width` pixels (at least that many): the first and last blocks, which
    /// hold the border pixels, out of line (`depthwise3x3Stride1Edge`), the middle ones inline with constant
    /// flags (no branch in their filter-row loop). The last block is shifted back to end at the last pixel (a
    /// few pixels computed twice, identically). Out of line, one specialization per block type.
    @inline(never)
    static func depthwise3x3Stride1Row<Block: RegisterBlock<Vec8>>(
        _ row: DepthwiseRow, _: Block.Type, pixels: Int, skipLeft: Bool, skipRight: Bool
    ) {
        let width = Block.width
        var r = row
        let inputStep = row.pixelStride, outputStep = row.channels
        depthwise3x3Stride1Edge(r, Block.self, skipFirst: skipLeft, skipLast: skipRight && pixels == width)
        var x = width
        while x &+ width < pixels {
            r.input = row.input + x &* inputStep
            r.output = row.output + x &* outputStep
            depthwise3x3Block(r, Block.self, stride: 1, skipFirst: false, skipLast: false)
            x &+= width
        }
        if pixels > width {
            let last = pixels &- width
            r.input = row.input + last &* inputStep
            r.output = row.output + last &* outputStep
            depthwise3x3Stride1Edge(r, Block.self, skipFirst: false, skipLast: skipRight)
        }
    }

    /// A border block of a stride-1 row: out of line, so that the middle blocks' loop holds only their code.
    @inline(never)
    static func depthwise3x3Stride1Edge<Block: RegisterBlock<Vec8>>(
        _ r: DepthwiseRow, _: Block.Type, skipFirst: Bool, skipLast: Bool
    ) {
        depthwise3x3Block(r, Block.self, stride: 1, skipFirst: skipFirst, skipLast: skipLast)
    }

    /// A stride-2 row in blocks of 4 pixels, the last block shifted back to end at the last pixel.
    @inline(never)
    static func depthwise3x3Stride2Row4(_ row: DepthwiseRow, pixels: Int, skipLeft: Bool, skipRight: Bool) {
        // (Unlike stride 1, splitting off the edge blocks made the middle blocks spill here.)
        var r = row
        let inputStep = row.pixelStride, outputStep = row.channels
        var done = 0
        while done < pixels {
            let x = min(done, pixels &- 4)
            r.input = row.input + x &* inputStep
            r.output = row.output + x &* outputStep
            depthwise3x3Block(
                r, RegisterBlock4<Vec8>.self, stride: 2, skipFirst: skipLeft && x == 0,
                skipLast: skipRight && x &+ 4 == pixels)
            done = x &+ 4
        }
    }
}
