#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(ucrt)
import ucrt
#endif

/// TFLite's float `SOFTMAX` over the last axis: per row, `exp((x − max) · beta)` divided by the row's sum, in
/// the reference kernel's order (the maximum, then the exponentials and their sum in index order, then one
/// division each).
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
        for row in range {
            let x = input + row * classes, y = output + row * classes
            var maximum = x[0]
            for c in 1..<max(classes, 1) where x[c] > maximum { maximum = x[c] }
            var sum: Float = 0
            for c in 0..<classes {
                let e = expf((x[c] - maximum) * beta)
                y[c] = e
                sum += e
            }
            for c in 0..<classes { y[c] = y[c] / sum }
        }
    }

    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>) {
        run(input: inputs[0], output: output, rows: 0..<rows)
    }

    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        run(input: inputs[0], output: output, rows: pieces)
    }
}
