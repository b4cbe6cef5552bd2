extension Pad {
    /// The scalar oracle: each output element is the input element at `position - before`, or the constant.
    package func runReference(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let i = inputShape, o = outputShape
        var index = 0
        for b in 0..<o.n {
            for y in 0..<o.h {
                for x in 0..<o.w {
                    for c in 0..<o.c {
                        let ib = b - before.n, iy = y - before.h, ix = x - before.w, ic = c - before.c
                        let inside = ib >= 0 && ib < i.n && iy >= 0 && iy < i.h && ix >= 0 && ix < i.w
                            && ic >= 0 && ic < i.c
                        output[index] = inside ? input[((ib * i.h + iy) * i.w + ix) * i.c + ic] : constantValue
                        index += 1
                    }
                }
            }
        }
    }
}
