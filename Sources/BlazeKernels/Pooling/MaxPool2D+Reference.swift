extension MaxPool2D {
    /// The scalar oracle: TFLite's reference max pool.
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
                        var maximum = -Float.greatestFiniteMagnitude
                        for ky in 0..<g.kernelH {
                            let iy = originY + ky
                            if iy < 0 || iy >= inH { continue }
                            for kx in 0..<g.kernelW {
                                let ix = originX + kx
                                if ix < 0 || ix >= inW { continue }
                                let value = input[((b * inH + iy) * inW + ix) * channels + c]
                                maximum = maximum < value ? value : maximum
                            }
                        }
                        output[((b * g.outH + oy) * g.outW + ox) * channels + c] = clamp(maximum, lower, upper)
                    }
                }
            }
        }
    }
}
