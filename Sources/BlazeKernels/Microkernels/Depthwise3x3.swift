// Depthwise 3x3 kernels with stride 1 or 2 (BlazeFace's every depthwise layer but the 5x5 ones): whole output
// rows, borders included, with each input column loaded once per filter row and shared by the neighbouring
// output pixels (a sliding window of three columns). The general register-blocked kernels and the driver are
// in Depthwise.swift; the packed weights and `DepthwiseRow` are described there.

extension Microkernels {
    /// 8 output pixels of a 3x3, stride-1 filter, every channel group: each input column is loaded once per filter row (a sliding window of three columns). One
    /// running pointer per filter row keeps the addressing in two registers (with every column offset live,
    /// the offsets spilled). `skipFirst`/`skipLast`: the block's first or last input column lies in the
    /// padding (a border pixel), so its taps are skipped.
    @inline(__always)
    static func depthwise3x3Stride1Block8(_ r: DepthwiseRow, skipFirst: Bool, skipLast: Bool) {
        let lower = Vec8(repeating: r.lower), upper = Vec8(repeating: r.upper)
        let clamps = r.clamps, hardSwish = r.hardSwish
        let channels = r.channels
        let rows = r.rows, inputRow = r.inputRow, packed = r.packed, groupSize = r.groupSize
        let tapOffset = r.tapOffset, input = r.input, output = r.output
        let groups = (channels &+ 7) / 8
        let c = channels
        for g in 0..<groups {
            let group = packed + g &* groupSize
            let c0 = depthwiseGroupStart(g, channels: channels)
            let bias = load8(group)
            var a0 = bias, a1 = bias, a2 = bias, a3 = bias, a4 = bias, a5 = bias, a6 = bias, a7 = bias
            var p = input + c0
            var w = group + tapOffset
            for _ in 0..<rows {
                let w0 = load8(w), w1 = load8(w + 8), w2 = load8(w + 16)
                var q = p
                var x0 = skipFirst ? Vec8() : load8(q)
                var x1 = load8(q + c)
                if !skipFirst { multiplyAdd(&a0, x0, w0) }
                multiplyAdd(&a0, x1, w1)
                let y0 = load8(q + 2 &* c)
                multiplyAdd(&a0, y0, w2)
                x0 = x1; x1 = y0; q += c
                multiplyAdd(&a1, x0, w0)
                multiplyAdd(&a1, x1, w1)
                let y1 = load8(q + 2 &* c)
                multiplyAdd(&a1, y1, w2)
                x0 = x1; x1 = y1; q += c
                multiplyAdd(&a2, x0, w0)
                multiplyAdd(&a2, x1, w1)
                let y2 = load8(q + 2 &* c)
                multiplyAdd(&a2, y2, w2)
                x0 = x1; x1 = y2; q += c
                multiplyAdd(&a3, x0, w0)
                multiplyAdd(&a3, x1, w1)
                let y3 = load8(q + 2 &* c)
                multiplyAdd(&a3, y3, w2)
                x0 = x1; x1 = y3; q += c
                multiplyAdd(&a4, x0, w0)
                multiplyAdd(&a4, x1, w1)
                let y4 = load8(q + 2 &* c)
                multiplyAdd(&a4, y4, w2)
                x0 = x1; x1 = y4; q += c
                multiplyAdd(&a5, x0, w0)
                multiplyAdd(&a5, x1, w1)
                let y5 = load8(q + 2 &* c)
                multiplyAdd(&a5, y5, w2)
                x0 = x1; x1 = y5; q += c
                multiplyAdd(&a6, x0, w0)
                multiplyAdd(&a6, x1, w1)
                let y6 = load8(q + 2 &* c)
                multiplyAdd(&a6, y6, w2)
                x0 = x1; x1 = y6; q += c
                multiplyAdd(&a7, x0, w0)
                multiplyAdd(&a7, x1, w1)
                if !skipLast { multiplyAdd(&a7, load8(q + 2 &* c), w2) }
                p += inputRow
                w += 24
            }
            if clamps {
                a0 = clamp(a0, lower, upper)
                a1 = clamp(a1, lower, upper)
                a2 = clamp(a2, lower, upper)
                a3 = clamp(a3, lower, upper)
                a4 = clamp(a4, lower, upper)
                a5 = clamp(a5, lower, upper)
                a6 = clamp(a6, lower, upper)
                a7 = clamp(a7, lower, upper)
            }
            if hardSwish {
                a0 = hardSwish8(a0)
                a1 = hardSwish8(a1)
                a2 = hardSwish8(a2)
                a3 = hardSwish8(a3)
                a4 = hardSwish8(a4)
                a5 = hardSwish8(a5)
                a6 = hardSwish8(a6)
                a7 = hardSwish8(a7)
            }
            let out = output + c0
            store8(a0, out)
            store8(a1, out + c)
            store8(a2, out + 2 &* c)
            store8(a3, out + 3 &* c)
            store8(a4, out + 4 &* c)
            store8(a5, out + 5 &* c)
            store8(a6, out + 6 &* c)
            store8(a7, out + 7 &* c)
        }
    }

