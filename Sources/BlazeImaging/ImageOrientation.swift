/// How the stored pixels must be transformed to show the image upright, as EXIF and camera frames
/// report it. Names follow `UIImage.Orientation` / `CGImagePropertyOrientation`.
///
/// Faces are always reported in the coordinates of the upright (displayed) image.
public enum ImageOrientation: Int, Hashable, Sendable, CaseIterable {
    /// EXIF 1: stored upright.
    case up = 1
    /// EXIF 2: stored mirrored left-right.
    case upMirrored = 2
    /// EXIF 3: stored rotated by 180°.
    case down = 3
    /// EXIF 4: stored mirrored top-bottom.
    case downMirrored = 4
    /// EXIF 5: stored transposed (mirrored, then rotated 90° counter-clockwise).
    case leftMirrored = 5
    /// EXIF 6: rotate the stored image 90° clockwise to show it (a phone held upright, back camera).
    case right = 6
    /// EXIF 7: stored transversed (mirrored, then rotated 90° clockwise).
    case rightMirrored = 7
    /// EXIF 8: rotate the stored image 90° counter-clockwise to show it.
    case left = 8

    /// The orientation for an EXIF orientation tag value (1...8); nil for other values.
    /// - Parameter value: the tag's value, 1...8.
    public init?(exif value: Int) {
        self.init(rawValue: value)
    }

    /// The EXIF orientation tag value.
    public var exifValue: Int { rawValue }

    /// True when the upright image's width is the stored height (a quarter turn).
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// Maps a point of the upright image (continuous coordinates, pixel edges at integers) to the stored
    /// image of size `width` x `height` (the stored size, not the upright one).
    /// - Parameters:
    ///   - u: x in the upright image, in pixels.
    ///   - v: y in the upright image, in pixels.
    ///   - w: the stored image's width, in pixels.
    ///   - h: the stored image's height, in pixels.
    /// - Returns: the same point in the stored image's pixels.
    @inlinable
    public func storedPoint(u: Double, v: Double, width w: Double, height h: Double) -> (x: Double, y: Double) {
        switch self {
        case .up: return (u, v)
        case .upMirrored: return (w - u, v)
        case .down: return (w - u, h - v)
        case .downMirrored: return (u, h - v)
        case .leftMirrored: return (v, u)
        case .right: return (v, h - u)
        case .rightMirrored: return (w - v, h - u)
        case .left: return (w - v, u)
        }
    }

    /// Maps an upright pixel index (u, v) to the stored pixel index, for a stored image of `width` x `height`.
    /// - Parameters:
    ///   - u: the upright image's column.
    ///   - v: the upright image's row.
    ///   - w: the stored image's width, in pixels.
    ///   - h: the stored image's height, in pixels.
    /// - Returns: the stored image's column and row of the same pixel.
    @inlinable
    public func storedPixel(u: Int, v: Int, width w: Int, height h: Int) -> (x: Int, y: Int) {
        switch self {
        case .up: return (u, v)
        case .upMirrored: return (w - 1 - u, v)
        case .down: return (w - 1 - u, h - 1 - v)
        case .downMirrored: return (u, h - 1 - v)
        case .leftMirrored: return (v, u)
        case .right: return (v, h - 1 - u)
        case .rightMirrored: return (w - 1 - v, h - 1 - u)
        case .left: return (w - 1 - v, u)
        }
    }
}
