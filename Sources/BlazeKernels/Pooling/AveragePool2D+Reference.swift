extension AveragePool2D {
    /// The scalar oracle: TFLite's reference average pool (sum of in-bounds taps / their count). A window
    /// with no in-bounds tap, impossible with SAME or VALID, would produce `act(0)`.
    public func runReference(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let g = geometry
        let inH = inputShape.h, inW = inputShape.w, channels = inputShape.c
        let (lower, upper) = activation.bounds
        g.forEachReferencePixel(batches: inputShape.n) { b, oy, ox, pixel in
            for c in 0..<channels {
                var total: Float = 0
                var taps = 0
                g.forEachReferenceTap(b: b, oy: oy, ox: ox, inputH: inH, inputW: inW) { _, _, tap in
                    total += input[tap * channels + c]
                    taps += 1
                }
                let average = taps == 0 ? 0 : total / Float(taps)
                output[pixel * channels + c] = clamp(average, lower, upper)
            }
        }
    }
}
