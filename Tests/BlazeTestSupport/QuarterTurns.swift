import BlazeImaging

/// Pictures turned by quarter turns with no orientation tag (as a camera without EXIF stores a sideways shot), and
/// points of the upright picture followed into them: the tests of `tryRotations`.
public enum QuarterTurns {
    /// `image` with its pixels turned `quarterTurns` times 90° clockwise, as upright rgb8 with orientation `.up`.
    /// - Parameters:
    ///   - image: the picture, any orientation.
    ///   - quarterTurns: clockwise quarter turns (any integer; taken modulo 4).
    /// - Returns: the turned pixels.
    /// - Throws: `ImagingError` from `uprightRGB()`.
    public static func turned(_ image: ImageBuffer, quarterTurns: Int) throws -> ImageBuffer {
        var oriented = image
        oriented.orientation = ImageOrientation(quarterTurns: quarterTurns, mirrored: false)
        return try oriented.uprightRGB()
    }

    /// Where the point `(x, y)` of an upright picture of `width` x `height` pixels lands in the picture turned
    /// `quarterTurns` times clockwise.
    /// - Parameters:
    ///   - x: x in the upright picture, pixels.
    ///   - y: y in the upright picture, pixels.
    ///   - quarterTurns: clockwise quarter turns.
    ///   - width: the upright picture's width, pixels.
    ///   - height: the upright picture's height, pixels.
    /// - Returns: the point in the turned picture's pixels.
    public static func point(x: Double, y: Double, turned quarterTurns: Int, width: Double,
                             height: Double) -> (x: Double, y: Double) {
        // The upright picture is the turned one shown turned back: `storedPoint` goes from it to the turned one.
        let turnedWidth = quarterTurns % 2 == 0 ? width : height, turnedHeight = quarterTurns % 2 == 0 ? height : width
        let q = ImageOrientation(quarterTurns: -quarterTurns, mirrored: false)
            .storedPoint(u: x, v: y, width: turnedWidth, height: turnedHeight)
        return (q.x, q.y)
    }
}
