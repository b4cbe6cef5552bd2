import BlazeFace
import BlazeTestSupport
import Foundation
import Testing

@Suite("Errors")
struct ErrorTests {
    static func capture(_ body: () throws -> Void) -> (any Error)? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }

    static func creationError(_ body: () throws(FaceDetectorError) -> FaceDetector) -> FaceDetectorError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }

    @Test("a missing model says where it looked and how to fetch it")
    func modelNotFound() throws {
        let folder = "/nonexistent/blazeface-models-\(UUID().uuidString)"
        let error = Self.creationError { () throws(FaceDetectorError) in try FaceDetector(model: .shortRange, modelsDirectory: folder) }
        guard case let .pipeline(.modelNotFound(file, searched))? = error else {
            Issue.record("expected modelNotFound, got \(String(describing: error))")
            return
        }
        #expect(file == "face_detection_short_range.tflite")
        #expect(searched == [folder])
        let description = try #require(error).description
        #expect(description.contains("Models/fetch.sh"), "\(description)")
        #expect(description.contains(folder), "\(description)")
        #expect(description.contains(file), "\(description)")
        #expect((try #require(error) as any Error).localizedDescription == description)

        // Through a file path too.
        let pathError = Self.creationError { () throws(FaceDetectorError) in
            try FaceDetector(modelPath: folder + "/model.tflite", configuration: FaceDetector.Model.shortRange.configuration)
        }
        #expect(pathError == .modelNotFound(file: "model.tflite", searched: [folder]))
    }

    @Test("a file that is not a model is an invalid model")
    func invalidModel() throws {
        let png = TestResources.modelsDirectory.appendingPathComponent("samples/astronaut.png").path
        try #require(FileManager.default.fileExists(atPath: png), "Models/samples/astronaut.png is missing: run Models/fetch.sh")
        let error = Self.creationError { () throws(FaceDetectorError) in
            try FaceDetector(modelPath: png, configuration: FaceDetector.Model.shortRange.configuration)
        }
        guard case let .pipeline(.invalidModel(path, _))? = error else {
            Issue.record("expected invalidModel, got \(String(describing: error))")
            return
        }
        #expect(path == png)
        #expect(try #require(error).description.contains(png))
    }

    @Test("a model that is not this detector is incompatible")
    func incompatibleModel() throws {
        let landmark = try TestResources.modelPath("face_landmark.tflite")
        let error = Self.creationError { () throws(FaceDetectorError) in
            try FaceDetector(modelPath: landmark, configuration: FaceDetector.Model.shortRange.configuration)
        }
        guard case let .pipeline(.incompatibleModel(path, reason))? = error else {
            Issue.record("expected incompatibleModel, got \(String(describing: error))")
            return
        }
        #expect(path == landmark)
        #expect(!reason.isEmpty)

        // The full-range model (192x192) with the short-range anchors (128x128).
        let fullRange = try TestResources.modelPath("face_detection_full_range.tflite")
        let mismatch = Self.creationError { () throws(FaceDetectorError) in
            try FaceDetector(modelPath: fullRange, configuration: FaceDetector.Model.shortRange.configuration)
        }
        guard case .pipeline(.incompatibleModel)? = mismatch else {
            Issue.record("expected incompatibleModel, got \(String(describing: mismatch))")
            return
        }
    }

    @Test("out-of-range options are rejected", arguments: [
        FaceDetector.Options(threadCount: 0),
        FaceDetector.Options(threadCount: -3),
        FaceDetector.Options(threadCount: 100_000),
        FaceDetector.Options(iouThreshold: 1.5),
        FaceDetector.Options(iouThreshold: -0.1),
        FaceDetector.Options(iouThreshold: .nan),
        FaceDetector.Options(minimumScore: -1),
        FaceDetector.Options(minimumScore: 1.01),
        FaceDetector.Options(minimumScore: .nan),
        FaceDetector.Options(maximumFaces: 0),
        FaceDetector.Options(maximumFaces: -1),
    ])
    func invalidOptions(_ options: FaceDetector.Options) {
        let error = Self.creationError { () throws(FaceDetectorError) in
            try FaceDetector(model: .shortRange, modelsDirectory: TestResources.modelsDirectory.path, options: options)
        }
        guard case .pipeline(.invalidOptions)? = error else {
            Issue.record("\(options): expected invalidOptions, got \(String(describing: error))")
            return
        }
    }

    struct TinyImage: Sendable, CustomTestStringConvertible {
        var width: Int
        var height: Int
        var format: PixelFormat
        var testDescription: String { "\(width)x\(height) \(format)" }
    }

    @Test("tiny and extreme pictures run without trouble", arguments: [
        TinyImage(width: 1, height: 1, format: .rgb8),
        TinyImage(width: 3, height: 2, format: .rgba8),
        TinyImage(width: 63, height: 40, format: .gray8),
        TinyImage(width: 1, height: 700, format: .bgra8),
    ])
    func tinyImages(_ tiny: TinyImage) throws {
        var random = SplitMix64(seed: UInt64(tiny.width * 1000 + tiny.height))
        let bytes = (0..<tiny.width * tiny.height * tiny.format.bytesPerPixel).map { _ in UInt8.random(in: 0...255, using: &random) }
        let detector = try Detectors.shared(.shortRange)
        for orientation in tiny.width * tiny.height < 10 ? [ImageOrientation.up, .right] : [.up] {
            let faces = try ImageView.withPixels(bytes, width: tiny.width, height: tiny.height, pixelFormat: tiny.format,
                                                 orientation: orientation) { try detector.detect($0) }
            for face in faces {
                #expect(face.score >= 0.5 && face.score <= 1)
                #expect(face.boundingBox.width.isFinite && face.boundingBox.height.isFinite)
            }
        }
    }
}
