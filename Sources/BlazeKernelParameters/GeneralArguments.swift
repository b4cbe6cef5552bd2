// The arguments of the general kernels' microkernels (SOFTMAX, BATCH_MATMUL).

/// SOFTMAX over the last axis: `rows` rows of `classes` floats, `exp((x − max) · beta)` divided by the row's sum.
package struct SoftmaxArguments {
    package var rows, classes: Int
    package var beta: Float
    package var input: UnsafePointer<Float>
    package var output: UnsafeMutablePointer<Float>

    package init(rows: Int, classes: Int, beta: Float, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        (self.rows, self.classes, self.beta, self.input, self.output) = (rows, classes, beta, input, output)
    }
}

/// `c[i, j] = Σ_p a[i, p] · b[p, j]` for `i < rows`, `j < columns`, `p < depth`, each sum taken in the order of
/// `p`. Element `a[i, p]` is at `a + i·aRowStride + p·aDepthStride`; `b[p, j]` at `b + p·columns + j`, or at
/// `b + j·depth + p` when `transposedB` (a BATCH_MATMUL's `adj_y`); `c` is row-major, `columns` per row.
package struct MatMulArguments {
    package var rows, depth, columns: Int
    package var a: UnsafePointer<Float>
    package var aRowStride, aDepthStride: Int
    package var b: UnsafePointer<Float>
    package var transposedB: Bool
    package var c: UnsafeMutablePointer<Float>

    package init(
        rows: Int, depth: Int, columns: Int, a: UnsafePointer<Float>, aRowStride: Int, aDepthStride: Int,
        b: UnsafePointer<Float>, transposedB: Bool, c: UnsafeMutablePointer<Float>
    ) {
        (self.rows, self.depth, self.columns, self.a, self.aRowStride, self.aDepthStride) =
            (rows, depth, columns, a, aRowStride, aDepthStride)
        (self.b, self.transposedB, self.c) = (b, transposedB, c)
    }
}
