import BlazeFace
import BlazeImageIO
import BlazeTestSupport
import Foundation
import Testing

/// `FaceDetector.Options.tryRotations`: sideways and upside-down pictures without an orientation tag.
@Suite("Rotations")
struct RotationTests {
    static func turned(_ image: ImageBuffer, quarterTurns: Int) throws -> ImageBuffer {
        try QuarterTurns.turned(image, quarterTurns: quarterTurns)
    }

    static func point(_ p: Point, turned quarterTurns: Int, width: Double, height: Double) -> Point {
        let q = QuarterTurns.point(x: p.x, y: p.y, turned: quarterTurns, width: width, height: height)
        return Point(x: q.x, y: q.y)
    }

    static func distance(_ a: Point, _ b: Point) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }

    static func detector(tryRotations: Bool) throws -> FaceDetector {
        try Detectors.shared(.fullRange, options: FaceDetector.Options(tryRotations: tryRotations))
    }

    @Test("off by default")
    func offByDefault() {
        #expect(FaceDetector.Options().tryRotations == false)
        #expect(Face(boundingBox: Rect(x: 0, y: 0, width: 1, height: 1), score: 1,
                     keypoints: FaceKeypoints(rightEye: .init(x: 0, y: 0), leftEye: .init(x: 0, y: 0),
                                              noseTip: .init(x: 0, y: 0), mouthCenter: .init(x: 0, y: 0),
                                              rightEarTragion: .init(x: 0, y: 0), leftEarTragion: .init(x: 0, y: 0)))
                .uprightRotation == 0)
    }

    @Test("a sideways group photo without the option finds fewer faces", arguments: [1, 3])
    func plainMissesSideways(quarterTurns: Int) throws {
        let upright = try Samples.decode("multi_face.jpg").uprightRGB()
        let plain = try Self.turned(upright, quarterTurns: quarterTurns).withView { try Self.detector(tryRotations: false).detect($0) }
        #expect(plain.count < 5, "\(plain.count) faces")
        #expect(plain.allSatisfy { $0.uprightRotation == 0 })
    }

    /// The test: the group photo turned by each quarter turn, with `tryRotations`, finds every face the
    /// upright photo gives, each once, with its eyes where the upright photo's eyes go, and the turn that makes
    /// it upright.
    @Test("the group photo turned by each quarter turn: every face, eyes in place", arguments: 0..<4)
    func groupPhoto(quarterTurns: Int) throws {
        let upright = try Samples.decode("multi_face.jpg").uprightRGB()
        let reference = try upright.withView { try Self.detector(tryRotations: false).detect($0) }
        #expect(reference.count == 5)
        let picture = try Self.turned(upright, quarterTurns: quarterTurns)
        let faces = try picture.withView { try Self.detector(tryRotations: true).detect($0) }
        #expect(faces.count == reference.count, "\(faces.count) faces: \(faces.map { ($0.score, $0.uprightRotation) })")
        // Turning the picture `quarterTurns` clockwise, the faces are upright after the rest of a full turn.
        let expectedRotation = (360 - 90 * quarterTurns) % 360
        let w = Double(upright.uprightWidth), h = Double(upright.uprightHeight)
        var matched = Set<Int>()
        for face in reference {
            let right = Self.point(face.keypoints.rightEye, turned: quarterTurns, width: w, height: h)
            let left = Self.point(face.keypoints.leftEye, turned: quarterTurns, width: w, height: h)
            let interocular = Self.distance(face.keypoints.rightEye, face.keypoints.leftEye)
            let index = try #require(faces.indices.min { Self.distance(faces[$0].keypoints.rightEye, right)
                                                         < Self.distance(faces[$1].keypoints.rightEye, right) })
            matched.insert(index)
            let found = faces[index]
            #expect(found.uprightRotation == expectedRotation)
            #expect(Self.distance(found.keypoints.rightEye, right) < 0.2 * interocular,
                    "right eye \(found.keypoints.rightEye) against \(right)")
            #expect(Self.distance(found.keypoints.leftEye, left) < 0.2 * interocular,
                    "left eye \(found.keypoints.leftEye) against \(left)")
            // The box is the reference's box turned: same size, same centre.
            let centre = Self.point(face.boundingBox.center, turned: quarterTurns, width: w, height: h)
            #expect(Self.distance(found.boundingBox.center, centre) < 0.2 * interocular)
            #expect(abs(found.boundingBox.width * found.boundingBox.height - face.boundingBox.width * face.boundingBox.height)
                    < 0.2 * face.boundingBox.width * face.boundingBox.height)
        }
        #expect(matched.count == reference.count, "each face matched once")
        // Highest score first.
        #expect(faces.map(\.score) == faces.map(\.score).sorted(by: >))
    }

    /// The sign of `uprightRotation`: a face whose head points to the picture's left edge (the picture turned
    /// 270° clockwise, i.e. 90° counter-clockwise) must be turned 90° clockwise to stand upright; its right eye
    /// (the viewer's left when upright) is then below its left eye.
    @Test("sign convention: head toward the left edge reports 90")
    func signConvention() throws {
        let astronaut = try Samples.decode("astronaut.png").uprightRGB()
        let headLeft = try Self.turned(astronaut, quarterTurns: 3)
        let face = try #require(try headLeft.withView { try Self.detector(tryRotations: true).detect($0) }.first)
        #expect(face.uprightRotation == 90)
        #expect(face.keypoints.rightEye.y > face.keypoints.leftEye.y)
        #expect(face.keypoints.mouthCenter.x > face.keypoints.noseTip.x - 1, "the chin is toward the right edge")
        // Turning the picture back by `uprightRotation` makes the face upright: plain detection finds it there.
        let back = try Self.turned(headLeft, quarterTurns: face.uprightRotation / 90)
        let plain = try back.withView { try Self.detector(tryRotations: false).detect($0) }
        #expect(plain.count == 1)
        let headDown = try Self.turned(astronaut, quarterTurns: 2)
        #expect(try headDown.withView { try Self.detector(tryRotations: true).detect($0) }.map(\.uprightRotation) == [180])
        let headRight = try Self.turned(astronaut, quarterTurns: 1)
        #expect(try headRight.withView { try Self.detector(tryRotations: true).detect($0) }.map(\.uprightRotation) == [270])
    }

    @Test("maximumFaces holds across the turns")
    func maximumFaces() throws {
        let upright = try Samples.decode("multi_face.jpg").uprightRGB()
        let picture = try Self.turned(upright, quarterTurns: 1)
        let detector = try Detectors.shared(.fullRange, options: FaceDetector.Options(maximumFaces: 2, tryRotations: true))
        let all = try picture.withView { try Self.detector(tryRotations: true).detect($0) }
        let two = try picture.withView { try detector.detect($0) }
        #expect(two.count == 2)
        #expect(two == Array(all.prefix(2)))
    }

    @Test("a view turned without copying shows the turned picture")
    func turnedView() throws {
        let upright = try Samples.decode("astronaut.png").uprightRGB()
        for turns in 0..<4 {
            let viaView = try upright.withView { $0.turned(quarterTurns: turns).uprightRGB() }
            #expect(viaView.pixels == (try Self.turned(upright, quarterTurns: turns)).pixels)
        }
    }
}
