/// How the stored pixels must be transformed to show the image upright, as EXIF and camera frames
/// report it.
///
/// The raw values are EXIF's orientation tag (1...8), which `CGImagePropertyOrientation` shares:
/// `ImageOrientation(rawValue: Int(cgOrientation.rawValue))` is the same orientation. The case names are
/// also `UIImage.Orientation`'s, with the same meaning, but UIKit numbers them 0...7 in another order
/// (up 0, down 1, left 2, right 3, upMirrored 4, downMirrored 5, leftMirrored 6, rightMirrored 7): convert
/// a UIKit value with `init(uiImageOrientation:)` (or, on Apple platforms, `init(_:)` from a
/// `UIImage.Orientation`), never with `init(rawValue:)`, which would read UIKit's `.right` (3) as `.down`.
///
/// Each orientation is a mirror (or none) followed by clockwise quarter turns: the upright image is the
/// stored one mirrored left-right when `isMirrored`, then turned `quarterTurns` times 90° clockwise.
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
    /// EXIF 5: stored transposed: mirror the stored image left-right, then turn it 90° counter-clockwise to
    /// show it (equivalently, turn it 90° clockwise, then mirror).
    case leftMirrored = 5
    /// EXIF 6: rotate the stored image 90° clockwise to show it (a phone held upright, back camera).
    case right = 6
    /// EXIF 7: stored transversed: mirror the stored image left-right, then turn it 90° clockwise to show it
    /// (equivalently, turn it 90° counter-clockwise, then mirror).
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

    /// The orientation for a `UIImage.Orientation` raw value, which numbers the same eight orientations
    /// 0...7 in UIKit's order: up 0, down 1, left 2, right 3, upMirrored 4, downMirrored 5, leftMirrored 6,
    /// rightMirrored 7. The same name means the same transform (Apple's "Compatibility with
    /// UIImageOrientation" in the `CGImagePropertyOrientation` documentation).
    /// - Parameter rawValue: `UIImage.Orientation.rawValue`, 0...7.
    /// - Returns: nil for values outside 0...7.
    public init?(uiImageOrientation rawValue: Int) {
        guard (0...7).contains(rawValue) else { return nil }
        self = Self.uiImageOrder[rawValue]
    }

    /// The `UIImage.Orientation` raw value of the same-named orientation (0...7, UIKit's numbering).
    public var uiImageOrientationRawValue: Int {
        Self.uiImageOrder.firstIndex(of: self) ?? 0
    }

    /// UIKit's `UIImageOrientation` order (`UIImage.h`).
    static let uiImageOrder: [ImageOrientation] = [.up, .down, .left, .right,
                                                   .upMirrored, .downMirrored, .leftMirrored, .rightMirrored]

    /// The orientation that mirrors the stored image left-right when `mirrored`, then turns it `quarterTurns`
    /// times 90° clockwise to show it.
    /// - Parameters:
    ///   - quarterTurns: clockwise quarter turns; any integer (taken modulo 4, negative turns counter-clockwise).
    ///   - mirrored: whether the stored image is mirrored left-right before the turns.
    public init(quarterTurns: Int, mirrored: Bool) {
        let turns = ((quarterTurns % 4) + 4) % 4
        let plain: [ImageOrientation] = [.up, .right, .down, .left]
        let flipped: [ImageOrientation] = [.upMirrored, .rightMirrored, .downMirrored, .leftMirrored]
        self = mirrored ? flipped[turns] : plain[turns]
    }

    /// The clockwise quarter turns (0...3) that show the stored image, after the mirror when `isMirrored`:
    /// 0 for `.up` and `.upMirrored`, 1 for `.right` and `.rightMirrored`, 2 for `.down` and `.downMirrored`,
    /// 3 for `.left` and `.leftMirrored`.
    public var quarterTurns: Int {
        switch self {
        case .up, .upMirrored: return 0
        case .right, .rightMirrored: return 1
        case .down, .downMirrored: return 2
        case .left, .leftMirrored: return 3
        }
    }

    /// True for the four mirrored orientations: the stored image is the mirror image of the upright one.
    public var isMirrored: Bool {
        switch self {
        case .upMirrored, .downMirrored, .leftMirrored, .rightMirrored: return true
        case .up, .down, .left, .right: return false
        }
    }

    /// The orientation that shows the mirror image (left-right) of the upright image this one shows: what to
    /// pass to see a front camera's frame as its mirrored preview does. Mirroring after `quarterTurns` turns
    /// equals mirroring first and turning the other way, so `.right` becomes `.leftMirrored`.
    public var flippedHorizontally: ImageOrientation {
        ImageOrientation(quarterTurns: -quarterTurns, mirrored: !isMirrored)
    }

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

    /// Maps a point of the stored image of size `width` x `height` to the upright image: the inverse of
    /// `storedPoint(u:v:width:height:)`.
    /// - Parameters:
    ///   - x: x in the stored image, in pixels.
    ///   - y: y in the stored image, in pixels.
    ///   - w: the stored image's width, in pixels.
    ///   - h: the stored image's height, in pixels.
    /// - Returns: the same point in the upright image's pixels.
    @inlinable
    public func uprightPoint(x: Double, y: Double, width w: Double, height h: Double) -> (u: Double, v: Double) {
        switch self {
        case .up: return (x, y)
        case .upMirrored: return (w - x, y)
        case .down: return (w - x, h - y)
        case .downMirrored: return (x, h - y)
        case .leftMirrored: return (y, x)
        case .right: return (h - y, x)
        case .rightMirrored: return (h - y, w - x)
        case .left: return (y, w - x)
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
