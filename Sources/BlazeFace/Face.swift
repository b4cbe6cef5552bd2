/// The six keypoints BlazeFace reports, named from the subject's own point of view: the right eye is the
/// subject's right eye, which appears on the viewer's left in an unmirrored photo.
///
/// Each point is in the same coordinates as the face's box: pixels of the upright image (after orientation).
public struct FaceKeypoints: Hashable, Sendable {
    /// The centre of the subject's right eye.
    public var rightEye: Point
    /// The centre of the subject's left eye.
    public var leftEye: Point
    /// The tip of the nose.
    public var noseTip: Point
    /// The centre of the mouth.
    public var mouthCenter: Point
    /// The subject's right ear tragion (the small cartilage in front of the ear canal).
    public var rightEarTragion: Point
    /// The subject's left ear tragion.
    public var leftEarTragion: Point

    /// Keypoints; each parameter sets the property of the same name.
    public init(rightEye: Point, leftEye: Point, noseTip: Point, mouthCenter: Point,
                rightEarTragion: Point, leftEarTragion: Point) {
        self.rightEye = rightEye
        self.leftEye = leftEye
        self.noseTip = noseTip
        self.mouthCenter = mouthCenter
        self.rightEarTragion = rightEarTragion
        self.leftEarTragion = leftEarTragion
    }

    /// The keypoint types in the model's order.
    public enum Kind: String, CaseIterable, Sendable {
        /// The keypoint of the same name in `FaceKeypoints`; right and left are the subject's own.
        case rightEye, leftEye, noseTip, mouthCenter, rightEarTragion, leftEarTragion
    }

    /// The keypoint of kind `kind`, read or written.
    /// - Parameter kind: which keypoint.
    /// - Returns: the keypoint, in the face's coordinates.
    public subscript(kind: Kind) -> Point {
        get {
            switch kind {
            case .rightEye: return rightEye
            case .leftEye: return leftEye
            case .noseTip: return noseTip
            case .mouthCenter: return mouthCenter
            case .rightEarTragion: return rightEarTragion
            case .leftEarTragion: return leftEarTragion
            }
        }
        set {
            switch kind {
            case .rightEye: rightEye = newValue
            case .leftEye: leftEye = newValue
            case .noseTip: noseTip = newValue
            case .mouthCenter: mouthCenter = newValue
            case .rightEarTragion: rightEarTragion = newValue
            case .leftEarTragion: leftEarTragion = newValue
            }
        }
    }

    /// The keypoints with their kinds, in the model's order.
    public var all: [(kind: Kind, point: Point)] { Kind.allCases.map { ($0, self[$0]) } }
}

/// A detected face, in the pixel coordinates of the upright image (after orientation).
public struct Face: Hashable, Sendable {
    /// The face's box. Not clipped to the image: a face at the border may extend past it.
    public var boundingBox: Rect
    /// Confidence in 0...1.
    public var score: Float
    /// The six keypoints, in the same coordinates as the box.
    public var keypoints: FaceKeypoints
    /// The quarter turn in which the detector saw this face upright: how many degrees (0, 90, 180 or 270)
    /// the upright image must be turned clockwise for the face to stand upright in it.
    ///
    /// 0 for every face of a plain detection. With `FaceDetector.Options.tryRotations`, a face lying on its
    /// side with the top of its head toward the image's left edge (its eyes stacked vertically, the subject's
    /// right eye below the left) is found in the image turned 90° clockwise and reports 90; a face upside
    /// down reports 180; a face whose head points toward the right edge reports 270. The box and keypoints
    /// are always in the upright image's own pixels, whatever the turn.
    public var uprightRotation: Int

    /// A face; each parameter sets the property of the same name.
    /// - Parameters:
    ///   - boundingBox: the face's box, in the upright image's pixels.
    ///   - score: confidence in 0...1.
    ///   - keypoints: the six keypoints, in the same coordinates as the box.
    ///   - uprightRotation: the clockwise turn in degrees (0, 90, 180 or 270) in which the face was upright.
    public init(boundingBox: Rect, score: Float, keypoints: FaceKeypoints, uprightRotation: Int = 0) {
        self.boundingBox = boundingBox
        self.score = score
        self.keypoints = keypoints
        self.uprightRotation = uprightRotation
    }

    /// The head's roll in radians: the angle of the line from the right eye (viewer's left) to the left
    /// eye, measured from the image's x axis with y pointing down. 0 for an upright face; positive when the
    /// face is tilted clockwise as seen on screen. In -π...π.
    public var roll: Double {
        let dx = keypoints.leftEye.x - keypoints.rightEye.x
        let dy = keypoints.leftEye.y - keypoints.rightEye.y
        return atan2Double(dy, dx)
    }

    /// `roll` in degrees.
    public var rollDegrees: Double { roll * 180 / Double.pi }

    /// The bounding box grown by fractions of its size (see `Rect.padded`) and clamped to an image of
    /// `imageWidth` x `imageHeight` pixels: the crop a privacy blur or a thumbnail wants.
    /// - Parameters:
    ///   - top: the growth above the box, as a fraction of its height.
    ///   - left: the growth left of the box, as a fraction of its width.
    ///   - bottom: the growth below the box, as a fraction of its height.
    ///   - right: the growth right of the box, as a fraction of its width.
    ///   - imageWidth: the upright image's width, in pixels.
    ///   - imageHeight: the upright image's height, in pixels.
    /// - Returns: the grown box, in the upright image's pixels, inside the image.
    public func paddedBox(top: Double, left: Double, bottom: Double, right: Double,
                          clampedToWidth imageWidth: Double, height imageHeight: Double) -> Rect {
        boundingBox.padded(top: top, left: left, bottom: bottom, right: right)
            .clamped(width: imageWidth, height: imageHeight)
    }

    /// The face with every coordinate transformed by `transform`.
    /// - Parameter transform: maps a point of the face's coordinate space to the new one; the box becomes the
    ///   box spanned by its two transformed corners (exact for scales, offsets and flips, not for rotations).
    /// - Returns: the face in the new coordinates, with the same score and `uprightRotation`.
    public func mapped(_ transform: (Point) -> Point) -> Face {
        let a = transform(Point(x: boundingBox.minX, y: boundingBox.minY))
        let b = transform(Point(x: boundingBox.maxX, y: boundingBox.maxY))
        var k = keypoints
        for kind in FaceKeypoints.Kind.allCases { k[kind] = transform(k[kind]) }
        let box = Rect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(b.x - a.x), height: abs(b.y - a.y))
        return Face(boundingBox: box, score: score, keypoints: k, uprightRotation: uprightRotation)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

@inline(__always)
func atan2Double(_ y: Double, _ x: Double) -> Double { atan2(y, x) }
