extension Mul {
    /// The scalar oracle: `output(n, y, x, c) = act(lhs(broadcast) · rhs(broadcast))`.
    func runReference(lhs: UnsafePointer<Float>, rhs: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        plan.runReference(lhs: lhs, rhs: rhs, output: output, bounds: activation.bounds) { $0 * $1 }
    }
}
