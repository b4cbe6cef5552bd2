/// The six keypoints BlazeFace reports, named from the subject's own point of view: the right eye is the
/// subject's right eye, which appears on the viewer's left in an unmirrored photo.
public struct FaceKeypoints: Hashable, Sendable {
    public var rightEye: Point
    public var leftEye: Point
    public var noseTip: Point
    public var mouthCenter: Point
    public var rightEarTragion: Point
    public var leftEarTragion: Point

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
        case rightEye, leftEye, noseTip, mouthCenter, rightEarTragion, leftEarTragion
    }

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
    public var keypoints: FaceKeypoints

    public init(boundingBox: Rect, score: Float, keypoints: FaceKeypoints) {
        self.boundingBox = boundingBox
        self.score = score
        self.keypoints = keypoints
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
    public func paddedBox(top: Double, left: Double, bottom: Double, right: Double,
                          clampedToWidth imageWidth: Double, height imageHeight: Double) -> Rect {
        boundingBox.padded(top: top, left: left, bottom: bottom, right: right)
            .clamped(width: imageWidth, height: imageHeight)
    }

    /// The face with every coordinate transformed by `transform`.
    public func mapped(_ transform: (Point) -> Point) -> Face {
        let a = transform(Point(x: boundingBox.minX, y: boundingBox.minY))
        let b = transform(Point(x: boundingBox.maxX, y: boundingBox.maxY))
        var k = keypoints
        for kind in FaceKeypoints.Kind.allCases { k[kind] = transform(k[kind]) }
        let box = Rect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(b.x - a.x), height: abs(b.y - a.y))
        return Face(boundingBox: box, score: score, keypoints: k)
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
