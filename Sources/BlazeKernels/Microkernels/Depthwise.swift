// Depthwise convolution (depth multiplier 1, dilation 1, any kernel size and stride), register-blocked:
// 8 (or 4) output pixels of one row x 8 channels per step, the taps' weights shared by the pixels. Borders are
// handled in the kernel: out-of-range filter rows are skipped for the whole output row, and the few output
// columns whose window crosses the left or right edge run one pixel at a time over their in-bounds filter
// columns (four channel groups at a time). No padded copy of the input.
//
// Packed weights: per group of 8 channels [bias ×8][kh·kw taps ×8]. With 8 channels or more, the last group
// is channels [C - 8, C), overlapping the previous one (those channels are computed twice, identically), so
// that every load and store is a full vector; with fewer than 8 there is one zero-padded partial group.

import BlazeKernelParameters

extension Microkernels {
    /// The first channel of group `g` (see the packing above).
    @inline(__always)
    package static func depthwiseGroupStart(_ g: Int, channels: Int) -> Int {
        channels >= 8 ? min(8 &* g, channels &- 8) : 0
    }

    /// Loads `count` (1...8) channels: a plain vector load when `count` is 8, a partial load that reads only
    /// `count` floats otherwise.
    @inline(__always)
    static func loadChannels(_ p: UnsafePointer<Float>, _ count: Int) -> Vec8 {
        count == 8 ? load8(p) : loadPartial(p, count)
    }

    @inline(__always)
    static func storeChannels(_ v: Vec8, _ p: UnsafeMutablePointer<Float>, _ count: Int) {
        if count == 8 { store8(v, p) } else { storePartial(v, p, count) }
    }

    /// The geometry of one output row's work, shared by the block kernels.
    struct DepthwiseRow {
        /// Input channel 0 of the block's first pixel, first in-bounds filter row.
        var input: UnsafePointer<Float>
        /// Floats between the inputs of consecutive output pixels (`stride · C`).
        var pixelStride: Int
        var channels: Int
        /// Floats between input rows.
        var inputRow: Int
        /// In-bounds filter rows.
        var rows: Int
        var kernelWidth: Int
        var packed: UnsafePointer<Float>
        var groupSize: Int
        /// Offset of the first in-bounds filter row's taps in a group (after the bias).
        var tapOffset: Int
        /// Channel 0 of the block's first output pixel.
        var output: UnsafeMutablePointer<Float>
        var lower: Float
        var upper: Float
        /// TFLite's HARD_SWISH after the clamp (a HARD_SWISH fused into the convolution).
        var hardSwish: Bool = false

        @inline(__always) var clamps: Bool { lower > -.infinity || upper < .infinity }
    }

    /// `Block.width` output pixels, every channel group: each tap's weight loaded once for the block.
    @inline(__always)
    static func depthwiseBlock<Block: RegisterBlock<Vec8>>(_ r: DepthwiseRow, _: Block.Type) {
        // Fields copied to locals: the stores to the output could otherwise alias `r` for the optimizer.
        let ps = r.pixelStride, channels = r.channels, kw = r.kernelWidth
        depthwiseGroups(r, Block.self) { acc, row, w in
            var column = row
            for kx in 0..<kw {
                let wv = load8(w + 8 &* kx)
                acc.forEach { a, i in multiplyAdd(&a, load8(column + i &* ps), wv) }
                column += channels
            }
        }
    }

    /// The channel groups of a block of `Block.width` output pixels: per group of 8 channels the accumulators
    /// start at the bias, `filterRow(&accumulators, input, taps)` adds each in-bounds filter row (`input`: the
    /// row's first input column of the block's first pixel, at the group's first channel; `taps`: the row's
    /// packed weights), then `finishDepthwiseBlock` stores them.
    @inline(__always)
    static func depthwiseGroups<Block: RegisterBlock<Vec8>>(
        _ r: DepthwiseRow, _: Block.Type,
        filterRow: (inout Block, UnsafePointer<Float>, UnsafePointer<Float>) -> Void
    ) {
        let rows = r.rows, inputRow = r.inputRow, packed = r.packed, groupSize = r.groupSize
        let tapOffset = r.tapOffset, input = r.input, channels = r.channels, rowTaps = 8 &* r.kernelWidth
        for g in 0..<(channels &+ 7) / 8 {
            let group = packed + g &* groupSize
            let c0 = depthwiseGroupStart(g, channels: channels)
            var acc = Block(repeating: load8(group))
            var p = input + c0
            var w = group + tapOffset
            for _ in 0..<rows {
                filterRow(&acc, p, w)
                p += inputRow
                w += rowTaps
            }
            finishDepthwiseBlock(&acc, r, output: r.output + c0)
        }
    }

