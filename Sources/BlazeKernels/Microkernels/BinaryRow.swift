// The row loop shared by elementwise addition and multiplication: one IEEE single operation per element, in a
// fixed operand order, 8-float vectors with partial vectors at the ends (never touching memory outside).

import BlazeKernelParameters

/// An elementwise binary operation of `Microkernels.binaryRow`, as IEEE single operations. Each conformer
/// fixes its operand order, which decides only a NaN's payload when both operands are NaN.
protocol BinaryRowOperation {
    /// `a ∘ b` lane by lane.
    static func apply(_ a: Vec8, _ b: Vec8) -> Vec8

    /// `a ∘ b` on one element.
    static func apply(_ a: Float, _ b: Float) -> Float

    /// A row of one operand against one value of the other, splatted: `row` holds operand `a`'s elements
    /// when `rowIsLeft`, else operand `b`'s.
    static func apply(row: Vec8, splat: Vec8, rowIsLeft: Bool) -> Vec8
}

/// `a + b`, in that order everywhere.
enum RowAddition: BinaryRowOperation {
    @inline(__always) static func apply(_ a: Vec8, _ b: Vec8) -> Vec8 { a + b }
    @inline(__always) static func apply(_ a: Float, _ b: Float) -> Float { a + b }
    @inline(__always) static func apply(row: Vec8, splat: Vec8, rowIsLeft: Bool) -> Vec8 {
        rowIsLeft ? row + splat : splat + row
    }
}

/// `a · b`; against a splatted value, `row · value` whichever operand the row is (the order MUL has always
/// had there).
enum RowMultiplication: BinaryRowOperation {
    @inline(__always) static func apply(_ a: Vec8, _ b: Vec8) -> Vec8 { a * b }
    @inline(__always) static func apply(_ a: Float, _ b: Float) -> Float { a * b }
    @inline(__always) static func apply(row: Vec8, splat: Vec8, rowIsLeft: Bool) -> Vec8 { row * splat }
}

extension BinaryRowOperation {
    /// Same-shape `output[i] = clamp(lhs[i] ∘ rhs[i])` for `i < count` (the table's `add` and `multiply`);
    /// `output` may equal `lhs` or `rhs`.
    static func sameShape(
        count: Int, lhs: UnsafePointer<Float>, rhs: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
        bounds: OutputBounds
    ) {
        let lower = Vec8(repeating: bounds.lower), upper = Vec8(repeating: bounds.upper)
        Microkernels.binaryRow(Self.self, lhs, 1, rhs, 1, output, count: count, lower, upper)
    }
}

extension Microkernels {
    /// `out[i] = clamp(a[i·aStride] ∘ b[i·bStride])` for `i < count`, strides 0 (splat) or 1, with the
    /// operation `Operation` (specialized at each call: the operations are inlined).
    @inline(__always)
    static func binaryRow<Operation: BinaryRowOperation>(
        _: Operation.Type, _ a: UnsafePointer<Float>, _ aStride: Int, _ b: UnsafePointer<Float>, _ bStride: Int,
        _ out: UnsafeMutablePointer<Float>, count: Int, _ lower: Vec8, _ upper: Vec8
    ) {
        var i = 0
        switch (aStride, bStride) {
        case (1, 1):
            while i + 16 <= count {
                let r0 = Operation.apply(load8(a + i), load8(b + i))
                let r1 = Operation.apply(load8(a + i + 8), load8(b + i + 8))
                store8(clamp(r0, lower, upper), out + i)
                store8(clamp(r1, lower, upper), out + i + 8)
                i += 16
            }
            while i + 8 <= count {
                store8(clamp(Operation.apply(load8(a + i), load8(b + i)), lower, upper), out + i)
                i += 8
            }
            if i < count {
                let n = count - i
                storePartial(
                    clamp(Operation.apply(loadPartial(a + i, n), loadPartial(b + i, n)), lower, upper), out + i, n)
            }
            return
        case (0, 1), (1, 0):
            // One operand splatted: a scalar, or one value per row.
            let rowIsLeft = aStride == 1
            let (row, scalar) = rowIsLeft ? (a, b[0]) : (b, a[0])
            let v = Vec8(repeating: scalar)
            while i + 8 <= count {
                let result = Operation.apply(row: load8(row + i), splat: v, rowIsLeft: rowIsLeft)
                store8(clamp(result, lower, upper), out + i)
                i += 8
            }
            if i < count {
                let n = count - i
                let result = Operation.apply(row: loadPartial(row + i, n), splat: v, rowIsLeft: rowIsLeft)
                storePartial(clamp(result, lower, upper), out + i, n)
            }
            return
        default:
            break
        }
        while i < count {
            out[i] = clamp(Operation.apply(a[i * aStride], b[i * bStride]), lower[0], upper[0])
            i += 1
        }
    }

