/// 2-D max pooling over NHWC float32 data with TFLite's `MAX_POOL_2D` semantics: each output is the
/// maximum over the in-bounds taps of its window (padded positions are ignored, not zeros), starting from
/// `-Float.greatestFiniteMagnitude` as TFLite does, then the fused activation.
///
/// Implementations: `.reference` (scalar loops) and `.simd` (vectorized over channels, 8 at a time with a
/// partial tail; also `.automatic` and `.blas`). Creation, shapes and pieces (output rows): see `Pool2D`.
///
/// Thread safety: immutable after creation; `run` may be called concurrently with non-overlapping outputs.
package struct MaxPool2D: Pool2D {
    /// The shapes, window and implementation, validated at creation.
    package let configuration: PoolingConfiguration

    /// A max pooling of `configuration` (taken from another pooling kernel, which validated it).
    ///
    /// - Parameter configuration: The shapes, window and implementation.
    package init(configuration: PoolingConfiguration) {
        self.configuration = configuration
    }
}

extension MaxPool2D: RowStepKernel, VariantKernel {}
