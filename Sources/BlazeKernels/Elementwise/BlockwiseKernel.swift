/// An elementwise kernel over `count` floats, one input and one output, whose work splits into blocks of
/// `Pieces.blockSize` floats: `Activation` and `Nonlinearity`. Each gives `run(input:output:elements:)`; this
/// protocol adds the whole run and the run by pieces (`pieceCount` of them).
///
/// Thread safety: as the conforming kernel's (immutable; runs may be concurrent with non-overlapping outputs).
package protocol BlockwiseKernel: Sendable {
    /// The number of floats a whole run reads and writes.
    var count: Int { get }

    /// Independent pieces: `Pieces.blockCount(count)` blocks of `Pieces.blockSize` floats. (Each kernel says so
    /// itself: the runtime's `StepKernel` has a default of 1, for kernels computed whole.)
    var pieceCount: Int { get }

    /// Applies the kernel to the floats at `elements`.
    /// - Parameters:
    ///   - input: `count` floats.
    ///   - output: `count` floats; may equal `input`.
    ///   - elements: a subrange of `0..<count`.
    func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, elements: Range<Int>)
}

extension BlockwiseKernel {
    /// Applies the kernel to all `count` floats.
    /// - Parameters:
    ///   - input: `count` floats.
    ///   - output: `count` floats; may equal `input`.
    package func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        run(input: input, output: output, elements: 0..<count)
    }

    /// Applies the kernel to blocks `pieces`; see `Pieces`.
    /// - Parameters:
    ///   - input: `count` floats.
    ///   - output: `count` floats; may equal `input`.
    ///   - pieces: a subrange of `0..<pieceCount`.
    package func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        run(input: input, output: output, elements: Pieces.elements(pieces, count: count))
    }
}