    /// 4 output pixels of a 3x3, stride-1 filter, every channel group: each input column is loaded once per filter row (a sliding window of three columns). One
    /// running pointer per filter row keeps the addressing in two registers (with every column offset live,
    /// the offsets spilled). `skipFirst`/`skipLast`: the block's first or last input column lies in the
    /// padding (a border pixel), so its taps are skipped.
    @inline(__always)
    static func depthwise3x3Stride1Block4(_ r: DepthwiseRow, skipFirst: Bool, skipLast: Bool) {
        let lower = Vec8(repeating: r.lower), upper = Vec8(repeating: r.upper)
        let clamps = r.clamps, hardSwish = r.hardSwish
        let channels = r.channels
        let rows = r.rows, inputRow = r.inputRow, packed = r.packed, groupSize = r.groupSize
        let tapOffset = r.tapOffset, input = r.input, output = r.output
        let groups = (channels &+ 7) / 8
        let c = channels
        for g in 0..<groups {
            let group = packed + g &* groupSize
            let c0 = depthwiseGroupStart(g, channels: channels)
            let bias = load8(group)
            var a0 = bias, a1 = bias, a2 = bias, a3 = bias
            var p = input + c0
            var w = group + tapOffset
            for _ in 0..<rows {
                let w0 = load8(w), w1 = load8(w + 8), w2 = load8(w + 16)
                var q = p
                var x0 = skipFirst ? Vec8() : load8(q)
                var x1 = load8(q + c)
                if !skipFirst { multiplyAdd(&a0, x0, w0) }
                multiplyAdd(&a0, x1, w1)
                let y0 = load8(q + 2 &* c)
                multiplyAdd(&a0, y0, w2)
                x0 = x1; x1 = y0; q += c
                multiplyAdd(&a1, x0, w0)
                multiplyAdd(&a1, x1, w1)
                let y1 = load8(q + 2 &* c)
                multiplyAdd(&a1, y1, w2)
                x0 = x1; x1 = y1; q += c
                multiplyAdd(&a2, x0, w0)
                multiplyAdd(&a2, x1, w1)
                let y2 = load8(q + 2 &* c)
                multiplyAdd(&a2, y2, w2)
                x0 = x1; x1 = y2; q += c
                multiplyAdd(&a3, x0, w0)
                multiplyAdd(&a3, x1, w1)
                if !skipLast { multiplyAdd(&a3, load8(q + 2 &* c), w2) }
                p += inputRow
                w += 24
            }
            if clamps {
                a0 = clamp(a0, lower, upper)
                a1 = clamp(a1, lower, upper)
                a2 = clamp(a2, lower, upper)
                a3 = clamp(a3, lower, upper)
            }
            if hardSwish {
                a0 = hardSwish8(a0)
                a1 = hardSwish8(a1)
                a2 = hardSwish8(a2)
                a3 = hardSwish8(a3)
            }
            let out = output + c0
            store8(a0, out)
            store8(a1, out + c)
            store8(a2, out + 2 &* c)
            store8(a3, out + 3 &* c)
        }
    }

