extension AveragePool2D {
    /// The scalar oracle: TFLite's reference average pool (sum of in-bounds taps / their count). A window
    /// with no in-bounds tap, impossible with SAME or VALID, would produce `act(0)`.
    public func runReference(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let g = geometry
        let inH = inputShape.h, inW = inputShape.w, channels = inputShape.c
        let (lower, upper) = activation.bounds
        for b in 0..<inputShape.n {
            for oy in 0..<g.outH {
                for ox in 0..<g.outW {
                    let originY = oy * g.strideH - g.padTop
                    let originX = ox * g.strideW - g.padLeft
                    for c in 0..<channels {
                        var total: Float = 0
                        var taps = 0
                        for ky in 0..<g.kernelH {
                            let iy = originY + ky
                            if iy < 0 || iy >= inH { continue }
                            for kx in 0..<g.kernelW {
                                let ix = originX + kx
                                if ix < 0 || ix >= inW { continue }
                                total += input[((b * inH + iy) * inW + ix) * channels + c]
                                taps += 1
                            }
                        }
                        let average = taps == 0 ? 0 : total / Float(taps)
                        output[((b * g.outH + oy) * g.outW + ox) * channels + c] = clamp(average, lower, upper)
                    }
                }
            }
        }
    }
}
