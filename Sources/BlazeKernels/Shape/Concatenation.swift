/// Concatenation of N tensors along one axis (TFLite's `CONCATENATION`), with a fused activation.
///
/// Inputs have the same rank (1...4) and agree on every dimension but `axis`. Internally each input is seen
/// as `[outer, inner_i]`, where `outer` is the product of the dimensions before the axis, and the output as
/// `[outer, Σ inner_i]`.
///
/// Implementations: `.reference` (element by element through 4-D coordinates) and `.simd` (block copies,
/// vectorized clamp when an activation is fused; also `.automatic` and `.blas`).
///
/// Thread safety: immutable after creation; `run` may be called concurrently with non-overlapping outputs.
package struct Concatenation: Sendable {
    /// The inputs' dimensions as given.
    package let inputDimensions: [[Int]]
    /// The output's dimensions, same rank as the inputs.
    package let outputDimensions: [Int]
    /// The output as a 4-D shape; `run` writes `outputShape.count` floats.
    package let outputShape: Shape4
    /// The axis in the inputs' own rank, normalized to `0 ..< rank`.
    package let axis: Int
    package let activation: FusedActivation
    /// The implementation chosen at creation (never `.automatic`).
    package let variant: KernelVariant

    /// The inputs as 4-D shapes.
    let inputShapes: [Shape4]
    /// The concatenation axis among the 4-D dimensions (0 = n ... 3 = c).
    let axis4: Int
    /// Per input: floats copied per outer step (`dims[axis...]` product).
    let innerSizes: PackedBuffer<Int>
    /// Product of the dimensions before the axis.
    let outerCount: Int

    /// - Parameters:
    ///   - inputShapes: The inputs' dimensions; at least one input, all of the same rank 1...4, equal on
    ///     every dimension except `axis`.
    ///   - axis: The axis, `-rank ..< rank` (negative counts from the end, as in TFLite).
    ///   - activation: The fused activation.
    ///   - variant: The implementation.
    /// - Throws: `KernelError.invalidShape` or `.invalidParameter`.
    package init(
        inputShapes: [[Int]], axis: Int, activation: FusedActivation = .none, variant: KernelVariant = .automatic
    ) throws(KernelError) {
        guard let first = inputShapes.first else { throw .invalidShape("concatenation needs at least one input") }
        let rank = first.count
        guard rank >= 1 else { throw .invalidShape("concatenation needs inputs of rank 1 to 4") }
        guard axis >= -rank && axis < rank else {
            throw .invalidParameter("axis \(axis) out of range for rank \(rank)")
        }
        let normalized = axis < 0 ? axis + rank : axis
        var shapes: [Shape4] = []
        var outputDimensions = first
        outputDimensions[normalized] = 0
        for dims in inputShapes {
            guard dims.count == rank else {
                throw .invalidShape("input of rank \(dims.count) concatenated with rank \(rank)")
            }
            shapes.append(try Shape4(dimensions: dims))
            for d in 0..<rank where d != normalized && dims[d] != first[d] {
                throw .invalidShape("shapes \(first) and \(dims) differ on axis \(d), not the concatenation axis \(normalized)")
            }
            outputDimensions[normalized] += dims[normalized]
        }
        self.inputDimensions = inputShapes
        self.outputDimensions = outputDimensions
        self.outputShape = try Shape4(dimensions: outputDimensions)
        self.axis = normalized
        self.axis4 = normalized + 4 - rank
        self.activation = activation
        self.inputShapes = shapes
        self.outerCount = first[..<normalized].reduce(1, *)
        self.innerSizes = PackedBuffer(inputShapes.map { $0[normalized...].reduce(1, *) }, padding: 0)
        self.variant = variant == .reference ? .reference : .simd
    }

    /// The number of input pointers `run` expects.
    package var inputCount: Int { inputShapes.count }

    /// Writes the concatenation.
    ///
    /// - Parameters:
    ///   - inputs: `inputCount` pointers, the i-th to `inputDimensions[i]`'s element count of floats.
    ///   - output: `outputShape.count` floats. Must not overlap any input.
    /// - Precondition: `inputs.count == inputCount` (a programming error otherwise).
    package func run(inputs: UnsafeBufferPointer<UnsafePointer<Float>>, output: UnsafeMutablePointer<Float>) {
        precondition(inputs.count == inputCount, "Concatenation expects \(inputCount) inputs, got \(inputs.count)")
        switch variant {
        case .simd: runSIMD(inputs: inputs, output: output)
        default: runReference(inputs: inputs, output: output)
        }
    }
}

extension Concatenation: StepKernel, VariantKernel {
    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>) {
        inputs.withUnsafeBufferPointer { run(inputs: $0, output: output) }
    }
}
