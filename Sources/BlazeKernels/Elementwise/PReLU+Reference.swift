extension PReLU {
    /// The scalar oracle: `x >= 0 ? x : x * alpha`, exactly TFLite's expression.
    func runReference(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        plan.runReference(lhs: input, rhs: UnsafePointer(alpha.pointer), output: output) { value, slope in
            value >= 0 ? value : value * slope
        }
    }
}