    /// The epilogue of a block of output pixels of one channel group: the clamp (when it can change a value),
    /// TFLite's HARD_SWISH when fused, and the stores, pixel `i` at `output + i·channels`.
    @inline(__always)
    static func finishDepthwiseBlock<Block: RegisterBlock<Vec8>>(
        _ acc: inout Block, _ r: DepthwiseRow, output: UnsafeMutablePointer<Float>
    ) {
        let channels = r.channels
        if r.clamps {
            let lower = Vec8(repeating: r.lower), upper = Vec8(repeating: r.upper)
            acc.update { a, _ in clamp(a, lower, upper) }
        }
        if r.hardSwish { acc.update { a, _ in hardSwish8(a) } }
        acc.forEach { a, i in store8(a, output + i &* channels) }
    }

    /// `pixels` (at least `Block.width`) interior pixels of one output row from `r.input`/`r.output`, in
    /// blocks, the last block shifted back to end at the last pixel so that no pixel is left over (a few are
    /// computed twice, identically). Out of line, one call per output row.
    @inline(never)
    static func depthwiseInterior<Block: RegisterBlock<Vec8>>(_ row: DepthwiseRow, _: Block.Type, pixels: Int) {
        let width = Block.width
        var r = row
        let inputStep = row.pixelStride, outputStep = row.channels
        var done = 0
        while done < pixels {
            let x = min(done, pixels &- width)
            r.input = row.input + x &* inputStep
            r.output = row.output + x &* outputStep
            depthwiseBlock(r, Block.self)
            done = x &+ width
        }
    }

    /// The in-bounds taps of one output pixel's window, filter rows then columns `[kxStart, kxEnd)`: `body(p, t)`
    /// with `p` the input pixel under the tap (its channel 0) and `t` the tap's offset in a channel group.
    @inline(__always)
    static func forEachPixelTap(
        _ r: DepthwiseRow, kxStart: Int, kxEnd: Int, _ body: (UnsafePointer<Float>, Int) -> Void
    ) {
        var row = r.input
        var tap = r.tapOffset &+ 8 &* kxStart
        for _ in 0..<r.rows {
            var p = row
            var t = tap
            for _ in kxStart..<kxEnd {
                body(p, t)
                p += r.channels
                t &+= 8
            }
            row += r.inputRow
            tap &+= 8 &* r.kernelWidth
        }
    }

    /// One output pixel (any position, borders included) over filter columns `[kxStart, kxEnd)`, every
    /// channel group, four groups at a time so that a border pixel's short tap loops feed four accumulators.
    /// `r.input` points at the pixel's first in-bounds input column. Handles fewer than 8 channels.
    @inline(never)
    static func depthwisePixel(_ r: DepthwiseRow, kxStart: Int, kxEnd: Int) {
        let lower = Vec8(repeating: r.lower), upper = Vec8(repeating: r.upper)
        let channels = r.channels, packed = r.packed, groupSize = r.groupSize, output = r.output
        let hardSwish = r.hardSwish
        if channels < 8 {
            var acc = load8(packed)
            forEachPixelTap(r, kxStart: kxStart, kxEnd: kxEnd) { p, t in
                multiplyAdd(&acc, loadPartial(p, channels), load8(packed + t))
            }
            let v = clamp(acc, lower, upper)
            storePartial(hardSwish ? hardSwish8(v) : v, output, channels)
            return
        }
        let groups = (channels &+ 7) / 8
        var g = 0
        while g < groups {
            // Four groups (fewer at the end: the extra ones repeat the last group, harmlessly).
            let last = groups &- 1
            let i1 = min(g &+ 1, last), i2 = min(g &+ 2, last), i3 = min(g &+ 3, last)
            let g0 = packed + g &* groupSize, g1 = packed + i1 &* groupSize
            let g2 = packed + i2 &* groupSize, g3 = packed + i3 &* groupSize
            let c0 = depthwiseGroupStart(g, channels: channels), c1 = depthwiseGroupStart(i1, channels: channels)
            let c2 = depthwiseGroupStart(i2, channels: channels), c3 = depthwiseGroupStart(i3, channels: channels)
            var acc0 = load8(g0), acc1 = load8(g1), acc2 = load8(g2), acc3 = load8(g3)
            forEachPixelTap(r, kxStart: kxStart, kxEnd: kxEnd) { p, t in
                multiplyAdd(&acc0, load8(p + c0), load8(g0 + t))
                multiplyAdd(&acc1, load8(p + c1), load8(g1 + t))
                multiplyAdd(&acc2, load8(p + c2), load8(g2 + t))
                multiplyAdd(&acc3, load8(p + c3), load8(g3 + t))
            }
            acc0 = clamp(acc0, lower, upper); acc1 = clamp(acc1, lower, upper)
            acc2 = clamp(acc2, lower, upper); acc3 = clamp(acc3, lower, upper)
            if hardSwish {
                acc0 = hardSwish8(acc0); acc1 = hardSwish8(acc1); acc2 = hardSwish8(acc2); acc3 = hardSwish8(acc3)
            }
            store8(acc0, output + c0)
            store8(acc1, output + c1)
            store8(acc2, output + c2)
            store8(acc3, output + c3)
            g &+= 4
        }
    }

