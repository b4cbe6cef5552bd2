@testable import BlazeFaceMesh
import BlazeModels
import BlazeTFLite
import BlazeTestSupport
import Foundation
import Testing

@Suite("FaceLandmarker bad input")
struct FaceLandmarkerErrorTests {
    @Test("options out of range are typed errors", arguments: [
        FaceLandmarker.Options(maximumFaces: 0), .init(minimumDetectionScore: 1.5), .init(minimumPresence: -0.1),
        .init(minimumPresence: .nan), .init(threadCount: 0),
    ])
    func invalidOptions(_ options: FaceLandmarker.Options) {
        #expect {
            _ = try MeshSamples.landmarker(options: options)
        } throws: { error in
            switch error as? FaceLandmarkerError {
            case .pipeline(.invalidOptions)?, .detectionFailed(.pipeline(.invalidOptions))?: return true
            default: return false
            }
        }
    }

    @Test("a folder without the models says which file and where it looked")
    func modelNotFound() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-models-\(getpid())")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(throws: FaceLandmarkerError.modelNotFound(file: "face_landmark_with_attention.tflite",
                                                           searched: [empty.path])) {
            _ = try FaceLandmarker(modelsDirectory: empty.path)
        }
    }

    @Test("a model with the wrong input or outputs is refused at creation, naming what it expected")
    func incompatibleModels() throws {
        let detector = try FaceDetector(model: .shortRange, modelsDirectory: MeshSamples.modelsDirectory)
        let cases: [(FaceLandmarker.Model, ModelName, String)] = [
            (.mesh, .shortRange, "1x192x192x3 input"),         // a detector: 128x128 input
            (.attention, .faceMeshMediaPipe, "7 outputs"),    // the plain mesh has 2 outputs
            (.mesh, .faceMeshAttention, "2 outputs"),
        ]
        for (model, file, expected) in cases {
            let path = try TestResources.modelPath(file)
            do {
                _ = try FaceLandmarker(model: model, meshModelPath: path, detector: detector)
                Issue.record("\(file) accepted as the \(model) mesh")
            } catch {
                if case let .pipeline(.incompatibleModel(_, reason)) = error {
                    #expect(reason.contains(expected), "\(reason)")
                } else {
                    Issue.record("\(file) as the \(model) mesh: \(error)")
                }
            }
        }
        // The iris model checked the same way: a face mesh in its place.
        #expect(throws: FaceLandmarkerError.self) {
            _ = try FaceLandmarker(model: .meshWithIris, meshModelPath: try TestResources.modelPath(.faceMeshMediaPipe),
                                   irisModelPath: try TestResources.modelPath(.faceMeshMediaPipe), detector: detector)
        }
        #expect(throws: FaceLandmarkerError.invalidOptions("the mesh-iris model needs irisModelPath")) {
            _ = try FaceLandmarker(model: .meshWithIris, meshModelPath: try TestResources.modelPath(.faceMeshMediaPipe),
                                   detector: detector)
        }
    }

    @Test("a corrupted model whose weights are NaN is reported, not turned into points")
    func nonFiniteOutputs() throws {
        var bytes = try TestResources.modelBytes("mediapipe_face_landmark.tflite")
        // Overwrite the largest buffer (float16 weights) with float16 NaN (0x7E00, little-endian).
        let model = try bytes.withUnsafeBytes { try Model(bytes: $0) }
        let largest = try #require(model.buffers.max { $0.count < $1.count })
        for offset in stride(from: largest.range.lowerBound, to: largest.range.upperBound - 1, by: 2) {
            bytes[offset] = 0x00
            bytes[offset + 1] = 0x7E
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("nan-mesh-\(getpid()).tflite").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let detector = try FaceDetector(model: .shortRange, modelsDirectory: MeshSamples.modelsDirectory)
        let landmarker = try FaceLandmarker(model: .mesh, meshModelPath: path, detector: detector)
        #expect(throws: FaceLandmarkerError.nonFiniteOutput(path: path)) {
            try MeshSamples.astronaut().withView { try landmarker.detect($0) }
        }
    }

    @Test("a region with a zero, negative or non-finite size or centre is a typed error", arguments: [
        RotatedRect(center: Point(x: 100, y: 100), width: 0, height: 100),
        RotatedRect(center: Point(x: 100, y: 100), width: -5, height: -5),
        RotatedRect(center: Point(x: .nan, y: 100), width: 50, height: 50),
        RotatedRect(center: Point(x: 100, y: 100), width: .infinity, height: 50),
        RotatedRect(center: Point(x: 100, y: 100), width: 50, height: 50, rotation: .nan),
    ])
    func invalidRegion(_ region: RotatedRect) throws {
        let landmarker = try MeshSamples.landmarker(.mesh)
        #expect {
            try MeshSamples.astronaut().withView { try landmarker.landmarks($0, region: region) }
        } throws: { error in
            // Compared by description: a NaN region is not equal to itself.
            guard case let .invalidRegion(reported)? = error as? FaceLandmarkerError else { return false }
            return reported.description == region.description
        }
    }

    @Test("a region leaving the image repeats the border: finite points, no error")
    func regionLeavingTheImage() throws {
        let landmarker = try MeshSamples.landmarker()
        let image = try MeshSamples.astronaut()
        // The face region moved so that its centre sits on the left edge; half of it is outside.
        let faces = try image.withView { try landmarker.detect($0) }
        var region = faces[0].region
        region.center.x = 0
        let shifted = try image.withView { try landmarker.landmarks($0, region: region) }
        if let shifted {
            #expect(shifted.points.allSatisfy { $0.isFinite })
            #expect(shifted.points.contains { $0.x < 0 } || shifted.presence < 0.9)
        }
        // A region wholly outside: no face, no error.
        region.center.x = -1000
        #expect(try image.withView { try landmarker.landmarks($0, region: region) } == nil)
    }

    @Test("tiny and zero-size faces: zero-size regions are skipped, tiny ones give finite points or nothing")
    func tinyFaces() throws {
        let landmarker = try MeshSamples.landmarker()
        let keypoints = FaceKeypoints(rightEye: Point(x: 200, y: 100), leftEye: Point(x: 200, y: 100),
                                      noseTip: Point(x: 200, y: 100), mouthCenter: Point(x: 200, y: 100),
                                      rightEarTragion: Point(x: 200, y: 100), leftEarTragion: Point(x: 200, y: 100))
        let zero = Face(boundingBox: Rect(x: 200, y: 100, width: 0, height: 0), score: 1, keypoints: keypoints)
        let tiny = Face(boundingBox: Rect(x: 200, y: 100, width: 1, height: 1), score: 1, keypoints: keypoints)
        let image = try MeshSamples.astronaut()
        #expect(try image.withView { try landmarker.landmarks($0, for: [zero]) }.isEmpty)
        let tinyFaces = try image.withView { try landmarker.landmarks($0, for: [tiny]) }
        #expect(tinyFaces.allSatisfy { $0.points.allSatisfy { $0.isFinite } })
        // One-pixel and empty images: no faces, no error.
        #expect(try ImageBuffer(width: 1, height: 1).withView { try landmarker.detect($0) }.isEmpty)
    }

    @Test("association: a later region replaces the earlier ones it overlaps by IoU > 0.5 and joins the end")
    func association() {
        func region(_ x: Float, _ y: Float, _ side: Float) -> NormalizedRegion {
            NormalizedRegion(xCenter: x, yCenter: y, width: side, height: side, rotation: 0)
        }
        let a = region(0.3, 0.3, 0.2), b = region(0.7, 0.7, 0.2), aTracked = region(0.31, 0.3, 0.2)
        var regions: [(region: NormalizedRegion, detection: Face?)] = [(a, nil), (b, nil), (aTracked, nil)]
        FaceLandmarker.associate(&regions)
        #expect(regions.map(\.region) == [b, aTracked])
        // Overlap at or below 0.5 keeps both: half the width in common is IoU 1/3.
        let half = region(0.4, 0.3, 0.2)
        regions = [(a, nil), (half, nil)]
        FaceLandmarker.associate(&regions)
        #expect(regions.count == 2)
    }
}
