import BlazeFaceAnalysis
import BlazeFaceMesh
import BlazeTestSupport
import Foundation
import Testing

/// The labelled faces of Tests/Goldens/labels/expressions.json (labels made by looking at the pictures).
struct ExpressionLabel: Decodable, Sendable, CustomTestStringConvertible {
    enum Eye: String, Decodable, Sendable { case open, closed, unsure }
    var picture: String
    var centre: [Double]
    var leftEye: Eye
    var rightEye: Eye
    var smiling: Bool?
    var note: String
    var testDescription: String { "\(picture) at (\(Int(centre[0])), \(Int(centre[1]))): \(note)" }

    static let all: [ExpressionLabel] = {
        struct File: Decodable { var faces: [ExpressionLabel] }
        let url = TestResources.goldensDirectory.appendingPathComponent("labels/expressions.json")
        guard let data = try? Data(contentsOf: url), let file = try? JSONDecoder().decode(File.self, from: data) else {
            return []
        }
        return file.faces
    }()
}

/// Runs the face mesh (attention model, full-range detector) on sample pictures, once per picture.
enum ExpressionSamples {
    private static let meshes = Cache<String, [FaceLandmarks]>()

    static func landmarker() throws -> FaceLandmarker {
        try FaceLandmarker(modelsDirectory: TestResources.modelsDirectory.path)
    }

    static func faces(_ picture: String) throws -> [FaceLandmarks] {
        try meshes.value(picture) {
            let rgb = try Samples.rgb(picture)
            let image = ImageBuffer(width: rgb.width, height: rgb.height, pixelFormat: .rgb8, pixels: rgb.pixels)
            return try image.withView { try landmarker().detect($0) }
        }
    }

    /// The face whose detection box's centre is nearest `centre`, within a third of its width.
    static func face(near centre: [Double], in faces: [FaceLandmarks]) -> FaceLandmarks? {
        func distance(_ face: FaceLandmarks) -> Double {
            let box = face.detection?.boundingBox ?? face.boundingBox
            return hypot(box.x + box.width / 2 - centre[0], box.y + box.height / 2 - centre[1])
        }
        guard let best = faces.min(by: { distance($0) < distance($1) }) else { return nil }
        let box = best.detection?.boundingBox ?? best.boundingBox
        return distance(best) < box.width / 3 ? best : nil
    }

    /// The mean expression of the one face of `picture` tracked on it: from `start` (or the detector), three
    /// tracking steps to settle, then the mean of five (as `PoseSamples.trackedPose` does for the pose).
    static func tracked(_ picture: RGBImage, from start: RotatedRect? = nil, camera: CameraIntrinsics,
                        _ landmarker: FaceLandmarker) throws -> FaceExpression? {
        guard let meshes = try PoseSamples.settledMeshes(picture, from: start, landmarker) else { return nil }
        var sum = SIMD3<Float>.zero
        for mesh in meshes {
            let e = try mesh.expression(camera: camera)
            sum += SIMD3(e.leftEyeOpen, e.rightEyeOpen, e.smiling)
        }
        let n = Float(meshes.count)
        return FaceExpression(leftEyeOpen: sum.x / n, rightEyeOpen: sum.y / n, smiling: sum.z / n)
    }
}

@Suite("Expression: labelled pictures")
struct ExpressionPictureTests {
    @Test("the labels are there: 24 faces in 15 pictures")
    func labels() {
        #expect(ExpressionLabel.all.count == 24)
        #expect(Set(ExpressionLabel.all.map(\.picture)).count == 15)
    }

