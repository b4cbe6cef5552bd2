extension MaxPool2D {
    /// The scalar oracle: TFLite's reference max pool.
    public func runReference(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let g = geometry
        let inH = inputShape.h, inW = inputShape.w, channels = inputShape.c
        let (lower, upper) = activation.bounds
        g.forEachReferencePixel(batches: inputShape.n) { b, oy, ox, pixel in
            for c in 0..<channels {
                var maximum = -Float.greatestFiniteMagnitude
                g.forEachReferenceTap(b: b, oy: oy, ox: ox, inputH: inH, inputW: inW) { _, _, tap in
                    let value = input[tap * channels + c]
                    maximum = maximum < value ? value : maximum
                }
                output[pixel * channels + c] = clamp(maximum, lower, upper)
            }
        }
    }
}
