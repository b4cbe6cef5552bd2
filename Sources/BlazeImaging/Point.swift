/// A point in image pixels: x to the right, y down, origin at the top-left corner of the top-left pixel.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public var description: String { "(\(x), \(y))" }
}
