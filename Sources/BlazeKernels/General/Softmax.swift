/// TFLite's float `SOFTMAX` over the last axis: per row, `exp((x − max) · beta)` divided by the row's sum: the
/// maximum, then the exponentials 8 lanes at a time (the vector exponential of the LOGISTIC kernel, within 2 ulp
/// of `expf`; arguments below −87.3, whose `expf` is 0 or subnormal, count as e^−87.3) and their sum, then one
/// division each.
///
/// Pieces: rows, so every piece and thread gives the same bits. Aliasing: may run in place. Thread safety:
/// immutable.
package struct Softmax: Sendable, StepKernel {
    /// Rows (every axis but the last) and the classes of each row (the last axis).
    package let rows: Int
    package let classes: Int
    package let beta: Float

    /// - Throws: `KernelError.invalidShape` for a shape that is not positive, `.invalidParameter` for a beta
    ///   that is not finite.
    package init(_ dimensions: TensorDimensions, beta: Float) throws(KernelError) {
        guard let last = dimensions.sizes.last else { throw .invalidShape("SOFTMAX of a scalar") }
        guard beta.isFinite else { throw .invalidParameter("beta \(beta) is not finite") }
        classes = last
        rows = dimensions.count / last
        self.beta = beta
    }

    package var planDescription: String { "Softmax" }

    package var pieceCount: Int { rows }

    func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, rows range: Range<Int>) {
        let n = classes, beta = Vec8(repeating: self.beta)
        let low = Vec8(repeating: -87.33654), high = Vec8(repeating: 88.37626)
        for row in range {
            let x = input + row * n, y = output + row * n
            // The maximum: lanes, then across them and the tail.
            var c = 0
            var lanes = Vec8(repeating: -.infinity)
            while c + 8 <= n {
                let v = load8(x + c)
                lanes = lanes.replacing(with: v, where: v .> lanes)
                c += 8
            }
            var maximum = lanes.max()
            while c < n {
                if x[c] > maximum { maximum = x[c] }
                c += 1
            }
            // exp((x − max) · beta) (the vector exponential, within 2 ulp of expf), and the sum.
            let m = Vec8(repeating: maximum)
            var sums = Vec8()
            c = 0
            while c + 8 <= n {
                let e = Microkernels.exponential(clamp((load8(x + c) - m) * beta, low, high))
                store8(e, y + c)
                sums += e
                c += 8
            }
            if c < n {
                let e = Microkernels.exponential(clamp((loadPartial(x + c, n - c) - m) * beta, low, high))
                storePartial(e, y + c, n - c)
                sums += e.replacing(with: 0, where: Self.lanes .>= Vec8(repeating: Float(n - c)))
            }
            let sum = sums.sum()
            c = 0
            let divisor = Vec8(repeating: sum)
            while c + 8 <= n {
                store8(load8(y + c) / divisor, y + c)
                c += 8
            }
            while c < n {
                y[c] = y[c] / sum
                c += 1
            }
        }
    }

    /// 0, 1, ..., 7: masks the lanes of a partial vector.
    static let lanes = Vec8(0, 1, 2, 3, 4, 5, 6, 7)

    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>) {
        run(input: inputs[0], output: output, rows: 0..<rows)
    }

    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        run(input: inputs[0], output: output, rows: pieces)
    }
}
