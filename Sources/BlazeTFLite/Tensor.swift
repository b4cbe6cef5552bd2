/// Quantization parameters of a tensor (schema table `QuantizationParameters`).
public struct Quantization: Hashable, Sendable {
    /// Per-channel (or one) minimum of the float range the tensor was calibrated to; empty when not recorded.
    public var min: [Float]
    /// Per-channel (or one) maximum of the float range the tensor was calibrated to; empty when not recorded.
    public var max: [Float]
    /// Per-channel (or one) scale: `real = scale · (quantized - zeroPoint)`.
    public var scale: [Float]
    /// Per-channel (or one) zero point, in quantized units.
    public var zeroPoint: [Int]
    /// The dimension that `scale` and `zeroPoint` run along when they have one entry per channel.
    public var quantizedDimension: Int

    /// True when the table carries no scale (TFLite writes empty tables for float tensors).
    public var isEmpty: Bool { scale.isEmpty && zeroPoint.isEmpty }
}

/// One dimension of a sparse tensor's storage (schema table `DimensionMetadata`).
public enum DimensionMetadata: Hashable, Sendable {
    /// A dense dimension of the given size.
    case dense(size: Int)
    /// A compressed (CSR) dimension: `segments` has one more entry than the product of the enclosing
    /// dimensions; `indices[segments[i]..<segments[i+1]]` are the stored coordinates under entry `i`.
    case sparseCSR(segments: [Int], indices: [Int])
}

/// How a sparse constant tensor is stored (schema table `SparsityParameters`).
public struct Sparsity: Hashable, Sendable {
    /// The order in which the stored dimensions are traversed: the tensor's dimensions first, then the
    /// block dimensions.
    public var traversalOrder: [Int]
    /// For each block dimension, the tensor dimension it subdivides.
    public var blockMap: [Int]
    /// One entry per dimension in traversal order.
    public var dimensionMetadata: [DimensionMetadata]
}

/// A tensor of a subgraph (schema table `Tensor`).
public struct Tensor: Hashable, Sendable {
    /// Index of this tensor in its subgraph.
    public var index: Int
    /// The tensor's name in the file (how pipelines find their inputs and outputs).
    public var name: String
    /// The dimensions, outermost first (NHWC for images: batch, height, width, channels); empty for a scalar.
    public var shape: [Int]
    /// The shape with -1 for dimensions that may vary, when the model records one.
    public var shapeSignature: [Int]?
    /// The element type.
    public var type: TensorType
    /// Index into `Model.buffers`; buffer 0 is the empty sentinel (no constant data).
    public var buffer: Int
    /// The quantization parameters, when the file records them.
    public var quantization: Quantization?
    /// How the tensor's constant data is stored sparsely; nil for dense tensors.
    public var sparsity: Sparsity?
    /// Whether the tensor is a variable (state kept between invocations); no model this library runs has one.
    public var isVariable: Bool

    /// Number of elements (the product of the shape; 1 for a scalar).
    public var elementCount: Int { shape.reduce(1, *) }
}
