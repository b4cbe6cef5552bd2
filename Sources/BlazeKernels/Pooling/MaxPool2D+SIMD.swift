extension MaxPool2D {
    /// Vectorized over channels: per output pixel and 8-channel group, the maximum over in-bounds taps.
    func runSIMD(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let g = geometry
        let inH = inputShape.h, inW = inputShape.w, channels = inputShape.c
        let (lo, hi) = activation.bounds
        let lower = Vec8(repeating: lo), upper = Vec8(repeating: hi)
        let start = Vec8(repeating: -Float.greatestFiniteMagnitude)
        for b in 0..<inputShape.n {
            let image = input + b * inH * inW * channels
            for oy in 0..<g.outH {
                let rows = g.rowRange(oy, inputH: inH)
                for ox in 0..<g.outW {
                    let columns = g.columnRange(ox, inputW: inW)
                    let out = output + ((b * g.outH + oy) * g.outW + ox) * channels
                    var c = 0
                    while c < channels {
                        let count = min(8, channels - c)
                        var maximum = start
                        for iy in rows.start..<max(rows.start, rows.end) {
                            for ix in columns.start..<max(columns.start, columns.end) {
                                let p = image + (iy * inW + ix) * channels + c
                                let v = count == 8 ? load8(p) : loadPartial(p, count)
                                maximum = maximum.replacing(with: v, where: maximum .< v)
                            }
                        }
                        maximum = clamp(maximum, lower, upper)
                        if count == 8 { store8(maximum, out + c) } else { storePartial(maximum, out + c, count) }
                        c += 8
                    }
                }
            }
        }
    }
}
