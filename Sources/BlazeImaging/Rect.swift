/// An axis-aligned rectangle in image pixels (origin top-left, y down).
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// Left edge, in pixels.
    public var x: Double
    /// Top edge, in pixels.
    public var y: Double
    /// Width, in pixels (negative for an empty rectangle).
    public var width: Double
    /// Height, in pixels (negative for an empty rectangle).
    public var height: Double

    /// The rectangle with its top-left corner at (`x`, `y`) and the given size, in pixels.
    /// - Parameters:
    ///   - x: left edge.
    ///   - y: top edge.
    ///   - width: width; not clamped.
    ///   - height: height; not clamped.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Left edge, `x`.
    public var minX: Double { x }
    /// Top edge, `y`.
    public var minY: Double { y }
    /// Right edge, `x + width`.
    public var maxX: Double { x + width }
    /// Bottom edge, `y + height`.
    public var maxY: Double { y + height }
    /// The centre point.
    public var center: Point { Point(x: x + width / 2, y: y + height / 2) }
    /// `width × height` in square pixels, 0 when a side is negative.
    public var area: Double { max(width, 0) * max(height, 0) }

    /// Intersection over union with another rectangle: 0 when either is empty (a negative side) or they do
    /// not overlap (`intersectionOverUnion`, the one IoU of the library).
    /// - Parameter other: a rectangle in the same pixels.
    /// - Returns: the intersection's area over the union's, 0...1.
    public func iou(_ other: Rect) -> Double {
        intersectionOverUnion((minX, minY, maxX, maxY), (other.minX, other.minY, other.maxX, other.maxY))
    }

    /// The rectangle grown by fractions of its own size on each side (negative values shrink it).
    ///
    /// For example `padded(top: 0.3, left: 0.1, bottom: 0.1, right: 0.1)` leaves room for hair above a face.
    /// - Parameters:
    ///   - top: the share of `height` added above.
    ///   - left: the share of `width` added on the left.
    ///   - bottom: the share of `height` added below.
    ///   - right: the share of `width` added on the right.
    /// - Returns: the grown rectangle; not clamped to the image.
    public func padded(top: Double, left: Double, bottom: Double, right: Double) -> Rect {
        Rect(x: x - left * width, y: y - top * height,
             width: width * (1 + left + right), height: height * (1 + top + bottom))
    }

    /// The rectangle grown by `fraction` of its size on every side.
    /// - Parameter fraction: the share of the width (left and right) and height (top and bottom) added on each side.
    /// - Returns: the grown rectangle; not clamped to the image.
    public func padded(by fraction: Double) -> Rect {
        padded(top: fraction, left: fraction, bottom: fraction, right: fraction)
    }

    /// The part of the rectangle inside `[0, width) x [0, height)` (empty, with zero size, if none).
    /// - Parameters:
    ///   - boundsWidth: the image's width, in pixels.
    ///   - boundsHeight: the image's height, in pixels.
    /// - Returns: the intersection with the image.
    public func clamped(width boundsWidth: Double, height boundsHeight: Double) -> Rect {
        let x0 = min(max(minX, 0), boundsWidth), x1 = min(max(maxX, 0), boundsWidth)
        let y0 = min(max(minY, 0), boundsHeight), y1 = min(max(maxY, 0), boundsHeight)
        return Rect(x: x0, y: y0, width: max(x1 - x0, 0), height: max(y1 - y0, 0))
    }

    /// The origin and size, such as `(x: 10.0, y: 20.0, width: 64.0, height: 64.0)`.
    public var description: String { "(x: \(x), y: \(y), width: \(width), height: \(height))" }
}
