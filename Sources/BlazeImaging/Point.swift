/// A point in image pixels: x to the right, y down, origin at the top-left corner of the top-left pixel.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// Pixels to the right of the image's left edge.
    public var x: Double
    /// Pixels below the image's top edge.
    public var y: Double

    /// The point at (`x`, `y`) pixels.
    /// - Parameters:
    ///   - x: pixels to the right of the left edge.
    ///   - y: pixels below the top edge.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The coordinates, such as `(12.5, 40.0)`.
    public var description: String { "(\(x), \(y))" }
}
