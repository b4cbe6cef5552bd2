/// What `ImageDecoder.decodeScaled` returns: the decoded image, the scale it was decoded at, and the size of
/// the full picture, to map what is found in the image back to the full picture.
///
/// Sizes are as stored (before the EXIF orientation, which `image.orientation` reports and does not apply);
/// the mapping functions work in upright (displayed) coordinates, where detectors report faces.
public struct ScaledImage: Hashable, Sendable {
    /// The decoded pixels: `fullWidth` x `fullHeight` divided by `scaleDenominator`, rounded up.
    public var image: DecodedImage
    /// The image is 1/`scaleDenominator` of the full picture: 1 (a full decode, and always for PNG), 2, 4 or 8.
    public var scaleDenominator: Int
    /// The full picture's stored width, as its header declares it, in pixels.
    public var fullWidth: Int
    /// The full picture's stored height, as its header declares it, in pixels.
    public var fullHeight: Int

    /// Creates a description of a scaled decode.
    /// - Parameters:
    ///   - image: the decoded image.
    ///   - scaleDenominator: the image is 1/`scaleDenominator` of the full picture.
    ///   - fullWidth: the full picture's stored width, in pixels.
    ///   - fullHeight: the full picture's stored height, in pixels.
    public init(image: DecodedImage, scaleDenominator: Int, fullWidth: Int, fullHeight: Int) {
        self.image = image
        self.scaleDenominator = scaleDenominator
        self.fullWidth = fullWidth
        self.fullHeight = fullHeight
    }

    /// The full picture's upright (displayed) width, in pixels: `fullHeight` for the quarter-turn orientations.
    public var fullUprightWidth: Int { image.orientation.swapsDimensions ? fullHeight : fullWidth }
    /// The full picture's upright (displayed) height, in pixels.
    public var fullUprightHeight: Int { image.orientation.swapsDimensions ? fullWidth : fullHeight }

    /// Maps a point of the decoded image's upright view (continuous coordinates, pixel edges at integers) to
    /// the full picture's upright view. Points outside the image map outside the picture: a face cut by an edge
    /// keeps the box the model gave it (MediaPipe's rule), whatever the scale.
    ///
    /// libjpeg's scaled pixel i covers the full picture's pixels i·d ..< (i + 1)·d of the stored image, and the
    /// last row and column cover what is left when the size is not a multiple of d. So along each stored axis
    /// every pixel edge maps to its edge in the full picture (i to i·d, the last to the full size), a point
    /// inside the last pixel maps linearly into what that pixel covers, and a point past either end goes on at
    /// d full pixels per scaled pixel. The mapping is continuous and increasing, and exact for every
    /// orientation, mirrored ones included.
    /// - Parameter point: a point of `image` shown upright, in its pixels.
    /// - Returns: the same point of the full picture shown upright, in its pixels.
    public func fullSizePoint(_ point: Point) -> Point {
        let orientation = image.orientation
        let stored = orientation.storedPoint(u: point.x, v: point.y, width: Double(image.width),
                                             height: Double(image.height))
        let x = fullSize(stored.x, scaledSize: image.width, fullSize: fullWidth)
        let y = fullSize(stored.y, scaledSize: image.height, fullSize: fullHeight)
        let upright = orientation.uprightPoint(x: x, y: y, width: Double(fullWidth), height: Double(fullHeight))
        return Point(x: upright.u, y: upright.v)
    }

    /// One stored coordinate of the scaled image, mapped to the full picture (see `fullSizePoint(_:)`).
    private func fullSize(_ s: Double, scaledSize: Int, fullSize: Int) -> Double {
        let d = Double(scaleDenominator), last = Double(scaledSize - 1), n = Double(scaledSize), full = Double(fullSize)
        if s <= last { return s * d }
        if s <= n { return last * d + (s - last) * (full - last * d) }
        return full + (s - n) * d
    }

    /// Maps a rectangle of the decoded image's upright view to the full picture's upright view (its two
    /// corners through `fullSizePoint(_:)`).
    /// - Parameter rect: a rectangle of `image` shown upright, in its pixels.
    /// - Returns: the same rectangle of the full picture shown upright, in its pixels.
    public func fullSizeRect(_ rect: Rect) -> Rect {
        let a = fullSizePoint(Point(x: rect.minX, y: rect.minY))
        let b = fullSizePoint(Point(x: rect.maxX, y: rect.maxY))
        return Rect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(b.x - a.x), height: abs(b.y - a.y))
    }
}
