import Foundation

/// Maps points a model gave relative to its input (0...1 across the region it was fed) back into upright image
/// pixels: MediaPipe's `LandmarkProjectionCalculator` (rotate about the region's centre, scale by its size) then
/// the multiplication by the image size, in MediaPipe's float order. z is scaled like x (by the region's width).
///
/// Cheap to make (one sine and cosine); reuse one for every point of a region. An immutable value: thread-safe.
public struct RegionProjection: Sendable {
    @usableFromInline let region: NormalizedRegion
    @usableFromInline let cosine: Float
    @usableFromInline let sine: Float
    @usableFromInline let imageWidth: Double
    @usableFromInline let imageHeight: Double

    /// The projection out of `region` of an upright image of `imageWidth` x `imageHeight` pixels.
    /// - Parameters:
    ///   - region: the region the model was fed, in fractions of the upright image.
    ///   - imageWidth: the upright image's width, in pixels.
    ///   - imageHeight: the upright image's height, in pixels.
    public init(_ region: NormalizedRegion, imageWidth: Int, imageHeight: Int) {
        self.region = region
        cosine = cos(region.rotation)
        sine = sin(region.rotation)
        self.imageWidth = Double(imageWidth)
        self.imageHeight = Double(imageHeight)
    }

    /// The image point (upright pixels; z in the same pixel scale as x) of the model point `(x, y, z)`, whose x
    /// and y are fractions of the model input's width and height.
    /// - Parameters:
    ///   - x: the point's x, a fraction of the model input's width.
    ///   - y: the point's y, a fraction of the model input's height.
    ///   - z: the point's depth, on the scale of x (a fraction of the input's width).
    /// - Returns: the point in the upright image's pixels, z on the pixel scale of x.
    @inlinable
    public func callAsFunction(x: Float, y: Float, z: Float) -> (x: Float, y: Float, z: Float) {
        let x = x - 0.5, y = y - 0.5
        var newX = cosine * x - sine * y
        var newY = sine * x + cosine * y
        newX = newX * region.width + region.xCenter
        newY = newY * region.height + region.yCenter
        let newZ = z * region.width
        return (Float(Double(newX) * imageWidth), Float(Double(newY) * imageHeight), Float(Double(newZ) * imageWidth))
    }
}
