extension AveragePool2D {
    /// Vectorized over channels: per output pixel and 8-channel group, the mean of the in-bounds taps.
    func runSIMD(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let g = geometry
        let inH = inputShape.h, inW = inputShape.w, channels = inputShape.c
        let (lo, hi) = activation.bounds
        let lower = Vec8(repeating: lo), upper = Vec8(repeating: hi)
        for b in 0..<inputShape.n {
            let image = input + b * inH * inW * channels
            for oy in 0..<g.outH {
                let rows = g.rowRange(oy, inputH: inH)
                for ox in 0..<g.outW {
                    let columns = g.columnRange(ox, inputW: inW)
                    let taps = max(rows.end - rows.start, 0) * max(columns.end - columns.start, 0)
                    let divisor = Vec8(repeating: Float(max(taps, 1)))
                    let out = output + ((b * g.outH + oy) * g.outW + ox) * channels
                    var c = 0
                    while c < channels {
                        let count = min(8, channels - c)
                        var total = Vec8()
                        for iy in rows.start..<max(rows.start, rows.end) {
                            for ix in columns.start..<max(columns.start, columns.end) {
                                let p = image + (iy * inW + ix) * channels + c
                                total += count == 8 ? load8(p) : loadPartial(p, count)
                            }
                        }
                        let average = clamp(total / divisor, lower, upper)
                        if count == 8 { store8(average, out + c) } else { storePartial(average, out + c, count) }
                        c += 8
                    }
                }
            }
        }
    }
}
