/// How two 4-D operands map onto their NumPy-style broadcast output: per dimension, each operand's stride
/// in elements, or 0 where the operand's dimension is 1 and the output's is larger.
struct BroadcastPlan: Hashable, Sendable {
    let outputShape: Shape4
    let lhsStrides: Strides
    let rhsStrides: Strides

    struct Strides: Hashable, Sendable {
        var n, h, w, c: Int

        /// The strides of `shape`'s dense layout, zeroed on dimensions broadcast to `output`.
        init(_ shape: Shape4, broadcastTo output: Shape4) {
            c = shape.c == output.c ? 1 : 0
            w = shape.w == output.w ? shape.c : 0
            h = shape.h == output.h ? shape.w * shape.c : 0
            n = shape.n == output.n ? shape.h * shape.w * shape.c : 0
        }

        @inline(__always)
        func offset(_ b: Int, _ y: Int, _ x: Int) -> Int { b * n + y * h + x * w }
    }

    /// Whether both operands have the output's shape (no broadcasting at all).
    let isSameShape: Bool

    /// - Throws: `KernelError.notBroadcastable` unless every dimension pair is equal or contains a 1, and
    ///   `.invalidShape` when an operand has a dimension that is not positive or the output has more elements than
    ///   an `Int` counts.
    init(_ lhs: Shape4, _ rhs: Shape4) throws(KernelError) {
        try lhs.validate("first operand")
        try rhs.validate("second operand")
        func merge(_ a: Int, _ b: Int) throws(KernelError) -> Int {
            if a == b || b == 1 { return a }
            if a == 1 { return b }
            throw .notBroadcastable(lhs, rhs)
        }
        let output = Shape4(
            n: try merge(lhs.n, rhs.n), h: try merge(lhs.h, rhs.h),
            w: try merge(lhs.w, rhs.w), c: try merge(lhs.c, rhs.c))
        var count = 1
        for d in [output.n, output.h, output.w, output.c] {
            let (product, overflow) = count.multipliedReportingOverflow(by: d)
            guard !overflow else { throw .invalidShape("broadcast of \(lhs) and \(rhs) is too large") }
            count = product
        }
        outputShape = output
        lhsStrides = Strides(lhs, broadcastTo: output)
        rhsStrides = Strides(rhs, broadcastTo: output)
        isSameShape = lhs == output && rhs == output
    }
}

extension BroadcastPlan {
    /// The scalar oracle of a broadcasting binary operator: `output(n, y, x, c) = clamp(op(lhs(broadcast),
    /// rhs(broadcast)))` in row-major order (ADD's and MUL's references).
    func runReference(lhs: UnsafePointer<Float>, rhs: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
                      bounds: (lower: Float, upper: Float), _ op: (Float, Float) -> Float) {
        runReference(lhs: lhs, rhs: rhs, output: output) { clamp(op($0, $1), bounds.lower, bounds.upper) }
    }

    /// The scalar oracles' broadcast walk: `output(n, y, x, c) = op(lhs(broadcast), rhs(broadcast))` in
    /// row-major order, with no activation (PRELU's reference, and the clamped one above).
    func runReference(lhs: UnsafePointer<Float>, rhs: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
                      _ op: (Float, Float) -> Float) {
        let shape = outputShape
        var index = 0
        for b in 0..<shape.n {
            for y in 0..<shape.h {
                for x in 0..<shape.w {
                    for c in 0..<shape.c {
                        let a = lhs[lhsStrides.offset(b, y, x) + c * lhsStrides.c]
                        let d = rhs[rhsStrides.offset(b, y, x) + c * rhsStrides.c]
                        output[index] = op(a, d)
                        index += 1
                    }
                }
            }
        }
    }
}
