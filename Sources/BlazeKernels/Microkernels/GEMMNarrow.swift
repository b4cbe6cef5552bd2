// The pointwise GEMM for fewer than 8 output channels (the detectors' score heads): dot products vectorized
// along the depth instead of column panels, which would compute 8 columns for 1 or 2. The column-panel
// kernels are in GEMM.swift.

import BlazeKernelParameters

extension Microkernels {
    /// Floats per packed row of the narrow kernel's weights (`depth` rounded up to 8, zero-padded).
    @inline(__always)
    package static func narrowRowLength(depth: Int) -> Int { (depth + 7) / 8 * 8 }

    /// Floats in the narrow kernel's packed weights: `[bias ×n][n rows of narrowRowLength]`.
    package static func packedNarrowCount(columns n: Int, depth: Int) -> Int { n + n * narrowRowLength(depth: depth) }

    /// Horizontal sum of the 8 lanes.
    @inline(__always)
    static func laneSum(_ v: Vec8) -> Float {
        let h = v.lowHalf + v.highHalf
        let q = h.lowHalf + h.highHalf
        return q[0] + q[1]
    }

    /// `output[m, n] = clamp(input[m, k] · W + bias)` for `n < 8` output channels (the detectors' score heads):
    /// dot products vectorized along the depth (a column-panel tile would compute 8 columns for 1 or 2), four
    /// rows by two outputs at a time, reduced across lanes at the end. Weights packed as
    /// `[bias ×n][n rows of narrowRowLength(k), zero-padded]`.
    package static func pointwiseNarrow(_ a: PointwiseArguments) {
        let m = a.rows, k = a.depth, n = a.columns, input = a.input, packed = a.packed, output = a.output
        let lo = a.bounds.lower, hi = a.bounds.upper, alpha = a.alpha
        let rowLength = narrowRowLength(depth: k)
        let bias = packed
        let weights = packed + n
        let fullDepth = k / 8 * 8
        let tail = k - fullDepth
        var row = 0
        while row < m {
            let rows = min(4, m &- row)
            let a0 = input + row &* k
            let a1 = rows > 1 ? a0 + k : a0
            let a2 = rows > 2 ? a1 + k : a1
            let a3 = rows > 3 ? a2 + k : a2
            let c = output + row &* n
            var o = 0
            while o < n {
                let pair = n &- o > 1
                let w0 = weights + o &* rowLength
                let w1 = pair ? w0 + rowLength : w0
                var s00 = Vec8(), s01 = Vec8(), s10 = Vec8(), s11 = Vec8()
                var s20 = Vec8(), s21 = Vec8(), s30 = Vec8(), s31 = Vec8()
                var i = 0
                while i < fullDepth {
                    let x0 = load8(a0 + i), x1 = load8(a1 + i), x2 = load8(a2 + i), x3 = load8(a3 + i)
                    let v0 = load8(w0 + i), v1 = load8(w1 + i)
                    multiplyAdd(&s00, x0, v0); multiplyAdd(&s01, x0, v1)
                    multiplyAdd(&s10, x1, v0); multiplyAdd(&s11, x1, v1)
                    multiplyAdd(&s20, x2, v0); multiplyAdd(&s21, x2, v1)
                    multiplyAdd(&s30, x3, v0); multiplyAdd(&s31, x3, v1)
                    i &+= 8
                }
                if tail > 0 {
                    // The last partial chunk: reads only the rows' own floats (the weights are zero-padded).
                    let x0 = loadPartial(a0 + i, tail), x1 = loadPartial(a1 + i, tail)
                    let x2 = loadPartial(a2 + i, tail), x3 = loadPartial(a3 + i, tail)
                    let v0 = load8(w0 + i), v1 = load8(w1 + i)
                    multiplyAdd(&s00, x0, v0); multiplyAdd(&s01, x0, v1)
                    multiplyAdd(&s10, x1, v0); multiplyAdd(&s11, x1, v1)
                    multiplyAdd(&s20, x2, v0); multiplyAdd(&s21, x2, v1)
                    multiplyAdd(&s30, x3, v0); multiplyAdd(&s31, x3, v1)
                }
                let b0 = bias[o], b1 = pair ? bias[o &+ 1] : 0
                c[o] = clamp(laneSum(s00) + b0, lo, hi)
                if pair { c[o &+ 1] = clamp(laneSum(s01) + b1, lo, hi) }
                if rows > 1 {
                    c[n &+ o] = clamp(laneSum(s10) + b0, lo, hi)
                    if pair { c[n &+ o &+ 1] = clamp(laneSum(s11) + b1, lo, hi) }
                }
                if rows > 2 {
                    c[2 &* n &+ o] = clamp(laneSum(s20) + b0, lo, hi)
                    if pair { c[2 &* n &+ o &+ 1] = clamp(laneSum(s21) + b1, lo, hi) }
                }
                if rows > 3 {
                    c[3 &* n &+ o] = clamp(laneSum(s30) + b0, lo, hi)
                    if pair { c[3 &* n &+ o &+ 1] = clamp(laneSum(s31) + b1, lo, hi) }
                }
                o &+= pair ? 2 : 1
            }
            if let alpha {
                for i in 0..<(rows &* n) {
                    let v = c[i]
                    c[i] = v < 0 ? v * alpha[i % n] : v
                }
            }
            row &+= rows
        }
    }
}
