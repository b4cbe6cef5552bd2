extension PointwiseConv2D {
    /// The scalar oracle: `output[m, o] = act(Σ_i input[m, i] · filter[o, i] + bias[o])`.
    func runReference(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, rows: Int) {
        let k = inputChannels, n = outputChannels
        let bias = UnsafePointer(packed.pointer)
        let filter = bias + n
        let (lower, upper) = activation.bounds
        for m in 0..<rows {
            for o in 0..<n {
                var total: Float = 0
                for i in 0..<k {
                    total += input[m * k + i] * filter[o * k + i]
                }
                output[m * n + o] = clamp(total + bias[o], lower, upper)
            }
        }
    }
}
