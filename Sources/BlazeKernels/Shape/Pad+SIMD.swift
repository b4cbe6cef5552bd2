extension Pad {
    /// Row at a time: rows outside the input are filled; rows inside are fill, copy, fill.
    func runSIMD(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let i = inputShape, o = outputShape
        let after = o.c - i.c - before.c
        var out = output
        for b in 0..<o.n {
            let ib = b - before.n
            for y in 0..<o.h {
                let iy = y - before.h
                let rowInside = ib >= 0 && ib < i.n && iy >= 0 && iy < i.h
                if !rowInside {
                    // A whole output row (all x) of constants.
                    out.update(repeating: constantValue, count: o.w * o.c)
                    out += o.w * o.c
                    continue
                }
                for x in 0..<o.w {
                    let ix = x - before.w
                    if ix < 0 || ix >= i.w {
                        out.update(repeating: constantValue, count: o.c)
                    } else {
                        out.update(repeating: constantValue, count: before.c)
                        (out + before.c).update(from: input + ((ib * i.h + iy) * i.w + ix) * i.c, count: i.c)
                        (out + before.c + i.c).update(repeating: constantValue, count: after)
                    }
                    out += o.c
                }
            }
        }
    }
}
