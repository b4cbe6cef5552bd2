/// A kernel as the interpreter runs it: one step of an execution plan, with its inputs and output resolved to
/// memory. Each kernel declares here what the runtime needs to know of it, so that the runtime never switches
/// over the kind of kernel: how to run it whole or in pieces, how many independent pieces its output splits
/// into (for the worker pool), which input rows each output row reads (row-locality, for repeated rows), its
/// arithmetic cost, and its name in the plan.
///
/// Adding an operator means writing its kernel with this conformance next to it, and lowering the TFLite
/// operator to it in the runtime.
///
/// Contract: every `run` performs no heap allocation and computes each output value the same way whatever
/// the pieces or rows asked for, so that splitting a step changes no bit of its output. `inputs` are the
/// step's inputs in the order the lowering gave them.
package protocol StepKernel: Sendable {
    /// The kernel type and the implementation chosen, such as `Conv2D.simd` (`Interpreter.plan`).
    var planDescription: String { get }

    /// Multiply-accumulates per run (0 for data movement and elementwise kernels): the runtime's cost estimate.
    var multiplyAccumulates: Int { get }

    /// Independent pieces of the output (see `Pieces`); 1 for a kernel computed whole.
    var pieceCount: Int { get }

    /// How each output row depends on the input rows, when it does so locally (see `RowLocality`); nil
    /// otherwise.
    var rowLocality: RowLocality? { get }

    /// Computes the whole output.
    func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>)

    /// Computes pieces `pieces`, a subrange of `0..<pieceCount`.
    func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>, pieces: Range<Int>)

    /// Computes output rows `rows` of a batch of one; only called when `rowLocality?.computesRowRanges`.
    func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>, outputRows rows: Range<Int>)
}

extension StepKernel {
    package var multiplyAccumulates: Int { 0 }
    package var pieceCount: Int { 1 }
    package var rowLocality: RowLocality? { nil }

    /// The whole output with piece 0, nothing otherwise (a kernel of one piece).
    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        if pieces.contains(0) { run(inputs: inputs, output: output) }
    }

    /// The whole output (a kernel that does not compute row ranges).
    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>, outputRows rows: Range<Int>) {
        run(inputs: inputs, output: output)
    }
}

/// The input rows that output row `y` of a step reads from one of its inputs: `y·stride − pad ..<
/// y·stride − pad + height`.
package struct RowWindow: Equatable, Sendable {
    package var height: Int
    package var stride: Int
    package var pad: Int

    package init(height: Int, stride: Int, pad: Int) {
        (self.height, self.stride, self.pad) = (height, stride, pad)
    }

    /// Same rows in and out (1x1 convolutions, elementwise steps).
    package static let identity = RowWindow(height: 1, stride: 1, pad: 0)

    /// The window of a convolution or pooling's rows, or nil when dilated.
    package init?(_ geometry: WindowGeometry) {
        guard geometry.dilationH == 1 else { return nil }
        self.init(height: geometry.kernelH, stride: geometry.strideH, pad: geometry.padTop)
    }

    /// Output rows (of `outputRows`) whose window lies inside `band` of input rows.
    package func outputRows(inside band: Range<Int>, outputRows: Int) -> Range<Int> {
        guard band.count >= height else { return 0..<0 }
        // y·s − p >= lower and y·s − p + height <= upper; lower + pad >= 0, so only the upper bound can be negative.
        let first = (band.lowerBound + pad + stride - 1) / stride
        let limit = band.upperBound + pad - height
        guard limit >= 0 else { return 0..<0 }
        let last = limit / stride
        let lower = max(first, 0), upper = min(last + 1, outputRows)
        return lower < upper ? lower..<upper : 0..<0
    }
}

/// A kernel's row-locality: each output row (of a batch of one) is a function of one window of rows of
/// each of the first `windows.count` inputs alone, computed by the same instructions wherever it lies. Then
/// output rows whose windows lie in bands of identical input rows are identical too (`Options.reuseRepeatedRows`).
package struct RowLocality: Equatable, Sendable {
    /// The windows of inputs 0 and (when there are two) 1; one or two.
    package var windows: [RowWindow]
    /// Rows of the output, and floats per row.
    package var outputRows: Int
    package var rowFloats: Int
    /// Whether the kernel computes a range of output rows (`run(inputs:output:outputRows:)`); otherwise it
    /// computes everything, and its output's bands of identical rows still hold.
    package var computesRowRanges: Bool

    /// - Parameter shape: the output's shape (a batch of one: `n` is not checked here).
    package init(windows: [RowWindow], output shape: Shape4, computesRowRanges: Bool) {
        self.windows = windows
        self.outputRows = shape.h
        self.rowFloats = shape.w * shape.c
        self.computesRowRanges = computesRowRanges
    }
}

/// A kernel with several implementations, one of them chosen at creation (`variant`).
package protocol VariantKernel {
    var variant: KernelVariant { get }
}

extension StepKernel where Self: VariantKernel {
    /// The type's name and the implementation, such as `Conv2D.simd`.
    package var planDescription: String { "\(Self.self).\(variant)" }
}

/// A step kernel of one input with `run(input:output:)`, which computes its whole output.
package protocol UnaryStepKernel: StepKernel {
    func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>)
}

extension UnaryStepKernel {
    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>) {
        run(input: inputs[0], output: output)
    }
}

/// A step kernel of one input whose pieces are its output rows (`n·h`): `run(input:output:pieces:)` also
/// computes a range of output rows of a batch of one.
package protocol RowStepKernel: UnaryStepKernel {
    func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, pieces: Range<Int>)
}

extension RowStepKernel {
    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        run(input: inputs[0], output: output, pieces: pieces)
    }

    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>, outputRows rows: Range<Int>) {
        run(input: inputs[0], output: output, pieces: rows)
    }
}

/// A step kernel of two inputs, `lhs` then `rhs` (`Add`, `Mul`).
package protocol BinaryStepKernel: StepKernel {
    /// Computes the whole output.
    func run(lhs: UnsafePointer<Float>, rhs: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>)

    /// Computes pieces `pieces`, a subrange of `0..<pieceCount`.
    func run(
        lhs: UnsafePointer<Float>, rhs: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, pieces: Range<Int>)
}

extension BinaryStepKernel {
    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>) {
        run(lhs: inputs[0], rhs: inputs[1], output: output)
    }

    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        run(lhs: inputs[0], rhs: inputs[1], output: output, pieces: pieces)
    }
}
