import BlazeImaging

/// An axis-aligned box given by its corners, normalized to the model input.
///
/// Boxes are not clipped to 0...1. A box with `xMin > xMax` or `yMin > yMax` is *empty*; a box with
/// coincident edges has zero area but is not empty (MediaPipe's `Rectangle` convention).
public struct Box: Hashable, Sendable {
    /// Left edge, a fraction of the input width.
    public var xMin: Float
    /// Top edge, a fraction of the input height.
    public var yMin: Float
    /// Right edge, a fraction of the input width.
    public var xMax: Float
    /// Bottom edge, a fraction of the input height.
    public var yMax: Float

    /// The box with these edges, normalized to the model input; not clipped, and empty when a minimum exceeds its
    /// maximum.
    /// - Parameters:
    ///   - xMin: left edge, a fraction of the input width.
    ///   - yMin: top edge, a fraction of the input height.
    ///   - xMax: right edge, a fraction of the input width.
    ///   - yMax: bottom edge, a fraction of the input height.
    public init(xMin: Float, yMin: Float, xMax: Float, yMax: Float) {
        self.xMin = xMin
        self.yMin = yMin
        self.xMax = xMax
        self.yMax = yMax
    }

    /// The box centred on (`xCenter`, `yCenter`) with the given size.
    /// - Parameters:
    ///   - xCenter: the centre's x, a fraction of the input width.
    ///   - yCenter: the centre's y, a fraction of the input height.
    ///   - width: width, a fraction of the input width.
    ///   - height: height, a fraction of the input height.
    public init(xCenter: Float, yCenter: Float, width: Float, height: Float) {
        self.init(
            xMin: xCenter - width / 2, yMin: yCenter - height / 2,
            xMax: xCenter + width / 2, yMax: yCenter + height / 2)
    }

    /// `xMax - xMin` (negative for an empty box).
    @inlinable public var width: Float { xMax - xMin }
    /// `yMax - yMin` (negative for an empty box).
    @inlinable public var height: Float { yMax - yMin }
    /// Whether a side is negative: no point lies inside the box.
    @inlinable public var isEmpty: Bool { xMin > xMax || yMin > yMax }
    /// `width × height`, or 0 for an empty box.
    @inlinable public var area: Float { isEmpty ? 0 : width * height }
    /// The centre point.
    @inlinable public var center: Keypoint { Keypoint(x: (xMin + xMax) / 2, y: (yMin + yMax) / 2) }

    /// Intersection over union, as MediaPipe's non-max suppression computes it
    /// (`INTERSECTION_OVER_UNION` overlap; BlazeImaging's `intersectionOverUnion`, the library's one IoU).
    ///
    /// 0 when either box is empty or the boxes are disjoint; boxes that only touch, and zero-area boxes,
    /// intersect in zero area and also give 0. Symmetric. Never NaN: 0 when a coordinate is NaN.
    /// - Parameter other: a box normalized to the same input.
    /// - Returns: the intersection's area over the union's, 0...1.
    @inlinable
    public func iou(with other: Box) -> Float {
        intersectionOverUnion((xMin, yMin, xMax, yMax), (other.xMin, other.yMin, other.xMax, other.yMax))
    }
}

extension Box: CustomStringConvertible {
    /// The edges, such as `Box(x: 0.25...0.5, y: 0.125...0.375)`.
    public var description: String { "Box(x: \(xMin)...\(xMax), y: \(yMin)...\(yMax))" }
}
