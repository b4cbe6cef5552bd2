import BlazeImaging
import Foundation

/// A point with image coordinates in `Float` upright pixels, such as a model's landmark.
public protocol PlanarPoint {
    /// Upright pixels from the left edge.
    var x: Float { get }
    /// Upright pixels from the top edge.
    var y: Float { get }
}

/// How MediaPipe makes a region of interest from a detection or from landmarks: `DetectionsToRectsCalculator`
/// (the box, turned so that the line between two keypoints is level) then `RectTransformationCalculator`
/// (`square_long`, no shift, scaled by `scale`). Face graphs use `.face` (1.5:
/// `face_detection_front_detection_to_roi.pbtxt`, `face_landmark_landmarks_to_roi.pbtxt`); the iris graph uses
/// `.eye` (2.3: `iris_landmark_landmarks_to_roi.pbtxt`). A hand or pose pipeline makes its own with its graph's
/// scale.
///
/// All arithmetic is MediaPipe's, in `Float` on fractions of the image, so the regions equal MediaPipe's to the
/// bit for the same inputs. A value with pure methods: thread-safe.
public struct RegionRecipe: Hashable, Sendable {
    /// The factor both sides are scaled by after squaring.
    public var scale: Float

    /// A recipe with the given scale; each parameter sets the property of the same name.
    public init(scale: Float) { self.scale = scale }

    /// The face graphs' recipe (scale 1.5).
    public static let face = RegionRecipe(scale: 1.5)
    /// The iris graph's recipe for one eye (scale 2.3).
    public static let eye = RegionRecipe(scale: 2.3)

    /// The region for a detection: `box`'s centre (upright pixels), turned so that the line from `start` to `end`
    /// (two keypoints, upright pixels) is level, squared on the long side and scaled.
    /// - Parameters:
    ///   - box: the detection's box, in the upright image's pixels.
    ///   - start: the keypoint the level line starts at, in the upright image's pixels.
    ///   - end: the keypoint it ends at.
    ///   - imageWidth: the upright image's width, in pixels.
    ///   - imageHeight: the upright image's height, in pixels.
    /// - Returns: the region, in fractions of the upright image, rotation in radians.
    public func region(box: Rect, rotationFrom start: Point, to end: Point, imageWidth: Int,
                       imageHeight: Int) -> NormalizedRegion {
        let w = Double(imageWidth), h = Double(imageHeight)
        // MediaPipe's detection is relative to the image, in float.
        let xMin = Float(box.minX / w), yMin = Float(box.minY / h)
        let width = Float(box.width / w), height = Float(box.height / h)
        let a = (Float(start.x / w), Float(start.y / h)), b = (Float(end.x / w), Float(end.y / h))
        return transformed(xCenter: xMin + width / 2, yCenter: yMin + height / 2, width: width, height: height,
                           rotation: Self.rotation(from: a, to: b, imageWidth: imageWidth, imageHeight: imageHeight),
                           imageWidth: imageWidth, imageHeight: imageHeight)
    }

    /// The region for the next frame from a model's points (upright pixels): the bounding box of all the points,
    /// turned so that the line from `points[startIndex]` to `points[endIndex]` is level, squared on the long side
    /// and scaled. Nil when either index is outside `points`.
    /// - Parameters:
    ///   - points: the model's points, in the upright image's pixels.
    ///   - startIndex: the index of the point the level line starts at.
    ///   - endIndex: the index of the point it ends at.
    ///   - imageWidth: the upright image's width, in pixels.
    ///   - imageHeight: the upright image's height, in pixels.
    /// - Returns: the region, in fractions of the upright image, rotation in radians; or nil.
    @inlinable
    public func region<P: PlanarPoint>(points: [P], rotationFrom startIndex: Int, to endIndex: Int,
                                       imageWidth: Int, imageHeight: Int) -> NormalizedRegion? {
        guard points.indices.contains(startIndex), points.indices.contains(endIndex) else { return nil }
        let w = Double(imageWidth), h = Double(imageHeight)
        // `LandmarksToDetectionCalculator` starts the maxima at FLT_MIN (the smallest positive float), not at
        // -FLT_MAX: a face wholly left of or above the image gets a box reaching to 0. Kept as is.
        var xMin = Float.greatestFiniteMagnitude, xMax = Float.leastNormalMagnitude
        var yMin = Float.greatestFiniteMagnitude, yMax = Float.leastNormalMagnitude
        for index in points.indices {
            let x = Float(Double(points[index].x) / w), y = Float(Double(points[index].y) / h)
            xMin = min(xMin, x); xMax = max(xMax, x)
            yMin = min(yMin, y); yMax = max(yMax, y)
        }
        let width = xMax - xMin, height = yMax - yMin
        let start = (Float(Double(points[startIndex].x) / w), Float(Double(points[startIndex].y) / h))
        let end = (Float(Double(points[endIndex].x) / w), Float(Double(points[endIndex].y) / h))
        return transformed(xCenter: xMin + width / 2, yCenter: yMin + height / 2, width: width, height: height,
                           rotation: Self.rotation(from: start, to: end, imageWidth: imageWidth, imageHeight: imageHeight),
                           imageWidth: imageWidth, imageHeight: imageHeight)
    }

