/// One SSD anchor: a reference box the model's regressors are relative to.
///
/// All four values are normalized to the model input (0...1 for the centre). With
/// `AnchorOptions.fixedAnchorSize` (every BlazeFace model) `width` and `height` are 1, so the regressors
/// are offsets in units of the decoding scale (the input size in pixels).
public struct Anchor: Hashable, Sendable {
    /// Horizontal centre, normalized to the input width.
    public var xCenter: Float
    /// Vertical centre, normalized to the input height.
    public var yCenter: Float
    /// Width, normalized to the input width.
    public var width: Float
    /// Height, normalized to the input height.
    public var height: Float

    /// Creates an anchor; every value is normalized to the model input.
    /// - Parameters:
    ///   - xCenter: horizontal centre, a fraction of the input width.
    ///   - yCenter: vertical centre, a fraction of the input height.
    ///   - width: width, a fraction of the input width.
    ///   - height: height, a fraction of the input height.
    public init(xCenter: Float, yCenter: Float, width: Float, height: Float) {
        self.xCenter = xCenter
        self.yCenter = yCenter
        self.width = width
        self.height = height
    }
}

extension Anchor: CustomStringConvertible {
    /// The centre and size, such as `Anchor(x: 0.03125, y: 0.03125, w: 1.0, h: 1.0)`.
    public var description: String {
        "Anchor(x: \(xCenter), y: \(yCenter), w: \(width), h: \(height))"
    }
}
