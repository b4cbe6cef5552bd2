import BlazeFace
import Foundation
import Testing

/// `Rect`, `Face` helpers and view mapping, on hand-worked numbers.
@Suite("Geometry helpers")
struct GeometryHelperTests {
    static func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

    static func close(_ a: Rect, _ b: Rect, _ tolerance: Double = 1e-9) -> Bool {
        close(a.x, b.x, tolerance) && close(a.y, b.y, tolerance) && close(a.width, b.width, tolerance)
            && close(a.height, b.height, tolerance)
    }

    static func close(_ a: Point, _ b: Point, _ tolerance: Double = 1e-9) -> Bool {
        close(a.x, b.x, tolerance) && close(a.y, b.y, tolerance)
    }

    /// A face at (700, 300, 80, 80) in a 1280x720 picture, eyes level.
    static let face = Face(
        boundingBox: Rect(x: 700, y: 300, width: 80, height: 80), score: 0.9,
        keypoints: FaceKeypoints(rightEye: Point(x: 720, y: 320), leftEye: Point(x: 760, y: 320),
                                 noseTip: Point(x: 740, y: 340), mouthCenter: Point(x: 740, y: 360),
                                 rightEarTragion: Point(x: 702, y: 330), leftEarTragion: Point(x: 778, y: 330)))

    @Test func rectBasics() {
        let r = Rect(x: 10, y: 20, width: 30, height: 40)
        #expect(r.minX == 10 && r.minY == 20 && r.maxX == 40 && r.maxY == 60)
        #expect(r.center == Point(x: 25, y: 40))
        #expect(r.area == 1200)
        #expect(Rect(x: 0, y: 0, width: -5, height: 3).area == 0)
        #expect(r.description == "(x: 10.0, y: 20.0, width: 30.0, height: 40.0)")
    }

    @Test func iou() {
        let a = Rect(x: 0, y: 0, width: 10, height: 10)
        #expect(a.iou(a) == 1)
        // Overlap 5 x 10 = 50; union 100 + 100 - 50 = 150.
        #expect(Self.close(a.iou(Rect(x: 5, y: 0, width: 10, height: 10)), 1.0 / 3))
        // Overlap 5 x 5 = 25; union 175.
        #expect(Self.close(a.iou(Rect(x: 5, y: 5, width: 10, height: 10)), 25.0 / 175))
        // Contained: 4 / 100.
        #expect(Self.close(a.iou(Rect(x: 3, y: 3, width: 2, height: 2)), 0.04))
        // Touching edges and disjoint rectangles do not overlap; nor does an empty one.
        #expect(a.iou(Rect(x: 10, y: 0, width: 10, height: 10)) == 0)
        #expect(a.iou(Rect(x: 50, y: 50, width: 1, height: 1)) == 0)
        #expect(a.iou(Rect(x: 2, y: 2, width: 0, height: 0)) == 0)
        #expect(Rect(x: 0, y: 0, width: 0, height: 0).iou(Rect(x: 0, y: 0, width: 0, height: 0)) == 0)
        // Symmetric.
        let b = Rect(x: 2.5, y: -1, width: 7, height: 4)
        #expect(a.iou(b) == b.iou(a))
    }

    @Test func padded() {
        let r = Rect(x: 100, y: 200, width: 50, height: 80)
        // Top 0.25 x 80 = 20, left 0.1 x 50 = 5, bottom 0.5 x 80 = 40, right 0.2 x 50 = 10.
        #expect(Self.close(r.padded(top: 0.25, left: 0.1, bottom: 0.5, right: 0.2), Rect(x: 95, y: 180, width: 65, height: 140)))
        #expect(Self.close(r.padded(by: 0.5), Rect(x: 75, y: 160, width: 100, height: 160)))
        #expect(r.padded(by: 0) == r)
        // Negative fractions shrink.
        #expect(Self.close(r.padded(by: -0.1), Rect(x: 105, y: 208, width: 40, height: 64)))
    }

