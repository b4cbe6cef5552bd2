/// A strided slice of a tensor of rank 1...5 (TFLite's `STRIDED_SLICE` on float32): along every input
/// dimension `d`, the output takes `count` elements starting at `start`, `stride` apart (a negative stride
/// walks backwards). The output's dimensions may drop some of those axes (count 1, TFLite's shrink axes) and
/// add axes of size 1 (new axes); the data are the same.
///
/// `init(inputDimensions:begin:end:strides:masks:)` resolves TFLite's begin/end/strides inputs and masks into
/// these axes (`StridedSlice+Indexing.swift`); `init(inputDimensions:axes:outputDimensions:)` takes them
/// resolved.
///
/// Implementations: `.reference` (one output element at a time, a 5-deep loop) and `.simd` (also `.automatic`
/// and `.blas`): trailing axes taken whole are merged into one contiguous run with the innermost axis of
/// stride 1, and each run is one block copy (the whole tensor in one copy when nothing is sliced).
///
/// Thread safety: immutable after creation; `run` may be called concurrently with non-overlapping outputs.
package struct StridedSlice: Sendable {
    /// The elements taken along one input dimension: `start + i · stride` for `i < count`.
    package struct Axis: Hashable, Sendable {
        package var start: Int
        package var stride: Int
        package var count: Int

        package init(start: Int, stride: Int, count: Int) {
            (self.start, self.stride, self.count) = (start, stride, count)
        }
    }

    /// The input's dimensions as given.
    package let inputDimensions: [Int]
    /// The output's dimensions: the axes' counts, without the shrunk axes, with the new axes of size 1.
    package let outputDimensions: [Int]
    /// One axis per input dimension.
    package let axes: [Axis]
    /// The implementation chosen at creation (never `.automatic`).
    package let variant: KernelVariant

    /// The number of floats `run` writes.
    package var outputCount: Int { axes.reduce(1) { $0 * $1.count } }

    /// The SIMD plan: `outer` loops (count, step in input floats) around contiguous runs of `run` floats,
    /// from input float `base`.
    let base: Int
    let outer: [(count: Int, step: Int)]
    let run: Int

    /// - Parameters:
    ///   - inputDimensions: The input's dimensions (rank 1...5), each positive.
    ///   - axes: One per input dimension; every count positive, every stride non-zero, and every element
    ///     taken inside the dimension.
    ///   - outputDimensions: The output's dimensions; their product must equal the product of the counts.
    ///   - variant: The implementation.
    /// - Throws: `KernelError.invalidShape` for a bad rank or dimension, axes that do not match the input's
    ///   rank or an output of another size; `.invalidParameter` for an axis outside its dimension, a zero
    ///   stride or an empty count.
    package init(
        inputDimensions: [Int], axes: [Axis], outputDimensions: [Int], variant: KernelVariant = .automatic
    ) throws(KernelError) {
        guard (1...5).contains(inputDimensions.count) else {
            throw .invalidShape("strided slice input of rank \(inputDimensions.count); 1 to 5 are supported")
        }
        guard inputDimensions.allSatisfy({ $0 > 0 }), outputDimensions.allSatisfy({ $0 > 0 }) else {
            throw .invalidShape("input \(inputDimensions) or output \(outputDimensions) has a dimension that is not positive")
        }
        guard axes.count == inputDimensions.count else {
            throw .invalidShape("\(axes.count) slice axes for a rank \(inputDimensions.count) input")
        }
        var inputCount = 1
        for d in inputDimensions {
            let (product, overflow) = inputCount.multipliedReportingOverflow(by: d)
            guard !overflow else { throw .invalidShape("input \(inputDimensions) is too large") }
            inputCount = product
        }
        var count = 1
        for (k, axis) in axes.enumerated() {
            let size = inputDimensions[k]
            guard axis.stride != 0 else { throw .invalidParameter("stride 0 on axis \(k)") }
            guard axis.count > 0 else { throw .invalidParameter("axis \(k) takes no element") }
            let span = axis.stride.multipliedReportingOverflow(by: axis.count - 1)
            let last = axis.start.addingReportingOverflow(span.partialValue)
            guard (0..<size).contains(axis.start), !span.overflow, !last.overflow, (0..<size).contains(last.partialValue) else {
                throw .invalidParameter("axis \(k): \(axis.count) elements from \(axis.start) by \(axis.stride) leave 0..<\(size)")
            }
            count *= axis.count  // at most the input's count: no overflow
        }
        var outputCount = 1
        for d in outputDimensions {
            let (product, overflow) = outputCount.multipliedReportingOverflow(by: d)
            guard !overflow else { throw .invalidShape("output \(outputDimensions) is too large") }
            outputCount = product
        }
        guard outputCount == count else {
            throw .invalidShape("output \(outputDimensions) has \(outputCount) elements, the slice takes \(count)")
        }
        self.inputDimensions = inputDimensions
        self.outputDimensions = outputDimensions
        self.axes = axes
        self.variant = variant == .reference ? .reference : .simd
        (base, outer, run) = Self.runs(inputDimensions, axes)
    }

    /// Copies the slice.
    ///
    /// - Parameters:
    ///   - input: The product of `inputDimensions` floats.
    ///   - output: `outputCount` floats. Must not overlap `input`.
    package func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        switch variant {
        case .simd: runSIMD(input: input, output: output)
        default: runReference(input: input, output: output)
        }
    }
}

extension StridedSlice: UnaryStepKernel, VariantKernel {}
