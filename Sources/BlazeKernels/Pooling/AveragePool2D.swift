/// 2-D average pooling over NHWC float32 data with TFLite's `AVERAGE_POOL_2D` semantics: each output is
/// the sum of the in-bounds taps of its window divided by their count (padded positions are not counted),
/// then the fused activation.
///
/// Implementations: `.reference` (scalar loops) and `.simd` (vectorized over channels on `instructionSet`;
/// also `.automatic` and `.blas`). Creation, shapes and pieces (output rows): see `Pool2D`.
///
/// Thread safety: immutable after creation; `run` may be called concurrently with non-overlapping outputs.
package struct AveragePool2D: Pool2D {
    /// The shapes, window and implementation, validated at creation.
    package let configuration: PoolingConfiguration

    /// An average pooling of `configuration` (taken from another pooling kernel, which validated it).
    ///
    /// - Parameter configuration: The shapes, window and implementation.
    package init(configuration: PoolingConfiguration) {
        self.configuration = configuration
    }
}

extension AveragePool2D: RowStepKernel, VariantKernel {}