    @Test func clamped() {
        #expect(Rect(x: -10, y: -20, width: 50, height: 60).clamped(width: 100, height: 100)
                == Rect(x: 0, y: 0, width: 40, height: 40))
        #expect(Rect(x: 80, y: 90, width: 50, height: 50).clamped(width: 100, height: 120)
                == Rect(x: 80, y: 90, width: 20, height: 30))
        #expect(Rect(x: 10, y: 10, width: 5, height: 5).clamped(width: 100, height: 100)
                == Rect(x: 10, y: 10, width: 5, height: 5))
        // Entirely outside: empty.
        let outside = Rect(x: 200, y: -50, width: 10, height: 10).clamped(width: 100, height: 100)
        #expect(outside.width == 0 && outside.height == 0)
        #expect(outside.x >= 0 && outside.x <= 100 && outside.y >= 0 && outside.y <= 100)
    }

    @Test func paddedBox() {
        // (700, 300, 80, 80) grown by 0.5 on top (40), 0.25 left and right (20), 0 bottom: (680, 260, 120, 120).
        #expect(Self.face.paddedBox(top: 0.5, left: 0.25, bottom: 0, right: 0.25, clampedToWidth: 1280, height: 720)
                == Rect(x: 680, y: 260, width: 120, height: 120))
        // Clamped to a 760x720 picture: right edge at 760.
        #expect(Self.face.paddedBox(top: 0.5, left: 0.25, bottom: 0, right: 0.25, clampedToWidth: 760, height: 720)
                == Rect(x: 680, y: 260, width: 80, height: 120))
    }

    @Test func roll() {
        #expect(Self.face.roll == 0)
        func face(rightEye: Point, leftEye: Point) -> Face {
            var f = Self.face
            f.keypoints.rightEye = rightEye
            f.keypoints.leftEye = leftEye
            return f
        }
        // Left eye (viewer's right) lower: the head is tilted clockwise on screen.
        let clockwise = face(rightEye: Point(x: 100, y: 100), leftEye: Point(x: 200, y: 200))
        #expect(Self.close(clockwise.roll, Double.pi / 4))
        #expect(Self.close(clockwise.rollDegrees, 45))
        let counterClockwise = face(rightEye: Point(x: 100, y: 100), leftEye: Point(x: 200, y: 100 - 100 * 3.0.squareRoot()))
        #expect(Self.close(counterClockwise.rollDegrees, -60))
        #expect(Self.close(face(rightEye: Point(x: 100, y: 100), leftEye: Point(x: 100, y: 200)).rollDegrees, 90))
        #expect(Self.close(face(rightEye: Point(x: 100, y: 100), leftEye: Point(x: 0, y: 100)).rollDegrees, 180))
    }

    @Test func keypointAccess() {
        var k = Self.face.keypoints
        #expect(k.all.map(\.kind) == FaceKeypoints.Kind.allCases)
        #expect(k.all.map(\.point) == [k.rightEye, k.leftEye, k.noseTip, k.mouthCenter, k.rightEarTragion, k.leftEarTragion])
        k[.noseTip] = Point(x: 1, y: 2)
        #expect(k.noseTip == Point(x: 1, y: 2))
        #expect(FaceKeypoints.Kind.allCases.map(\.rawValue)
                == ["rightEye", "leftEye", "noseTip", "mouthCenter", "rightEarTragion", "leftEarTragion"])
    }

    // A 1280x720 picture in a 390x844 view (an iPhone in portrait).
    //
    // aspectFill: scale = max(390/1280, 844/720) = 211/180; the picture is 1500.44 wide, offset x =
    // (390 - 1500.44)/2 = -555.22. The box (700, 300, 80, 80) becomes (796/3, 1055/3, 844/9, 844/9)
    // = (265.33, 351.67, 93.78, 93.78); the right eye (720, 320) becomes (288.78, 375.11), the left eye
    // (760, 320) (335.67, 375.11). Mirrored: x' = 390 - x: box x 390 - 359.11 = 30.89, right eye 101.22,
    // left eye 54.33.
    //
    // aspectFit: scale = 390/1280 = 0.3046875; the picture is 219.375 high, offset y = 312.3125. The box
    // becomes (213.28125, 403.71875, 24.375, 24.375); the eyes (219.375, 409.8125) and (231.5625, 409.8125).
    // Mirrored: box x 390 - 237.65625 = 152.34375, eyes 170.625 and 158.4375.
    @Test func viewMapping() {
        let fill = Self.face.mapped(toViewWidth: 390, height: 844, imageWidth: 1280, imageHeight: 720, contentMode: .aspectFill)
        #expect(Self.close(fill.boundingBox, Rect(x: 796.0 / 3, y: 1055.0 / 3, width: 844.0 / 9, height: 844.0 / 9), 1e-9))
        #expect(Self.close(fill.keypoints.rightEye, Point(x: 288.0 + 7.0 / 9, y: 375.0 + 1.0 / 9)))
        #expect(Self.close(fill.keypoints.leftEye, Point(x: 335.0 + 2.0 / 3, y: 375.0 + 1.0 / 9)))
        #expect(fill.score == Self.face.score)

        let fillMirrored = Self.face.mapped(toViewWidth: 390, height: 844, imageWidth: 1280, imageHeight: 720,
                                            contentMode: .aspectFill, mirrored: true)
        #expect(Self.close(fillMirrored.boundingBox, Rect(x: 278.0 / 9, y: 1055.0 / 3, width: 844.0 / 9, height: 844.0 / 9)))
        #expect(Self.close(fillMirrored.keypoints.rightEye, Point(x: 101.0 + 2.0 / 9, y: 375.0 + 1.0 / 9)))
        #expect(Self.close(fillMirrored.keypoints.leftEye, Point(x: 54.0 + 1.0 / 3, y: 375.0 + 1.0 / 9)))
        // Names are kept: the subject's right eye is now on the viewer's right.
        #expect(fillMirrored.keypoints.rightEye.x > fillMirrored.keypoints.leftEye.x)

        let fit = Self.face.mapped(toViewWidth: 390, height: 844, imageWidth: 1280, imageHeight: 720, contentMode: .aspectFit)
        #expect(Self.close(fit.boundingBox, Rect(x: 213.28125, y: 403.71875, width: 24.375, height: 24.375)))
        #expect(Self.close(fit.keypoints.rightEye, Point(x: 219.375, y: 409.8125)))
        #expect(Self.close(fit.keypoints.leftEye, Point(x: 231.5625, y: 409.8125)))

        let fitMirrored = Self.face.mapped(toViewWidth: 390, height: 844, imageWidth: 1280, imageHeight: 720,
                                           contentMode: .aspectFit, mirrored: true)
        #expect(Self.close(fitMirrored.boundingBox, Rect(x: 152.34375, y: 403.71875, width: 24.375, height: 24.375)))
        #expect(Self.close(fitMirrored.keypoints.rightEye, Point(x: 170.625, y: 409.8125)))
        #expect(Self.close(fitMirrored.keypoints.leftEye, Point(x: 158.4375, y: 409.8125)))

        // Same aspect ratio: a plain scale. A degenerate image leaves the face alone.
        let half = Self.face.mapped(toViewWidth: 640, height: 360, imageWidth: 1280, imageHeight: 720, contentMode: .aspectFit)
        #expect(half.boundingBox == Rect(x: 350, y: 150, width: 40, height: 40))
        #expect(Self.face.mapped(toViewWidth: 390, height: 844, imageWidth: 0, imageHeight: 720, contentMode: .aspectFill)
                == Self.face)
    }

    @Test func mappedWithTransform() {
        // A half turn keeps the box's size and puts its corners back in order.
        let turned = Self.face.mapped { Point(x: 1280 - $0.x, y: 720 - $0.y) }
        #expect(turned.boundingBox == Rect(x: 500, y: 340, width: 80, height: 80))
        #expect(turned.keypoints.noseTip == Point(x: 540, y: 380))
        #expect(turned.score == Self.face.score)
    }
}
