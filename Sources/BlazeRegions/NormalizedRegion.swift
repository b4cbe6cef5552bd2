import BlazeImaging

/// A region of interest as MediaPipe's graphs carry it (`NormalizedRect`): centre and size as fractions of the
/// upright image's width and height, rotation in radians clockwise, all in `Float`.
///
/// Pipelines that follow MediaPipe compute regions and project points in this form, with MediaPipe's float
/// arithmetic, so that their numbers follow MediaPipe's; they convert to `RotatedRect` (upright pixels,
/// `Double`) only to sample the image and to report.
public struct NormalizedRegion: Hashable, Sendable {
    /// The centre's x, a fraction of the image's width.
    public var xCenter: Float
    /// The centre's y, a fraction of the image's height.
    public var yCenter: Float
    /// The width, a fraction of the image's width.
    public var width: Float
    /// The height, a fraction of the image's height.
    public var height: Float
    /// Radians, clockwise in the image (y down).
    public var rotation: Float

    /// A region from its fractions of the image and its rotation.
    /// Each parameter sets the property of the same name.
    public init(xCenter: Float, yCenter: Float, width: Float, height: Float, rotation: Float) {
        self.xCenter = xCenter
        self.yCenter = yCenter
        self.width = width
        self.height = height
        self.rotation = rotation
    }

    /// `region` (upright pixels) as fractions of an image of `imageWidth` x `imageHeight` pixels.
    /// - Parameters:
    ///   - region: the region, in the upright image's pixels; its rotation (radians) is kept.
    ///   - imageWidth: the upright image's width, in pixels.
    ///   - imageHeight: the upright image's height, in pixels.
    public init(_ region: RotatedRect, imageWidth: Int, imageHeight: Int) {
        let w = Double(imageWidth), h = Double(imageHeight)
        self.init(xCenter: Float(region.center.x / w), yCenter: Float(region.center.y / h),
                  width: Float(region.width / w), height: Float(region.height / h), rotation: Float(region.rotation))
    }

    /// The region in upright image pixels (MediaPipe's `GetRoi`: each value times the image size, in float).
    /// - Parameters:
    ///   - imageWidth: the upright image's width, in pixels.
    ///   - imageHeight: the upright image's height, in pixels.
    /// - Returns: the region in the upright image's pixels, rotation in radians.
    public func pixels(imageWidth: Int, imageHeight: Int) -> RotatedRect {
        let w = Float(imageWidth), h = Float(imageHeight)
        return RotatedRect(center: Point(x: Double(xCenter * w), y: Double(yCenter * h)),
                           width: Double(width * w), height: Double(height * h), rotation: Double(rotation))
    }

    /// Whether the region can be sampled: finite, with both sides positive.
    public var isUsable: Bool {
        xCenter.isFinite && yCenter.isFinite && rotation.isFinite && width.isFinite && height.isFinite
            && width > 0 && height > 0
    }

    /// The axis-aligned rectangle MediaPipe's `AssociationNormRectCalculator` compares (rotation ignored), in
    /// fractions of the image.
    public var unturnedBox: Rect {
        let xMin = Float(Double(xCenter) - Double(width) / 2), yMin = Float(Double(yCenter) - Double(height) / 2)
        return Rect(x: Double(xMin), y: Double(yMin), width: Double(width), height: Double(height))
    }
}
