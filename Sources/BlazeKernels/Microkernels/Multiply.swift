// Elementwise multiplication (TFLite's MUL): memory-bound flat loops over 8-float vectors, partial vectors at
// the ends (never touching memory outside the tensors). The products are IEEE single multiplications, one per
// element, with no fused multiply-add: the same bits as a scalar `a * b` and as LiteRT's float MUL. The row loop is
// `binaryRow` (BinaryRow.swift), shared with addition.

import BlazeKernelParameters

extension Microkernels {
    /// Broadcast multiplication over a 4-D output `[n, h, w, c]`, output rows `rows` of its `n·h` only. The
    /// strides are in elements (0 where broadcast), the channel strides 0 or 1. A row runs as one flat loop
    /// when each operand is dense along it or one value, or as a channel scale when one is dense and the other
    /// one vector of channels (`multiplyChannels`); otherwise per pixel.
    package static func multiplyBroadcast(_ a: BroadcastArguments) {
        let (n, h, w, c) = a.shape, ls = a.lhs.strides, rs = a.rhs.strides, lhs = a.lhs.base, rhs = a.rhs.base
        let output = a.output, rows = a.rows
        let lower = Vec8(repeating: a.bounds.lower), upper = Vec8(repeating: a.bounds.upper)
        let first = max(rows.lowerBound, 0), end = max(min(rows.upperBound, n * h), first)
        // A row whose operands are each dense (w stride = c, c stride 1) or one value (both strides 0) is
        // one flat run of w·c floats.
        @inline(__always) func flat(_ s: (n: Int, h: Int, w: Int, c: Int)) -> Int? {
            if s.c == 1 && s.w == c { return 1 }
            if s.c == 0 && s.w == 0 { return 0 }
            return nil
        }
        let flatL = flat(ls), flatR = flat(rs)
        // One operand dense along the row, the other one vector of channels repeated at every pixel.
        let scaleR = flatL == 1 && rs.w == 0 && rs.c == 1, scaleL = flatR == 1 && ls.w == 0 && ls.c == 1
        for row in first..<end {
            let b = row / h, y = row - b * h
            let l = lhs + b * ls.n + y * ls.h, r = rhs + b * rs.n + y * rs.h
            var out = output + row * w * c
            if scaleR || scaleL {
                multiplyChannels(scaleR ? l : r, by: scaleR ? r : l, out, pixels: w, channels: c, lower, upper)
                continue
            }
            if let fl = flatL, let fr = flatR {
                binaryRow(RowMultiplication.self, l, fl, r, fr, out, count: w * c, lower, upper)
                continue
            }
            for x in 0..<w {
                binaryRow(RowMultiplication.self, l + x * ls.w, ls.c, r + x * rs.w, rs.c, out, count: c, lower, upper)
                out += c
            }
        }
    }

    /// `out[p·c + i] = clamp(x[p·c + i] · scale[i])` for `pixels` pixels of `c` channels. With `c` a multiple
    /// of 8, the pixels run as one flat loop whose scale vector index wraps at `c` (no per-pixel loop).
    @inline(__always)
    static func multiplyChannels(
        _ x: UnsafePointer<Float>, by scale: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>,
        pixels: Int, channels c: Int, _ lower: Vec8, _ upper: Vec8
    ) {
        if c % 8 == 0 {
            let count = pixels * c
            var i = 0, j = 0
            while i < count {
                store8(clamp(load8(x + i) * load8(scale + j), lower, upper), out + i)
                i += 8
                j += 8
                if j == c { j = 0 }
            }
            return
        }
        var x = x, out = out
        for _ in 0..<pixels {
            binaryRow(RowMultiplication.self, x, 1, scale, 1, out, count: c, lower, upper)
            x += c
            out += c
        }
    }
}
