extension DepthwiseConv2D {
    /// The scalar oracle: TFLite's reference depthwise convolution, loop for loop.
    public func runReference(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let g = geometry
        let inH = inputShape.h, inW = inputShape.w, inC = inputShape.c
        let outC = outputShape.c
        let bias = UnsafePointer(packed.pointer)
        let filter = bias + outC
        let (lower, upper) = activation.bounds
        for b in 0..<inputShape.n {
            for oy in 0..<g.outH {
                for ox in 0..<g.outW {
                    for ic in 0..<inC {
                        for m in 0..<depthMultiplier {
                            let oc = ic * depthMultiplier + m
                            let originY = oy * g.strideH - g.padTop
                            let originX = ox * g.strideW - g.padLeft
                            var total: Float = 0
                            for ky in 0..<g.kernelH {
                                let iy = originY + ky * g.dilationH
                                if iy < 0 || iy >= inH { continue }
                                for kx in 0..<g.kernelW {
                                    let ix = originX + kx * g.dilationW
                                    if ix < 0 || ix >= inW { continue }
                                    let x = input[((b * inH + iy) * inW + ix) * inC + ic]
                                    let w = filter[(ky * g.kernelW + kx) * outC + oc]
                                    total += x * w
                                }
                            }
                            output[((b * g.outH + oy) * g.outW + ox) * outC + oc] = clamp(total + bias[oc], lower, upper)
                        }
                    }
                }
            }
        }
    }
}
