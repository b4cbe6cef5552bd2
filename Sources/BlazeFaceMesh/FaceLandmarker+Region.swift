import BlazeFace
import Foundation

/// A region of interest as MediaPipe's graphs carry it (`NormalizedRect`): centre and size as fractions of the
/// image's width and height, rotation in radians clockwise, all in `Float`. The landmarker computes regions
/// and projects points in this form, with MediaPipe's float arithmetic, so that its numbers follow MediaPipe's.
struct NormalizedRegion: Hashable, Sendable {
    var xCenter: Float
    var yCenter: Float
    var width: Float
    var height: Float
    var rotation: Float

    /// The region in upright image pixels (MediaPipe's `GetRoi`: each value times the image size, in float).
    func pixels(imageWidth: Int, imageHeight: Int) -> RotatedRect {
        let w = Float(imageWidth), h = Float(imageHeight)
        return RotatedRect(center: Point(x: Double(xCenter * w), y: Double(yCenter * h)),
                           width: Double(width * w), height: Double(height * h), rotation: Double(rotation))
    }

    /// `region` (upright pixels) as fractions of the image.
    init(_ region: RotatedRect, imageWidth: Int, imageHeight: Int) {
        let w = Double(imageWidth), h = Double(imageHeight)
        self.init(xCenter: Float(region.center.x / w), yCenter: Float(region.center.y / h),
                  width: Float(region.width / w), height: Float(region.height / h), rotation: Float(region.rotation))
    }

    init(xCenter: Float, yCenter: Float, width: Float, height: Float, rotation: Float) {
        self.xCenter = xCenter
        self.yCenter = yCenter
        self.width = width
        self.height = height
        self.rotation = rotation
    }

    /// Whether the region can be sampled: finite, with both sides positive.
    var isUsable: Bool {
        xCenter.isFinite && yCenter.isFinite && rotation.isFinite && width.isFinite && height.isFinite
            && width > 0 && height > 0
    }

    /// The axis-aligned rectangle MediaPipe's `AssociationNormRectCalculator` compares (rotation ignored).
    var unturnedBox: Rect {
        let xMin = Float(Double(xCenter) - Double(width) / 2), yMin = Float(Double(yCenter) - Double(height) / 2)
        return Rect(x: Double(xMin), y: Double(yMin), width: Double(width), height: Double(height))
    }
}

extension FaceLandmarker {
    /// How a face's region of interest is made from a detection or from landmarks: MediaPipe's
    /// `DetectionsToRectsCalculator` (rotation from two keypoints) then `RectTransformationCalculator`
    /// (square on the long side, then scaled), as in `face_detection_front_detection_to_roi.pbtxt` and
    /// `face_landmark_landmarks_to_roi.pbtxt`.
    enum RegionRecipe {
        /// The scale both graphs apply.
        static let scale: Float = 1.5

        /// The region for a detected face in an image of `imageWidth` x `imageHeight` pixels: the box's
        /// centre, turned so that the line from keypoint 0 (the subject's right eye) to keypoint 1 (the left
        /// eye) is level, squared on the long side and scaled by 1.5.
        static func region(for face: Face, imageWidth: Int, imageHeight: Int) -> NormalizedRegion {
            let w = Double(imageWidth), h = Double(imageHeight)
            let box = face.boundingBox
            // MediaPipe's detection is relative to the image, in float.
            let xMin = Float(box.minX / w), yMin = Float(box.minY / h)
            let width = Float(box.width / w), height = Float(box.height / h)
            let start = (Float(face.keypoints.rightEye.x / w), Float(face.keypoints.rightEye.y / h))
            let end = (Float(face.keypoints.leftEye.x / w), Float(face.keypoints.leftEye.y / h))
            return transformed(xCenter: xMin + width / 2, yCenter: yMin + height / 2, width: width, height: height,
                               rotation: rotation(from: start, to: end, imageWidth: imageWidth, imageHeight: imageHeight),
                               imageWidth: imageWidth, imageHeight: imageHeight)
        }

