import BlazeImaging

/// A box in a report: `{"x", "y", "width", "height"}`, pixels of the upright image, origin top-left.
public struct BoxReport: Codable, Hashable, Sendable {
    /// The left edge.
    public var x: Double
    /// The top edge.
    public var y: Double
    /// The width.
    public var width: Double
    /// The height.
    public var height: Double

    /// A box from its edges and size.
    /// - Parameters:
    ///   - x: the left edge.
    ///   - y: the top edge.
    ///   - width: the width.
    ///   - height: the height.
    public init(x: Double, y: Double, width: Double, height: Double) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    /// The box of a rectangle.
    /// - Parameter rect: a rectangle in upright pixels.
    public init(_ rect: Rect) {
        self.init(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
    }
}
