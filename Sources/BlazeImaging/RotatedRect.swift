import Foundation

/// A rectangle of the upright image turned about its centre, in pixels: MediaPipe's `RotatedRect` and
/// OpenCV's `cv::RotatedRect`.
///
/// `rotation` is in radians, positive clockwise as the image is shown (y points down): the rectangle's own
/// x axis points along `(cos rotation, sin rotation)` and its y axis along `(−sin rotation, cos rotation)`.
/// A point given in the rectangle's normalized coordinates (u, v in 0...1, (0, 0) its top-left corner before
/// the turn) lies at `center + (u − 0.5)·width·xAxis + (v − 0.5)·height·yAxis` (`point(u:v:)`), which is how
/// MediaPipe projects landmarks back (`LandmarkProjectionCalculator`).
public struct RotatedRect: Hashable, Sendable, CustomStringConvertible {
    /// The centre, in upright image pixels.
    public var center: Point
    /// Width along the rectangle's own x axis, in pixels.
    public var width: Double
    /// Height along the rectangle's own y axis, in pixels.
    public var height: Double
    /// Radians, clockwise on screen.
    public var rotation: Double

    /// The rectangle of the given size centred on `center` and turned by `rotation`.
    /// - Parameters:
    ///   - center: the centre, in upright image pixels.
    ///   - width: width along the rectangle's own x axis, in pixels.
    ///   - height: height along its own y axis, in pixels.
    ///   - rotation: radians, clockwise on screen (0: axis-aligned).
    public init(center: Point, width: Double, height: Double, rotation: Double = 0) {
        self.center = center
        self.width = width
        self.height = height
        self.rotation = rotation
    }

    /// The axis-aligned rectangle `rect`, unturned.
    /// - Parameter rect: a rectangle in upright image pixels.
    public init(_ rect: Rect) {
        self.init(center: rect.center, width: rect.width, height: rect.height)
    }

    /// Whether the centre, size and rotation are finite and both sides positive.
    public var isValid: Bool {
        center.x.isFinite && center.y.isFinite && width.isFinite && height.isFinite && rotation.isFinite
            && width > 0 && height > 0
    }

    /// The upright-image point at normalized coordinates (u, v) of the rectangle (see the type's comment).
    /// Unturned rectangles compute `center + (u − 0.5)·size` exactly, with no rotation arithmetic.
    /// - Parameters:
    ///   - u: across the rectangle's own x axis, 0 at its left edge and 1 at its right.
    ///   - v: across its own y axis, 0 at its top edge and 1 at its bottom.
    /// - Returns: the point, in upright image pixels.
    @inlinable
    public func point(u: Double, v: Double) -> Point {
        if rotation == 0 {
            return Point(x: center.x + (u - 0.5) * width, y: center.y + (v - 0.5) * height)
        }
        let c = cos(rotation), s = sin(rotation)
        let x = (u - 0.5) * width, y = (v - 0.5) * height
        return Point(x: center.x + c * x - s * y, y: center.y + s * x + c * y)
    }

    /// The affine map from normalized rectangle coordinates (u, v) to upright image pixels (`point(u:v:)`).
    public var normalizedToImage: AffineTransform {
        let c = rotation == 0 ? 1 : cos(rotation), s = rotation == 0 ? 0 : sin(rotation)
        let origin = point(u: 0, v: 0)
        return AffineTransform(a: c * width, b: -s * height, c: s * width, d: c * height, tx: origin.x, ty: origin.y)
    }

    /// The four corners, in the order top-left, top-right, bottom-right, bottom-left of the unturned rectangle.
    public var corners: [Point] {
        [point(u: 0, v: 0), point(u: 1, v: 0), point(u: 1, v: 1), point(u: 0, v: 1)]
    }

    /// The smallest axis-aligned rectangle holding the four corners.
    public var boundingBox: Rect {
        let points = corners
        let xs = points.map(\.x), ys = points.map(\.y)
        let x0 = xs.min()!, y0 = ys.min()!
        return Rect(x: x0, y: y0, width: xs.max()! - x0, height: ys.max()! - y0)
    }

    /// The centre, size and rotation.
    public var description: String {
        "RotatedRect(center: \(center), width: \(width), height: \(height), rotation: \(rotation))"
    }
}