    /// One image, NHWC, depth multiplier 1: output rows `outputRows` (a subrange of `0..<outH`), each
    /// computed the same way whatever the range. The epilogue clamps to `[lo, hi]`, then applies TFLite's
    /// HARD_SWISH when `hardSwish` (the standalone kernel's operations, so the same bits).
    package static func depthwise(_ a: DepthwiseArguments) {
        let io = a.operands
        let input = io.input, channels = io.inputExtent.channels
        let inH = io.inputExtent.height, inW = io.inputExtent.width
        let output = io.output, outH = io.outputExtent.height, outW = io.outputExtent.width
        let kh = io.window.kernelHeight, kw = io.window.kernelWidth, sh = io.window.strideHeight
        let sw = io.window.strideWidth, padTop = io.window.padTop, padLeft = io.window.padLeft
        let packed = a.packed, lo = io.bounds.lower, hi = io.bounds.upper, outputRows = io.outputRows
        let hardSwish = a.hardSwish
        let inRow = inW * channels
        let ps = sw * channels
        // Output columns whose window lies inside the input horizontally: [interiorStart, interiorEnd).
        let interiorStart = min((padLeft + sw - 1) / sw, outW)
        let lastStart = inW - kw + padLeft
        var interiorEnd = lastStart < 0 ? interiorStart : max(interiorStart, min(outW, lastStart / sw + 1))
        if channels < 8 { interiorEnd = interiorStart }  // one partial group: every pixel on the pixel path
        let interior = interiorEnd - interiorStart
        // 3x3 with stride 1 or 2 and at most one padding column per side (SAME or VALID): whole rows in the
        // specialized blocks, borders included.
        let rightOverflow = (outW - 1) * sw - padLeft + kw - inW
        let wholeRows = kh == 3 && kw == 3 && (sw == 1 || sw == 2) && channels >= 8 && outW >= 4
            && padLeft <= 1 && rightOverflow <= 1
        for oy in max(outputRows.lowerBound, 0)..<max(min(outputRows.upperBound, outH), 0) {
            let iy0 = oy * sh - padTop
            let kyStart = max(0, -iy0)
            let inputRowStart = input + (iy0 + kyStart) * inRow
            let outRow = output + oy * outW * channels
            var r = DepthwiseRow(
                input: inputRowStart, pixelStride: ps, channels: channels, inputRow: inRow,
                rows: max(min(kh, inH - iy0) - kyStart, 0), kernelWidth: kw, packed: packed,
                groupSize: 8 * (kh * kw + 1), tapOffset: 8 + kyStart * kw * 8, output: outRow, lower: lo, upper: hi,
                hardSwish: hardSwish)
            if wholeRows {
                r.input = inputRowStart - padLeft * channels
                depthwise3x3Row(r, pixels: outW, stride: sw, skipLeft: padLeft == 1, skipRight: rightOverflow == 1)
                continue
            }
            // Interior pixels: blocks of 8 (or 4), the last block shifted back to end at the last pixel, so
            // that no pixel is left over (a few are computed twice, identically).
            let block = interior >= 8 ? 8 : interior >= 4 ? 4 : 0
            if block > 0 {
                r.input = inputRowStart + (interiorStart * sw - padLeft) * channels
                r.output = outRow + interiorStart * channels
                if block == 8 {
                    depthwiseInterior(r, RegisterBlock8<Vec8>.self, pixels: interior)
                } else {
                    depthwiseInterior(r, RegisterBlock4<Vec8>.self, pixels: interior)
                }
            }
            // The other pixels (borders, or all of a narrow interior), one at a time.
            for x in 0..<outW where block == 0 || x < interiorStart || x >= interiorEnd {
                let ix0 = x * sw - padLeft
                let kxStart = max(0, -ix0)
                let kxEnd = max(min(kw, inW - ix0), kxStart)
                r.input = inputRowStart + (ix0 + kxStart) * channels
                r.output = outRow + x * channels
                depthwisePixel(r, kxStart: kxStart, kxEnd: kxEnd)
            }
        }
    }
}