    @Test("open eyes > 0.8, closed eyes < 0.5, smiling and not smiling on the right side of 0.5",
          arguments: ExpressionLabel.all)
    func labelled(_ label: ExpressionLabel) throws {
        let face = try #require(ExpressionSamples.face(near: label.centre, in: try ExpressionSamples.faces(label.picture)))
        let picture = try Samples.rgb(label.picture)
        let e = try face.expression(imageWidth: picture.width, imageHeight: picture.height)
        let seen = String(format: "left %.3f right %.3f smiling %.3f", e.leftEyeOpen, e.rightEyeOpen, e.smiling)
        for (eye, p) in [(label.leftEye, e.leftEyeOpen), (label.rightEye, e.rightEyeOpen)] {
            switch eye {
            case .open: #expect(p > 0.8, "\(seen)")
            case .closed: #expect(p < 0.5, "\(seen)")
            case .unsure: break
            }
        }
        if let smiling = label.smiling { #expect((e.smiling > 0.5) == smiling, "\(seen)") }
    }

    /// Faces 300 px and more across, and the astronaut. The small, turned faces of t1.jpg (about 100 px) are
    /// left out: there the mesh model itself is not mirror-symmetric (a wink's aspect ratio 0.08 reads 0.17
    /// mirrored; Documentation/Attributes.md has the figures).
    @Test("mirrored pictures: the eyes' values swap, the smile stays (within 0.15; the aspect ratios within 0.04)",
          arguments: ["astronaut.png", "0-f15-hao-ph.jpg", "obama.jpg", "single_face.jpg", "0-f1-su-ph.jpg",
                      "15-f13-anc-ph.jpg", "biden.jpg"])
    func mirrored(_ picture: String) throws {
        let original = try ExpressionSamples.faces(picture)
        let rgb = try Samples.rgb(picture).mirrored()
        let image = ImageBuffer(width: rgb.width, height: rgb.height, pixelFormat: .rgb8, pixels: rgb.pixels)
        let mirrored = try image.withView { try ExpressionSamples.landmarker().detect($0) }
        #expect(mirrored.count == original.count)
        for face in original {
            let box = try #require(face.detection).boundingBox
            let twin = try #require(ExpressionSamples.face(near: [Double(rgb.width) - box.x - box.width / 2,
                                                                  box.y + box.height / 2], in: mirrored))
            let a = try face.expression(imageWidth: rgb.width, imageHeight: rgb.height)
            let b = try twin.expression(imageWidth: rgb.width, imageHeight: rgb.height)
            let how = "\(picture) at x \(Int(box.x)): \(a) mirrored \(b)"
            #expect(abs(a.leftEyeOpen - b.rightEyeOpen) < 0.15 && abs(a.rightEyeOpen - b.leftEyeOpen) < 0.15, "\(how)")
            #expect(abs(a.measurements.leftEyeAspectRatio - b.measurements.rightEyeAspectRatio) < 0.04, "\(how)")
            #expect(abs(a.measurements.rightEyeAspectRatio - b.measurements.leftEyeAspectRatio) < 0.04, "\(how)")
            #expect(abs(a.smiling - b.smiling) < 0.15, "\(how)")
        }
    }

    @Test("turned pictures (tracked): the values stay within 0.05", arguments: PicturePoseTests.turns)
    func turned(_ turn: PicturePoseTests.Turn) throws {
        let landmarker = try PoseSamples.tracker()
        let (reference, _) = try #require(try PoseSamples.reference(landmarker))
        let upright = try #require(try ExpressionSamples.tracked(try Samples.astronaut(), camera: .mediaPipe(imageWidth: 512,
                                                                 imageHeight: 512), landmarker))
        let picture = turn.build(try Samples.astronaut())
        var camera = CameraIntrinsics.mediaPipe(imageWidth: 512, imageHeight: 512)
        (camera.cx, camera.cy) = (Double(picture.width) / 2, Double(picture.height) / 2)
        let phi = turn.clockwise * .pi / 180
        let dx = reference.center.x - 256, dy = reference.center.y - 256
        let cx = Double(picture.width) / 2, cy = Double(picture.height) / 2
        var region = reference
        region.center = Point(x: cx + dx * cos(phi) - dy * sin(phi), y: cy + dx * sin(phi) + dy * cos(phi))
        region.rotation += phi
        let e = try #require(try ExpressionSamples.tracked(picture, from: region, camera: camera, landmarker))
        #expect(abs(e.leftEyeOpen - upright.leftEyeOpen) < 0.05 && abs(e.rightEyeOpen - upright.rightEyeOpen) < 0.05
                && abs(e.smiling - upright.smiling) < 0.05, "\(turn.name): \(e) vs \(upright)")
    }

    @Test("darkened and downscaled: the astronaut still smiles with open eyes")
    func darkenedAndSmaller() throws {
        var rgb = try Samples.astronaut()
        for i in rgb.pixels.indices { rgb.pixels[i] /= 3 }
        for picture in [rgb, try Samples.astronaut().downscaled2()] {
            let image = ImageBuffer(width: picture.width, height: picture.height, pixelFormat: .rgb8, pixels: picture.pixels)
            let faces = try image.withView { try ExpressionSamples.landmarker().detect($0) }
            let e = try #require(faces.first).expression(imageWidth: picture.width, imageHeight: picture.height)
            #expect(e.leftEyeOpen > 0.8 && e.rightEyeOpen > 0.8 && e.smiling > 0.5, "\(e)")
        }
    }
}
