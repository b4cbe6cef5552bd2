/// A kernel of one input whose `.simd` implementation computes any range of its output rows (`n·h`) on its
/// own and whose `.reference` implementation computes the whole output: its pieces (see `Pieces`) are the
/// output rows, or one piece for the reference.
///
/// A conforming kernel writes its two implementations, `runSIMD(input:output:pieces:)` and
/// `runReference(input:output:)`; `run(input:output:)`, `pieceCount` and `run(input:output:pieces:)` come
/// from this protocol. Conformers: `MaxPool2D`, `AveragePool2D`, `DepthwiseConv2D`, `Pad`.
package protocol OutputRowKernel: Sendable {
    /// The output's shape; `run` writes `outputShape.count` floats, in `n·h` rows.
    var outputShape: Shape4 { get }

    /// The implementation chosen at creation (`.simd` or `.reference`, never `.automatic`).
    var variant: KernelVariant { get }

    /// The fast path: computes output rows `pieces` (a subrange of `0..<n·h`) and nothing else.
    ///
    /// - Parameters:
    ///   - input: The whole input tensor.
    ///   - output: The whole output tensor; must not overlap `input`.
    ///   - pieces: The output rows to compute, counted over all images.
    func runSIMD(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, pieces: Range<Int>)

    /// The scalar oracle: computes the whole output with plain loops, independently of the fast path.
    ///
    /// - Parameters:
    ///   - input: The whole input tensor.
    ///   - output: The whole output tensor; must not overlap `input`.
    func runReference(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>)
}

extension OutputRowKernel {
    /// Computes the whole output (all batches).
    ///
    /// - Parameters:
    ///   - input: The whole input tensor, NHWC.
    ///   - output: `outputShape.count` floats, NHWC. Must not overlap `input`.
    package func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        run(input: input, output: output, pieces: 0..<pieceCount)
    }

    /// Independent pieces of the output: its rows (`n·h`) for the SIMD implementation, 1 for the reference
    /// (computed whole).
    package var pieceCount: Int { outputRowPieceCount }

    /// Computes output rows `pieces` (a subrange of `0..<pieceCount`); see `Pieces`. The reference computes
    /// the whole output with piece 0 and nothing otherwise.
    ///
    /// - Parameters:
    ///   - input: The whole input tensor, NHWC.
    ///   - output: The whole output tensor, NHWC. Must not overlap `input`.
    ///   - pieces: A subrange of `0..<pieceCount`.
    package func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        switch variant {
        case .simd: runSIMD(input: input, output: output, pieces: pieces)
        default: if pieces.contains(0) { runReference(input: input, output: output) }
        }
    }

    /// `pieceCount`, under a name of its own so that `StepKernel`'s conformance can name it too.
    var outputRowPieceCount: Int { variant == .simd ? outputShape.n * outputShape.h : 1 }
}

extension StepKernel where Self: OutputRowKernel {
    /// The output rows of `OutputRowKernel` rather than `StepKernel`'s default of one piece.
    package var pieceCount: Int { outputRowPieceCount }
}

extension RowLocality {
    /// The row-locality of a windowed kernel (convolution or pooling) over rows of a batch of one through
    /// its SIMD kernel, which computes row ranges; nil for the reference, a batch of several or a dilated
    /// window.
    ///
    /// - Parameters:
    ///   - geometry: The kernel's window.
    ///   - output: The kernel's output shape.
    ///   - variant: The kernel's implementation.
    package static func window(
        _ geometry: WindowGeometry, output: Shape4, variant: KernelVariant
    ) -> RowLocality? {
        guard output.n == 1, variant == .simd, let window = RowWindow(geometry) else { return nil }
        return RowLocality(windows: [window], output: output, computesRowRanges: true)
    }
}
