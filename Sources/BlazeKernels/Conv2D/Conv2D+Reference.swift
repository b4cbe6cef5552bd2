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
        g.forEachReferencePixel(batches: inputShape.n) { b, oy, ox, pixel in
            for oc in 0..<outC {
                var total: Float = 0
                g.forEachReferenceTap(b: b, oy: oy, ox: ox, inputH: inH, inputW: inW) { ky, kx, tap in
                    for ic in 0..<inC {
                        let x = input[tap * inC + ic]
                        let w = filter[((oc * g.kernelH + ky) * g.kernelW + kx) * inC + ic]
                        total += x * w
                    }
                }
                output[pixel * outC + oc] = clamp(total + bias[oc], lower, upper)
            }
        }
    }
}