        /// The region for the next frame from a face's points (upright pixels): the bounding box of all the
        /// points, turned so that the line from point 33 to point 263 (the outer eye corners) is level, squared
        /// on the long side and scaled by 1.5. Nil when there are fewer than 264 points.
        static func region(for points: [Landmark], imageWidth: Int, imageHeight: Int) -> NormalizedRegion? {
            guard points.count > 263 else { return nil }
            let w = Double(imageWidth), h = Double(imageHeight)
            // `LandmarksToDetectionCalculator` starts the maxima at FLT_MIN (the smallest positive float), not
            // at -FLT_MAX: a face wholly left of or above the image gets a box reaching to 0. Kept as is.
            var xMin = Float.greatestFiniteMagnitude, xMax = Float.leastNormalMagnitude
            var yMin = Float.greatestFiniteMagnitude, yMax = Float.leastNormalMagnitude
            for index in points.indices {
                let x = Float(Double(points[index].x) / w), y = Float(Double(points[index].y) / h)
                xMin = min(xMin, x); xMax = max(xMax, x)
                yMin = min(yMin, y); yMax = max(yMax, y)
            }
            let width = xMax - xMin, height = yMax - yMin
            let start = (Float(Double(points[33].x) / w), Float(Double(points[33].y) / h))
            let end = (Float(Double(points[263].x) / w), Float(Double(points[263].y) / h))
            return transformed(xCenter: xMin + width / 2, yCenter: yMin + height / 2, width: width, height: height,
                               rotation: rotation(from: start, to: end, imageWidth: imageWidth, imageHeight: imageHeight),
                               imageWidth: imageWidth, imageHeight: imageHeight)
        }

        /// `DetectionsToRectsCalculator::ComputeRotation` with target angle 0: the angle that turns the vector
        /// from `start` to `end` (relative coordinates, measured in pixels) level, normalized to [-π, π).
        static func rotation(from start: (Float, Float), to end: (Float, Float), imageWidth: Int,
                             imageHeight: Int) -> Float {
            let w = Float(imageWidth), h = Float(imageHeight)
            let x0 = start.0 * w, y0 = start.1 * h, x1 = end.0 * w, y1 = end.1 * h
            return normalizeRadians(0 - atan2(-(y1 - y0), x1 - x0))
        }

        /// MediaPipe's `NormalizeRadians`: into [-π, π), computed in double.
        static func normalizeRadians(_ angle: Float) -> Float {
            let a = Double(angle)
            return Float(a - 2 * Double.pi * ((a - -Double.pi) / (2 * Double.pi)).rounded(.down))
        }

        /// The iris model's region for one eye (`iris_landmark_landmarks_to_roi.pbtxt`): the box of the eye's
        /// two corner points (upright pixels), turned so that the line from `start` to `end` is level, squared
        /// on the long side and scaled by 2.3.
        static func eyeRegion(from start: Landmark, to end: Landmark, imageWidth: Int,
                              imageHeight: Int) -> NormalizedRegion {
            let w = Double(imageWidth), h = Double(imageHeight)
            let a = (Float(Double(start.x) / w), Float(Double(start.y) / h))
            let b = (Float(Double(end.x) / w), Float(Double(end.y) / h))
            let xMin = min(a.0, b.0), yMin = min(a.1, b.1)
            let width = max(a.0, b.0) - xMin, height = max(a.1, b.1) - yMin
            return transformed(xCenter: xMin + width / 2, yCenter: yMin + height / 2, width: width, height: height,
                               rotation: rotation(from: a, to: b, imageWidth: imageWidth, imageHeight: imageHeight),
                               imageWidth: imageWidth, imageHeight: imageHeight, scale: 2.3)
        }

        /// `RectTransformationCalculator` with `square_long`, no shift and `scale` (1.5 for faces).
        static func transformed(xCenter: Float, yCenter: Float, width: Float, height: Float, rotation: Float,
                                imageWidth: Int, imageHeight: Int, scale: Float = scale) -> NormalizedRegion {
            let w = Float(imageWidth), h = Float(imageHeight)
            let longSide = max(width * w, height * h)
            return NormalizedRegion(xCenter: xCenter, yCenter: yCenter, width: longSide / w * scale,
                                    height: longSide / h * scale, rotation: rotation)
        }
    }

    /// MediaPipe's `AssociationNormRectCalculator` (min similarity 0.5) over one list of regions in order:
    /// each region removes the earlier ones whose unturned boxes overlap it by IoU > 0.5 and joins the end of
    /// the list. Regions from detections come first, regions from the previous frame's points after them, so a
    /// tracked face replaces its own fresh detection. `regions` is rewritten in place (allocation-free).
    static func associate(_ regions: inout [(region: NormalizedRegion, detection: Face?)]) {
        var index = 1
        while index < regions.count {
            let box = regions[index].region.unturnedBox
            var earlier = 0, removed = 0
            while earlier < index - removed {
                if regions[earlier].region.unturnedBox.iou(box) > 0.5 {
                    regions.remove(at: earlier)
                    removed += 1
                } else {
                    earlier += 1
                }
            }
            // The element at `index` moved down by `removed`; it joins the end of the processed part, which it
            // already is (everything after it is unprocessed).
            index += 1 - removed
        }
    }
}
