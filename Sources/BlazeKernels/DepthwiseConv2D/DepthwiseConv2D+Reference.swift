extension DepthwiseConv2D {
    /// The scalar oracle: TFLite's reference depthwise convolution, loop for loop.
    package func runReference(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let g = geometry
        let inH = inputShape.h, inW = inputShape.w, inC = inputShape.c
        let outC = outputShape.c
        let bias = UnsafePointer(packed.pointer)
        let filter = bias + outC
        let (lower, upper) = activation.bounds
        g.forEachReferencePixel(batches: inputShape.n) { b, oy, ox, pixel in
            for ic in 0..<inC {
                for m in 0..<depthMultiplier {
                    let oc = ic * depthMultiplier + m
                    var total: Float = 0
                    g.forEachReferenceTap(b: b, oy: oy, ox: ox, inputH: inH, inputW: inW) { ky, kx, tap in
                        let x = input[tap * inC + ic]
                        let w = filter[(ky * g.kernelW + kx) * outC + oc]
                        total += x * w
                    }
                    output[pixel * outC + oc] = clamp(total + bias[oc], lower, upper)
                }
            }
        }
    }
}
