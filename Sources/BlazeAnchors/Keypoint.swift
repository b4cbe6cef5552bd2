/// A point normalized to the model input (x to its width, y to its height); also used for box centres.
public struct Keypoint: Hashable, Sendable {
    /// Horizontal position, a fraction of the input width (0 the left edge, 1 the right).
    public var x: Float
    /// Vertical position, a fraction of the input height (0 the top edge, 1 the bottom).
    public var y: Float

    /// The point at (`x`, `y`), normalized to the model input.
    /// - Parameters:
    ///   - x: a fraction of the input width.
    ///   - y: a fraction of the input height.
    public init(x: Float, y: Float) {
        self.x = x
        self.y = y
    }
}

extension Keypoint: CustomStringConvertible {
    /// The coordinates, such as `(0.5, 0.25)`.
    public var description: String { "(\(x), \(y))" }
}
