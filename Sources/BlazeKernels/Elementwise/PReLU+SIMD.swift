extension PReLU {
    /// Vectorized channel rows; the operand broadcast along channels (stride 0) is splatted.
    func runSIMD(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let shape = plan.outputShape
        let xs = plan.lhsStrides, alphas = plan.rhsStrides
        let slopes = UnsafePointer(alpha.pointer)
        var out = output
        for b in 0..<shape.n {
            for y in 0..<shape.h {
                for x in 0..<shape.w {
                    PReLU.row(input + xs.offset(b, y, x), xs.c, slopes + alphas.offset(b, y, x), alphas.c,
                              out, count: shape.c)
                    out += shape.c
                }
            }
        }
    }

    /// `out[i] = x >= 0 ? x : x * a` with `x = input[i·xStride]`, `a = alpha[i·aStride]`, strides 0 or 1.
    @inline(__always)
    static func row(
        _ input: UnsafePointer<Float>, _ xStride: Int, _ alpha: UnsafePointer<Float>, _ aStride: Int,
        _ out: UnsafeMutablePointer<Float>, count: Int
    ) {
        var i = 0
        let zero = Vec8()
        if xStride == 1 && aStride == 1 {
            while i + 8 <= count {
                let v = load8(input + i)
                store8(v.replacing(with: v * load8(alpha + i), where: v .< zero), out + i)
                i += 8
            }
        } else if xStride == 1 {
            let a = Vec8(repeating: alpha[0])
            while i + 8 <= count {
                let v = load8(input + i)
                store8(v.replacing(with: v * a, where: v .< zero), out + i)
                i += 8
            }
        } else if aStride == 1 {
            let v = Vec8(repeating: input[0])
            while i + 8 <= count {
                store8(v.replacing(with: v * load8(alpha + i), where: v .< zero), out + i)
                i += 8
            }
        }
        while i < count {
            let value = input[i * xStride]
            out[i] = value >= 0 ? value : value * alpha[i * aStride]
            i += 1
        }
    }
}
