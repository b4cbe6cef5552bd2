import BlazeFaceMesh
import BlazeTestSupport
import Foundation
import Testing

@Suite("FaceLandmarker pipeline")
struct FaceLandmarkerTests {
    @Test("each model gives its point count, finite points inside the face region, and a high presence",
          arguments: FaceLandmarker.Model.allCases)
    func models(_ model: FaceLandmarker.Model) throws {
        let landmarker = try MeshSamples.landmarker(model)
        let faces = try MeshSamples.astronaut().withView { try landmarker.detect($0) }
        try #require(faces.count == 1)
        let face = faces[0]
        #expect(face.points.count == model.pointCount)
        #expect(face.points.allSatisfy { $0.isFinite })
        #expect(face.presence > 0.99)
        // The astronaut's face lies around (225, 130), about 100 px wide, and every point is inside the region.
        let box = face.boundingBox
        #expect(abs(box.center.x - 225) < 20 && abs(box.center.y - 135) < 25, "\(box)")
        #expect((80...160).contains(box.width), "\(box)")
        #expect(face.region.boundingBox.padded(by: 0.01).contains(box), "\(face.region) vs \(box)")
        #expect(face.detection != nil)
        #expect((40...90).contains(face.interocularDistance))
    }

    @Test("the legacy iris pipeline's irises and eye contours agree with the attention model's")
    func irisPipelineAgrees() throws {
        let image = try MeshSamples.astronaut()
        let attention = try image.withView { try MeshSamples.landmarker(.attention).detect($0) }
        let withIris = try image.withView { try MeshSamples.landmarker(.meshWithIris).detect($0) }
        try #require(attention.count == 1 && withIris.count == 1)
        let a = attention[0], b = withIris[0]
        let scale = a.interocularDistance
        // Iris centres (468, 473) within 2% of the inter-ocular distance (about 1 px here), every iris point
        // within 5%, and the iris ring's size the same within 20%.
        for centre in [468, 473] {
            let d = hypot(Double(a.points[centre].x - b.points[centre].x), Double(a.points[centre].y - b.points[centre].y))
            #expect(d / scale < 0.02, "iris \(centre): \(a.points[centre]) vs \(b.points[centre])")
        }
        #expect(MeshSamples.nme(Array(b.points[468..<478]), Array(a.points[468..<478]), scale: scale) < 0.05)
        func ring(_ face: FaceLandmarks, _ first: Int) -> Double {
            hypot(Double(face.points[first + 1].x - face.points[first + 3].x),
                  Double(face.points[first + 1].y - face.points[first + 3].y))
        }
        for first in [468, 473] { #expect(abs(ring(a, first) / ring(b, first) - 1) < 0.2) }
        // The whole mesh, eye contours refined by the iris model, stays within 3% of the attention mesh.
        #expect(MeshSamples.nme(Array(b.points[0..<468]), Array(a.points[0..<468])) < 0.03)
    }

    @Test("video mode: tracking the same frame keeps the face, near the static result, without the detector")
    func tracking() throws {
        let landmarker = try MeshSamples.landmarker(options: .init(maximumFaces: 1))
        let image = try MeshSamples.astronaut()
        var faces = try image.withView { try landmarker.detect($0) }
        let first = faces
        for _ in 0..<3 {
            try image.withView { try landmarker.detect($0, tracking: &faces) }
            try #require(faces.count == 1)
            #expect(faces[0].detection == nil, "one face tracked with maximumFaces 1: the detector must not run")
            #expect(MeshSamples.nme(faces[0].points, first[0].points) < 0.02)
        }
        // On a blank frame the tracked face's presence drops and it is lost; the detector finds nothing.
        let blank = ImageBuffer(width: 512, height: 512)
        try blank.withView { try landmarker.detect($0, tracking: &faces) }
        #expect(faces.isEmpty)
    }

    @Test("an oriented view gives the same points as the picture turned by hand",
          arguments: [ImageOrientation.right, .upMirrored, .leftMirrored])
    func orientation(_ orientation: ImageOrientation) throws {
        let stored = try MeshSamples.astronaut()
        let oriented = ImageBuffer(width: stored.width, height: stored.height, pixelFormat: stored.pixelFormat,
                                   pixels: stored.pixels, orientation: orientation)
        let turned = try oriented.uprightRGB()
        let landmarker = try MeshSamples.landmarker()
        let a = try oriented.withView { try landmarker.detect($0) }
        let b = try turned.withView { try landmarker.detect($0) }
        try #require(a.count == 1 && b.count == 1)
        #expect(a[0].points == b[0].points)
        #expect(a[0].region == b[0].region)
    }

    @Test("regions: MediaPipe's recipe from a detection — centred on the box, square, 1.5 times its long side, level eyes")
    func regionFromDetection() throws {
        let eyesTilted = Face(boundingBox: Rect(x: 100, y: 50, width: 80, height: 100), score: 0.9,
                              keypoints: FaceKeypoints(rightEye: Point(x: 120, y: 80), leftEye: Point(x: 160, y: 120),
                                                       noseTip: Point(x: 140, y: 100), mouthCenter: Point(x: 140, y: 130),
                                                       rightEarTragion: Point(x: 100, y: 90),
                                                       leftEarTragion: Point(x: 180, y: 90)))
        let region = FaceLandmarker.region(for: eyesTilted, imageWidth: 640, imageHeight: 480)
        #expect(abs(region.center.x - 140) < 1e-4 && abs(region.center.y - 100) < 1e-4)
        #expect(abs(region.width - 150) < 1e-3 && abs(region.height - 150) < 1e-3)
        #expect(abs(region.rotation - Double.pi / 4) < 1e-6, "eyes at 45° down to the right: turned clockwise by π/4")
    }

    @Test("regions from landmarks need the eye corners; association keeps the later of two overlapping regions")
    func regionFromLandmarks() throws {
        #expect(FaceLandmarker.region(for: [Landmark](repeating: Landmark(x: 1, y: 1, z: 0), count: 100),
                                      imageWidth: 10, imageHeight: 10) == nil)
        let landmarker = try MeshSamples.landmarker()
        let faces = try MeshSamples.astronaut().withView { try landmarker.detect($0) }
        let next = try #require(FaceLandmarker.region(for: faces[0].points, imageWidth: 512, imageHeight: 512))
        // The next region is square, holds every point, and is level along the eye corners.
        #expect(abs(next.width - next.height) < 1e-3)
        #expect(next.boundingBox.contains(faces[0].boundingBox))
        let p33 = faces[0].points[33], p263 = faces[0].points[263]
        #expect(abs(next.rotation - atan2(Double(p263.y - p33.y), Double(p263.x - p33.x))) < 1e-5)
    }
}

extension Rect {
    func contains(_ other: Rect) -> Bool {
        other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
    }
}