    /// The region spanned by two points (upright pixels), such as an eye's corners: their box, turned so that the
    /// line from `start` to `end` is level, squared on the long side and scaled.
    /// - Parameters:
    ///   - start: the point the level line starts at, in the upright image's pixels.
    ///   - end: the point it ends at.
    ///   - imageWidth: the upright image's width, in pixels.
    ///   - imageHeight: the upright image's height, in pixels.
    /// - Returns: the region, in fractions of the upright image, rotation in radians.
    public func region<P: PlanarPoint>(from start: P, to end: P, imageWidth: Int, imageHeight: Int) -> NormalizedRegion {
        let w = Double(imageWidth), h = Double(imageHeight)
        let a = (Float(Double(start.x) / w), Float(Double(start.y) / h))
        let b = (Float(Double(end.x) / w), Float(Double(end.y) / h))
        let xMin = min(a.0, b.0), yMin = min(a.1, b.1)
        let width = max(a.0, b.0) - xMin, height = max(a.1, b.1) - yMin
        return transformed(xCenter: xMin + width / 2, yCenter: yMin + height / 2, width: width, height: height,
                           rotation: Self.rotation(from: a, to: b, imageWidth: imageWidth, imageHeight: imageHeight),
                           imageWidth: imageWidth, imageHeight: imageHeight)
    }

    /// `RectTransformationCalculator` with `square_long`, no shift and this recipe's scale, on a region given as
    /// fractions of the image.
    /// - Parameters:
    ///   - xCenter: the centre's x, a fraction of the image's width.
    ///   - yCenter: the centre's y, a fraction of the image's height.
    ///   - width: the width, a fraction of the image's width.
    ///   - height: the height, a fraction of the image's height.
    ///   - rotation: radians, clockwise in the image; kept.
    ///   - imageWidth: the upright image's width, in pixels.
    ///   - imageHeight: the upright image's height, in pixels.
    /// - Returns: the squared and scaled region, same centre and rotation, in fractions of the image.
    public func transformed(xCenter: Float, yCenter: Float, width: Float, height: Float, rotation: Float,
                            imageWidth: Int, imageHeight: Int) -> NormalizedRegion {
        let w = Float(imageWidth), h = Float(imageHeight)
        let longSide = max(width * w, height * h)
        return NormalizedRegion(xCenter: xCenter, yCenter: yCenter, width: longSide / w * scale,
                                height: longSide / h * scale, rotation: rotation)
    }

    /// `DetectionsToRectsCalculator::ComputeRotation` with target angle 0: the angle that turns the vector from
    /// `start` to `end` (fractions of the image, measured in pixels) level, normalized to [-π, π).
    /// - Parameters:
    ///   - start: the vector's start, (x, y) in fractions of the image.
    ///   - end: the vector's end, (x, y) in fractions of the image.
    ///   - imageWidth: the upright image's width, in pixels.
    ///   - imageHeight: the upright image's height, in pixels.
    /// - Returns: the rotation in radians, clockwise in the image, in [-π, π).
    public static func rotation(from start: (Float, Float), to end: (Float, Float), imageWidth: Int,
                                imageHeight: Int) -> Float {
        let w = Float(imageWidth), h = Float(imageHeight)
        let x0 = start.0 * w, y0 = start.1 * h, x1 = end.0 * w, y1 = end.1 * h
        return normalizeRadians(0 - atan2(-(y1 - y0), x1 - x0))
    }

    /// MediaPipe's `NormalizeRadians`: into [-π, π), computed in double.
    /// - Parameter angle: any angle, in radians.
    /// - Returns: the same angle in [-π, π).
    public static func normalizeRadians(_ angle: Float) -> Float {
        let a = Double(angle)
        return Float(a - 2 * Double.pi * ((a - -Double.pi) / (2 * Double.pi)).rounded(.down))
    }
}
