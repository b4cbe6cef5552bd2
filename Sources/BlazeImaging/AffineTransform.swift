/// A 2-D affine map: `(x, y) -> (a·x + b·y + tx, c·x + d·y + ty)`.
///
/// `ImageToTensor` returns one from normalized tensor coordinates to upright image pixels, so that a model's
/// outputs (boxes, keypoints, landmarks) can be mapped back to the picture.
public struct AffineTransform: Hashable, Sendable, CustomStringConvertible {
    /// The coefficients: `x' = a·x + b·y + tx`, `y' = c·x + d·y + ty` (`tx`, `ty` in the output's units).
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    /// The map `(x, y) -> (a·x + b·y + tx, c·x + d·y + ty)`.
    /// - Parameters:
    ///   - a: how x' grows with x.
    ///   - b: how x' grows with y.
    ///   - c: how y' grows with x.
    ///   - d: how y' grows with y.
    ///   - tx: x' of the origin.
    ///   - ty: y' of the origin.
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    /// The map that leaves every point where it is.
    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// Scales by (`sx`, `sy`) about the origin.
    /// - Parameters:
    ///   - sx: the factor along x.
    ///   - sy: the factor along y.
    /// - Returns: `(x, y) -> (sx·x, sy·y)`.
    public static func scale(_ sx: Double, _ sy: Double) -> AffineTransform {
        AffineTransform(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// Moves by (`dx`, `dy`).
    /// - Parameters:
    ///   - dx: the move along x.
    ///   - dy: the move along y.
    /// - Returns: `(x, y) -> (x + dx, y + dy)`.
    public static func translation(_ dx: Double, _ dy: Double) -> AffineTransform {
        AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: dx, ty: dy)
    }

    /// The image of `p` under this map.
    /// - Parameter p: a point in the map's input coordinates.
    /// - Returns: `(a·x + b·y + tx, c·x + d·y + ty)`.
    @inlinable
    public func apply(_ p: Point) -> Point {
        Point(x: a * p.x + b * p.y + tx, y: c * p.x + d * p.y + ty)
    }

    /// `self` after `first`: `concatenated(after: first).apply(p) == apply(first.apply(p))`.
    /// - Parameter first: the map applied first.
    /// - Returns: the composition, `first` then `self`.
    public func concatenated(after first: AffineTransform) -> AffineTransform {
        AffineTransform(a: a * first.a + b * first.c, b: a * first.b + b * first.d,
                        c: c * first.a + d * first.c, d: c * first.b + d * first.d,
                        tx: a * first.tx + b * first.ty + tx, ty: c * first.tx + d * first.ty + ty)
    }

    /// The determinant of the linear part (0: the map is not invertible).
    public var determinant: Double { a * d - b * c }

    /// The inverse map, or nil when the determinant is 0 or not finite.
    public var inverted: AffineTransform? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        return AffineTransform(a: ia, b: ib, c: ic, d: id, tx: -(ia * tx + ib * ty), ty: -(ic * tx + id * ty))
    }

    /// The six coefficients.
    public var description: String { "AffineTransform(a: \(a), b: \(b), c: \(c), d: \(d), tx: \(tx), ty: \(ty))" }
}
