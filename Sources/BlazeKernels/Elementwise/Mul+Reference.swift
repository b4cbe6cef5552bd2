extension Mul {
    /// The scalar oracle: `output(n, y, x, c) = act(lhs(broadcast) · rhs(broadcast))`.
    func runReference(lhs: UnsafePointer<Float>, rhs: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let shape = plan.outputShape
        let ls = plan.lhsStrides, rs = plan.rhsStrides
        let (lower, upper) = activation.bounds
        var index = 0
        for b in 0..<shape.n {
            for y in 0..<shape.h {
                for x in 0..<shape.w {
                    for c in 0..<shape.c {
                        let a = lhs[ls.offset(b, y, x) + c * ls.c]
                        let d = rhs[rs.offset(b, y, x) + c * rs.c]
                        output[index] = clamp(a * d, lower, upper)
                        index += 1
                    }
                }
            }
        }
    }
}
