import BlazeFace
import BlazeTestSupport
import Foundation
import Testing

@Suite("Errors")
struct ErrorTests {
    static let buffer = [UInt8](repeating: 0, count: 64)

    /// The error `ImageView.init` throws for this geometry, or nil.
    static func viewError(width: Int, height: Int, bytesPerRow: Int, format: PixelFormat = .rgb8) -> FaceDetectorError? {
        buffer.withUnsafeBytes { raw -> FaceDetectorError? in
            do throws(FaceDetectorError) {
                _ = try ImageView(baseAddress: raw.baseAddress!, width: width, height: height, bytesPerRow: bytesPerRow,
                                  pixelFormat: format)
                return nil
            } catch {
                return error
            }
        }
    }

    static func isInvalidImage(_ error: (any Error)?) -> Bool {
        if case .invalidImage? = error as? FaceDetectorError { return true }
        return false
    }

    struct Geometry: Sendable, CustomTestStringConvertible {
        var width: Int
        var height: Int
        var bytesPerRow: Int
        var format: PixelFormat
        var testDescription: String { "\(width)x\(height), \(bytesPerRow) bytes per row, \(format)" }
    }

    static let invalidGeometries: [Geometry] = [
        Geometry(width: 0, height: 10, bytesPerRow: 30, format: .rgb8),
        Geometry(width: 10, height: 0, bytesPerRow: 30, format: .rgb8),
        Geometry(width: -1, height: 10, bytesPerRow: 30, format: .rgb8),
        Geometry(width: 10, height: -5, bytesPerRow: 30, format: .rgb8),
        Geometry(width: 10, height: 10, bytesPerRow: 29, format: .rgb8),
        Geometry(width: 10, height: 10, bytesPerRow: 39, format: .bgra8),
        Geometry(width: 10, height: 10, bytesPerRow: -40, format: .bgra8),
        Geometry(width: Int.max / 2, height: 1, bytesPerRow: Int.max, format: .rgba8),  // width x 4 overflows
        Geometry(width: 1 << 40, height: 1 << 40, bytesPerRow: 1 << 40, format: .gray8),  // bytes overflow
        Geometry(width: 10, height: Int.max, bytesPerRow: 30, format: .rgb8),
    ]

    @Test("ImageView rejects unusable geometry", arguments: invalidGeometries)
    func invalidViews(_ geometry: Geometry) {
        let error = Self.viewError(width: geometry.width, height: geometry.height, bytesPerRow: geometry.bytesPerRow,
                                   format: geometry.format)
        #expect(Self.isInvalidImage(error), "\(geometry.testDescription): \(String(describing: error))")
    }

    @Test("ImageView accepts consistent geometry, padded rows included")
    func validViews() {
        #expect(Self.viewError(width: 4, height: 4, bytesPerRow: 12, format: .rgb8) == nil)
        #expect(Self.viewError(width: 4, height: 4, bytesPerRow: 13, format: .rgb8) == nil)
        #expect(Self.viewError(width: 4, height: 4, bytesPerRow: 4, format: .gray8) == nil)
    }

    @Test("ImageView.withPixels checks the byte count")
    func withPixels() throws {
        let pixels = [UInt8](repeating: 0, count: 100)
        // 6 x 6 rgb8 needs 108 bytes.
        #expect(Self.isInvalidImage(Self.capture { try ImageView.withPixels(pixels, width: 6, height: 6, pixelFormat: .rgb8) { _ in } }))
        // 10 rows of 10 bytes fit; 10 rows of 11 do not.
        #expect(Self.capture { try ImageView.withPixels(pixels, width: 10, height: 10, pixelFormat: .gray8) { _ in } } == nil)
        #expect(Self.isInvalidImage(Self.capture {
            try ImageView.withPixels(pixels, width: 10, height: 10, bytesPerRow: 11, pixelFormat: .gray8) { _ in }
        }))
        // Sizes whose byte counts overflow throw instead of trapping.
        #expect(Self.isInvalidImage(Self.capture {
            try ImageView.withPixels(pixels, width: Int.max / 2, height: 2, pixelFormat: .bgra8) { _ in }
        }))
        #expect(Self.isInvalidImage(Self.capture {
            try ImageView.withPixels(pixels, width: 1 << 40, height: 1 << 40, pixelFormat: .gray8) { _ in }
        }))
        #expect(Self.isInvalidImage(Self.capture { try ImageView.withPixels(pixels, width: 0, height: 0, pixelFormat: .rgb8) { _ in } }))
        #expect(Self.isInvalidImage(Self.capture { try ImageView.withPixels([], width: 1, height: 1, pixelFormat: .rgb8) { _ in } }))
        // The view is handed over with the geometry asked for.
        let geometry = try ImageView.withPixels(pixels, width: 3, height: 4, bytesPerRow: 20, pixelFormat: .argb8,
                                                orientation: .right) { view in
            [view.width, view.height, view.bytesPerRow, view.uprightWidth, view.uprightHeight]
        }
        #expect(geometry == [3, 4, 20, 4, 3])
    }

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
        guard case let .modelNotFound(file, searched)? = error else {
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
        guard case let .invalidModel(path, _)? = error else {
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
        guard case let .incompatibleModel(path, reason)? = error else {
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
        guard case .incompatibleModel? = mismatch else {
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
        guard case .invalidOptions? = error else {
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
