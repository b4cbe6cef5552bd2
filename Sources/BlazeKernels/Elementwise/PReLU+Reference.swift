extension PReLU {
    /// The scalar oracle: `x >= 0 ? x : x * alpha`, exactly TFLite's expression.
    func runReference(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let shape = plan.outputShape
        let xs = plan.lhsStrides, alphas = plan.rhsStrides
        let slopes = UnsafePointer(alpha.pointer)
        var index = 0
        for b in 0..<shape.n {
            for y in 0..<shape.h {
                for x in 0..<shape.w {
                    for c in 0..<shape.c {
                        let value = input[xs.offset(b, y, x) + c * xs.c]
                        let slope = slopes[alphas.offset(b, y, x) + c * alphas.c]
                        output[index] = value >= 0 ? value : value * slope
                        index += 1
                    }
                }
            }
        }
    }
}
