import BlazeFace
import BlazeModels
import BlazeTestSupport
import Foundation
import Testing

/// MediaPipe's face mesh with attention (its custom operators, MUL and STRIDED_SLICE) on a real face: the
/// astronaut's face region, found by the short-range detector and cut as MediaPipe's face-mesh graph does
/// (box centre, rotation from the eyes, 1.5x, square), warped to 192x192 in [0, 1] with a replicated border.
/// Whole-pipeline parity with MediaPipe is issue 13's FaceLandmarker; here the model must run and give a
/// plausible, deterministic result.
@Suite("Face mesh with attention on a face")
struct AttentionMeshModelTests {
    static let conversion = ModelSession.Conversion(range: 0...1, fit: .stretch, border: .replicate)

    /// The astronaut's face region, as MediaPipe's detection-to-ROI computes it.
    static func faceRegion() throws -> (image: RGBImage, region: RotatedRect) {
        let image = try Samples.astronaut()
        let faces = try image.detect(with: try Detectors.shared(.shortRange))
        let face = try #require(faces.first)
        let box = face.boundingBox
        let (right, left) = (face.keypoints.rightEye, face.keypoints.leftEye)
        let side = max(box.width, box.height) * 1.5
        let region = RotatedRect(center: Point(x: box.x + box.width / 2, y: box.y + box.height / 2), width: side,
                                 height: side, rotation: atan2(left.y - right.y, left.x - right.x))
        return (image, region)
    }

    static func run(threads: Int) throws -> [[Float]] {
        let (image, region) = try faceRegion()
        let session = try ModelSession(modelPath: try TestResources.modelPath(.faceMeshAttention), conversion: conversion,
                                       threadCount: threads)
        return try image.rgb8.withView { view in
            try session.run(view, region: region) { outputs, _ in session.outputs.map { Array(outputs[$0]) } }
        }
    }

    @Test("it runs on the astronaut's face: catalog shapes, finite values, face flag > 0, points inside the crop, same bits at 1 and 2 threads")
    func runsOnAFace() throws {
        let session = try ModelSession(modelPath: try TestResources.modelPath(.faceMeshAttention), conversion: Self.conversion)
        let entry = ModelCatalog.entry(.faceMeshAttention)
        #expect(session.outputs.map(\.name) == entry.outputs.map(\.name))
        #expect(session.outputs.map(\.shape) == entry.outputs.map(\.shape))
        let one = try Self.run(threads: 1)
        #expect(one.map(\.count) == [1404, 160, 142, 142, 10, 10, 1])
        #expect(one.allSatisfy { $0.allSatisfy(\.isFinite) })
        let faceFlag = one[6][0]
        #expect(faceFlag > 0, "face flag logit \(faceFlag)")
        // Mesh x, y (of x, y, z) and the refined 2-D points, in the 192-pixel crop.
        let mesh = stride(from: 0, to: 1404, by: 3).flatMap { [one[0][$0], one[0][$0 + 1]] }
        for (name, points) in [("mesh", mesh), ("lips", one[1]), ("left eye", one[2]), ("right eye", one[3]),
                               ("left iris", one[4]), ("right iris", one[5])] {
            #expect(points.allSatisfy { (0...192).contains($0) }, "\(name): \(points.min()!) ... \(points.max()!)")
        }
        // The refined points agree with the mesh they refine: the iris centres lie near the mesh's eye centres
        // (mesh points 33/133 and 362/263 are the eyes' corners), within 10 crop pixels.
        func meshPoint(_ i: Int) -> (Float, Float) { (one[0][3 * i], one[0][3 * i + 1]) }
        for (iris, corners) in [(one[4], (33, 133)), (one[5], (362, 263))] {
            let (a, b) = (meshPoint(corners.0), meshPoint(corners.1))
            let centre = ((a.0 + b.0) / 2, (a.1 + b.1) / 2)
            #expect(hypot(iris[0] - centre.0, iris[1] - centre.1) < 10, "iris \(iris[0]), \(iris[1]) vs \(centre)")
        }
        let two = try Self.run(threads: 2)
        #expect(two.map { $0.map(\.bitPattern) } == one.map { $0.map(\.bitPattern) })
    }
}
