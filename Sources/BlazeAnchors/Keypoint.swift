/// A point normalized to the model input (x to its width, y to its height); also used for box centres.
public struct Keypoint: Hashable, Sendable {
    public var x: Float
    public var y: Float

    public init(x: Float, y: Float) {
        self.x = x
        self.y = y
    }
}

extension Keypoint: CustomStringConvertible {
    public var description: String { "(\(x), \(y))" }
}