    /// `Operation` over a 4-D output `[n, h, w, c]` with broadcasting, then the clamp; output rows `rows` of
    /// its `n·h` only. The strides are in elements (0 where broadcast), the channel strides 0 or 1. A row runs
    /// as one flat loop when each operand is dense along it or one value, as a channel pattern when one is
    /// dense and the other one vector of channels repeated at every pixel (`channelRows`: a picture's
    /// per-channel scale and offset), otherwise per pixel. Every element is the one operation on the same
    /// operands in the same order, whichever loop computes it.
    @inline(__always)
    static func broadcastRows<Operation: BinaryRowOperation>(_ a: BroadcastArguments, _: Operation.Type) {
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
        let channelsR = flatL == 1 && rs.w == 0 && rs.c == 1, channelsL = flatR == 1 && ls.w == 0 && ls.c == 1
        for row in first..<end {
            let b = row / h, y = row - b * h
            let l = lhs + b * ls.n + y * ls.h, r = rhs + b * rs.n + y * rs.h
            var out = output + row * w * c
            if channelsR || channelsL {
                channelRows(Operation.self, channelsR ? l : r, channelsR ? r : l, rowIsLeft: channelsR, out,
                            pixels: w, channels: c, lower, upper)
                continue
            }
            if let fl = flatL, let fr = flatR {
                binaryRow(Operation.self, l, fl, r, fr, out, count: w * c, lower, upper)
                continue
            }
            for x in 0..<w {
                binaryRow(Operation.self, l + x * ls.w, ls.c, r + x * rs.w, rs.c, out, count: c, lower, upper)
                out += c
            }
        }
    }

    /// `out[p·c + i] = clamp(x[p·c + i] ∘ v[i])` (`v[i] ∘ x[p·c + i]` unless `rowIsLeft`) for `pixels` pixels
    /// of `c` channels, as flat loops: with `c` a multiple of 8, the vector index into `v` wraps at `c`; with
    /// fewer than 32 channels, `v` repeated 8 times on the stack (under 1 KiB, a multiple of 8 floats) and the index
    /// wrapping at that; otherwise per pixel.
    @inline(__always)
    static func channelRows<Operation: BinaryRowOperation>(
        _: Operation.Type, _ x: UnsafePointer<Float>, _ v: UnsafePointer<Float>, rowIsLeft: Bool,
        _ out: UnsafeMutablePointer<Float>, pixels: Int, channels c: Int, _ lower: Vec8, _ upper: Vec8
    ) {
        @inline(__always) func pattern(_ values: UnsafePointer<Float>, period: Int) {
            let count = pixels * c
            var i = 0, j = 0
            while i + 8 <= count {
                let (row, other) = (load8(x + i), load8(values + j))
                let result = rowIsLeft ? Operation.apply(row, other) : Operation.apply(other, row)
                store8(clamp(result, lower, upper), out + i)
                i += 8
                j += 8
                if j == period { j = 0 }
            }
            if i < count {
                let (row, other) = (loadPartial(x + i, count - i), loadPartial(values + j, count - i))
                let result = rowIsLeft ? Operation.apply(row, other) : Operation.apply(other, row)
                storePartial(clamp(result, lower, upper), out + i, count - i)
            }
        }
        if c % 8 == 0 {
            pattern(v, period: c)
        } else if c < 32 {
            withUnsafeTemporaryAllocation(of: Float.self, capacity: 8 * c) { repeated in
                let p = repeated.baseAddress!
                for k in 0..<8 { (p + k * c).update(from: v, count: c) }
                pattern(p, period: 8 * c)
            }
        } else {
            var x = x, out = out
            for _ in 0..<pixels {
                if rowIsLeft {
                    binaryRow(Operation.self, x, 1, v, 1, out, count: c, lower, upper)
                } else {
                    binaryRow(Operation.self, v, 1, x, 1, out, count: c, lower, upper)
                }
                x += c
                out += c
            }
        }
    }
}
