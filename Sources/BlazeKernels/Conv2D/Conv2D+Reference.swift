extension Conv2D {
    /// The scalar oracle: TFLite's reference convolution, loop for loop.
    ///
    /// - Parameter packed: `[bias ×outC][filter OHWI]`.
    func runReference(_ packed: UnsafePointer<Float>, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let g = geometry
        let inH = inputShape.h, inW = inputShape.w, inC = inputShape.c
        let outC = outputShape.c
        let bias = packed
        let filter = packed + outC
        let (lower, upper) = activation.bounds
        for b in 0..<inputShape.n {
            for oy in 0..<g.outH {
                for ox in 0..<g.outW {
                    let originY = oy * g.strideH - g.padTop
                    let originX = ox * g.strideW - g.padLeft
                    for oc in 0..<outC {
                        var total: Float = 0
                        for ky in 0..<g.kernelH {
                            let iy = originY + ky * g.dilationH
                            if iy < 0 || iy >= inH { continue }
                            for kx in 0..<g.kernelW {
                                let ix = originX + kx * g.dilationW
                                if ix < 0 || ix >= inW { continue }
                                for ic in 0..<inC {
                                    let x = input[((b * inH + iy) * inW + ix) * inC + ic]
                                    let w = filter[((oc * g.kernelH + ky) * g.kernelW + kx) * inC + ic]
                                    total += x * w
                                }
                            }
                        }
                        output[((b * g.outH + oy) * g.outW + ox) * outC + oc] = clamp(total + bias[oc], lower, upper)
                    }
                }
            }
        }
    }
}
