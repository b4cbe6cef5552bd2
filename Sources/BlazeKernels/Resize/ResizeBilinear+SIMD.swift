extension ResizeBilinear {
    /// Vectorized over channels with the coordinate tables built at creation. Same operations in the same
    /// order as the reference, so the results are bit-identical.
    func runSIMD(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let i = inputShape, o = outputShape
        let channels = i.c
        let table = UnsafePointer(indices.pointer)
        let lerp = UnsafePointer(fractions.pointer)
        var out = output
        for b in 0..<o.n {
            let image = input + b * i.h * i.w * channels
            for y in 0..<o.h {
                let row0 = image + table[2 * y] * i.w * channels
                let row1 = image + table[2 * y + 1] * i.w * channels
                let dy = lerp[y]
                for x in 0..<o.w {
                    let x0 = table[2 * (o.h + x)] * channels, x1 = table[2 * (o.h + x) + 1] * channels
                    let dx = lerp[o.h + x]
                    let w00 = Vec8(repeating: 1 - dy), w01 = Vec8(repeating: 1 - dx)
                    let vdy = Vec8(repeating: dy), vdx = Vec8(repeating: dx)
                    var c = 0
                    while c + 8 <= channels {
                        let top = load8(row0 + x0 + c) * w00 * w01 + load8(row1 + x0 + c) * vdy * w01
                        store8(top + load8(row0 + x1 + c) * w00 * vdx + load8(row1 + x1 + c) * vdy * vdx, out + c)
                        c += 8
                    }
                    while c < channels {
                        let top = row0[x0 + c] * (1 - dy) * (1 - dx) + row1[x0 + c] * dy * (1 - dx)
                        out[c] = top + row0[x1 + c] * (1 - dy) * dx + row1[x1 + c] * dy * dx
                        c += 1
                    }
                    out += channels
                }
            }
        }
    }
}