    /// 4 output pixels of a 3x3, stride-2 filter, every channel group: the even input columns, shared by two pixels, are loaded once per filter row. One
    /// running pointer per filter row keeps the addressing in two registers (with every column offset live,
    /// the offsets spilled). `skipFirst`/`skipLast`: the block's first or last input column lies in the
    /// padding (a border pixel), so its taps are skipped.
    @inline(__always)
    static func depthwise3x3Stride2Block4(_ r: DepthwiseRow, skipFirst: Bool, skipLast: Bool) {
        let lower = Vec8(repeating: r.lower), upper = Vec8(repeating: r.upper)
        let clamps = r.clamps, hardSwish = r.hardSwish
        let channels = r.channels
        let rows = r.rows, inputRow = r.inputRow, packed = r.packed, groupSize = r.groupSize
        let tapOffset = r.tapOffset, input = r.input, output = r.output
        let groups = (channels &+ 7) / 8
        let c = channels
        for g in 0..<groups {
            let group = packed + g &* groupSize
            let c0 = depthwiseGroupStart(g, channels: channels)
            let bias = load8(group)
            var a0 = bias, a1 = bias, a2 = bias, a3 = bias
            var p = input + c0
            var w = group + tapOffset
            for _ in 0..<rows {
                let w0 = load8(w), w1 = load8(w + 8), w2 = load8(w + 16)
                var q = p
                var x0 = skipFirst ? Vec8() : load8(q)
                if !skipFirst { multiplyAdd(&a0, x0, w0) }
                multiplyAdd(&a0, load8(q + c), w1)
                x0 = load8(q + 2 &* c)
                multiplyAdd(&a0, x0, w2)
                q += 2 &* c
                multiplyAdd(&a1, x0, w0)
                multiplyAdd(&a1, load8(q + c), w1)
                x0 = load8(q + 2 &* c)
                multiplyAdd(&a1, x0, w2)
                q += 2 &* c
                multiplyAdd(&a2, x0, w0)
                multiplyAdd(&a2, load8(q + c), w1)
                x0 = load8(q + 2 &* c)
                multiplyAdd(&a2, x0, w2)
                q += 2 &* c
                multiplyAdd(&a3, x0, w0)
                multiplyAdd(&a3, load8(q + c), w1)
                if !skipLast { multiplyAdd(&a3, load8(q + 2 &* c), w2) }
                p += inputRow
                w += 24
            }
            if clamps {
                a0 = clamp(a0, lower, upper)
                a1 = clamp(a1, lower, upper)
                a2 = clamp(a2, lower, upper)
                a3 = clamp(a3, lower, upper)
            }
            if hardSwish {
                a0 = hardSwish8(a0)
                a1 = hardSwish8(a1)
                a2 = hardSwish8(a2)
                a3 = hardSwish8(a3)
            }
            let out = output + c0
            store8(a0, out)
            store8(a1, out + c)
            store8(a2, out + 2 &* c)
            store8(a3, out + 3 &* c)
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
        case (true, 1): depthwise3x3Stride1Row8(row, pixels: pixels, skipLeft: skipLeft, skipRight: skipRight)
        case (false, 1): depthwise3x3Stride1Row4(row, pixels: pixels, skipLeft: skipLeft, skipRight: skipRight)
        default: depthwise3x3Stride2Row4(row, pixels: pixels, skipLeft: skipLeft, skipRight: skipRight)
        }
    }

    @inline(never)
    static func depthwise3x3Stride1Row8(_ row: DepthwiseRow, pixels: Int, skipLeft: Bool, skipRight: Bool) {
        depthwise3x3Stride1Blocks(row, pixels: pixels, width: 8, skipLeft: skipLeft, skipRight: skipRight,
                                  edge: depthwise3x3Stride1Edge8,
                                  middle: { depthwise3x3Stride1Block8($0, skipFirst: false, skipLast: false) })
    }

    @inline(never)
    static func depthwise3x3Stride1Edge8(_ r: DepthwiseRow, skipFirst: Bool, skipLast: Bool) {
        depthwise3x3Stride1Block8(r, skipFirst: skipFirst, skipLast: skipLast)
    }

    @inline(never)
    static func depthwise3x3Stride1Row4(_ row: DepthwiseRow, pixels: Int, skipLeft: Bool, skipRight: Bool) {
        depthwise3x3Stride1Blocks(row, pixels: pixels, width: 4, skipLeft: skipLeft, skipRight: skipRight,
                                  edge: depthwise3x3Stride1Edge4,
                                  middle: { depthwise3x3Stride1Block4($0, skipFirst: false, skipLast: false) })
    }

    @inline(never)
    static func depthwise3x3Stride1Edge4(_ r: DepthwiseRow, skipFirst: Bool, skipLast: Bool) {
        depthwise3x3Stride1Block4(r, skipFirst: skipFirst, skipLast: skipLast)
    }

    /// A stride-1 row in blocks of `width` pixels (at least `width`): the first and last blocks, which hold
    /// the border pixels, through `edge` (out of line), the middle ones through `middle`, a block with
    /// constant flags (no branch in its filter-row loop). The last block is shifted back to end at the
    /// last pixel (a few pixels computed twice, identically).
    @inline(__always)
    static func depthwise3x3Stride1Blocks(
        _ row: DepthwiseRow, pixels: Int, width: Int, skipLeft: Bool, skipRight: Bool,
        edge: (DepthwiseRow, Bool, Bool) -> Void, middle: (DepthwiseRow) -> Void
    ) {
        var r = row
        let inputStep = row.pixelStride, outputStep = row.channels
        edge(r, skipLeft, skipRight && pixels == width)
        var x = width
        while x &+ width < pixels {
            r.input = row.input + x &* inputStep
            r.output = row.output + x &* outputStep
            middle(r)
            x &+= width
        }
        if pixels > width {
            let last = pixels &- width
            r.input = row.input + last &* inputStep
            r.output = row.output + last &* outputStep
            edge(r, false, skipRight)
        }
    }

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
            depthwise3x3Stride2Block4(r, skipFirst: skipLeft && x == 0, skipLast: skipRight && x &+ 4 == pixels)
            done = x &+ 4
        }
    }
}
