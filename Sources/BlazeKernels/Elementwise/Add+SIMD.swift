extension Add {
    /// Flat vector loop for equal shapes; vectorized channel rows otherwise.
    func runSIMD(lhs: UnsafePointer<Float>, rhs: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let (lo, hi) = activation.bounds
        let lower = Vec8(repeating: lo), upper = Vec8(repeating: hi)
        if plan.isSameShape {
            Add.addRow(lhs, 1, rhs, 1, output, count: outputShape.count, lower, upper)
            return
        }
        let shape = plan.outputShape
        let ls = plan.lhsStrides, rs = plan.rhsStrides
        var out = output
        for b in 0..<shape.n {
            for y in 0..<shape.h {
                for x in 0..<shape.w {
                    Add.addRow(lhs + ls.offset(b, y, x), ls.c, rhs + rs.offset(b, y, x), rs.c, out,
                               count: shape.c, lower, upper)
                    out += shape.c
                }
            }
        }
    }

    /// `out[i] = act(a[i·aStride] + b[i·bStride])` for `i < count`, with strides 0 (splat) or 1.
    @inline(__always)
    static func addRow(
        _ a: UnsafePointer<Float>, _ aStride: Int, _ b: UnsafePointer<Float>, _ bStride: Int,
        _ out: UnsafeMutablePointer<Float>, count: Int, _ lower: Vec8, _ upper: Vec8
    ) {
        var i = 0
        switch (aStride, bStride) {
        case (1, 1):
            while i + 8 <= count {
                store8(clamp(load8(a + i) + load8(b + i), lower, upper), out + i)
                i += 8
            }
        case (0, 1):
            let va = Vec8(repeating: a[0])
            while i + 8 <= count {
                store8(clamp(va + load8(b + i), lower, upper), out + i)
                i += 8
            }
        case (1, 0):
            let vb = Vec8(repeating: b[0])
            while i + 8 <= count {
                store8(clamp(load8(a + i) + vb, lower, upper), out + i)
                i += 8
            }
        default:
            break
        }
        while i < count {
            out[i] = clamp(a[i * aStride] + b[i * bStride], lower[0], upper[0])
            i += 1
        }
    }
}
