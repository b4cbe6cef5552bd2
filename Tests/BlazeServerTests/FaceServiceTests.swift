@testable import BlazeServer
import BlazeFace
import BlazeFaceAnalysis
import BlazeFaceMesh
import BlazeImageIO
import BlazeModels
import BlazeReports
import BlazeSegmentation
import BlazeTestSupport
import Foundation
import Testing

/// The service without HTTP: answers equal the library's reports, and each bad picture its status.
@Suite struct FaceServiceTests {
    static let models = TestResources.modelsDirectory.path

    static func sampleBytes(_ name: String) throws -> [UInt8] {
        _ = try Samples.decode(name)  // throws the fetch hint when missing
        return [UInt8](try Data(contentsOf: TestResources.modelsDirectory.appendingPathComponent("samples/\(name)")))
    }

    static func service(_ change: (inout ServerConfiguration) -> Void = { _ in }) throws -> FaceService {
        var configuration = ServerConfiguration(workers: 1, maxQueue: 4, modelsDirectory: models)
        change(&configuration)
        return try FaceService(configuration: configuration)
    }

    @Test("detect decodes a large JPEG smaller, as blazeface detect does: the faces mapped to the full picture; fullDecode=true decodes in full")
    func shrinkOnLoad() async throws {
        let service = try Self.service()
        defer { service.shutdown(timeout: .seconds(10)) }
        let bytes = try LargeSamples.jpeg("obama.jpg", megapixels: 12, orientation: .right)
        let detector = try FaceDetector(models: FaceDetector.stillPictureModels, modelsDirectory: Self.models)
        let scaled = try ImageDecoder.decodeScaled(data: bytes, minimumLongSide: detector.shrinkOnLoadLongSide)
        #expect(scaled.scaleDenominator == 2)
        let shrunk = DetectionReport(width: scaled.fullUprightWidth, height: scaled.fullUprightHeight,
                                     faces: try scaled.image.withView { try detector.detect($0) }.map { $0.mapped(scaled.fullSizePoint) })
        let answer = try await service.handle(.detect, image: bytes, options: RequestOptions())
        #expect(answer.body == [UInt8](try ReportJSON.compact(shrunk)))

        var options = RequestOptions()
        options.fullDecode = true
        let image = try ImageDecoder.decode(data: bytes)
        let full = DetectionReport(width: image.uprightWidth, height: image.uprightHeight,
                                   faces: try image.withView { try detector.detect($0) })
        let fullAnswer = try await service.handle(.detect, image: bytes, options: options)
        #expect(fullAnswer.body == [UInt8](try ReportJSON.compact(full)))
        #expect(fullAnswer.body != answer.body && shrunk.faces.count == 1 && full.faces.count == 1)
        #expect(full.width == shrunk.width && full.height == shrunk.height && full.width < full.height)
    }

    @Test("detect, landmarks and analyze answer the library's reports, compact")
    func answersAreReports() async throws {
        let service = try Self.service()
        defer { service.shutdown(timeout: .seconds(10)) }
        let bytes = try Self.sampleBytes("t1.jpg")
        let image = try ImageDecoder.decode(data: bytes)
        let (width, height) = (image.uprightWidth, image.uprightHeight)

        let detector = try FaceDetector(models: FaceDetector.stillPictureModels, modelsDirectory: Self.models)
        let detection = DetectionReport(width: width, height: height, faces: try image.withView { try detector.detect($0) })
        let detect = try await service.handle(.detect, image: bytes, options: RequestOptions())
        #expect(detect.contentType == "application/json")
        #expect(detect.body == [UInt8](try ReportJSON.compact(detection)))
        #expect(detection.faces.count == 5)

        var options = RequestOptions()
        options.maxFaces = 2
        options.detector = .catalog(.shortRange)
        options.minScore = 0.3
        let limited = try await service.handle(.detect, image: bytes, options: options)
        let shortRange = try FaceDetector(model: .shortRange, modelsDirectory: Self.models,
                                          options: .init(minimumScore: 0.3, maximumFaces: 2))
        let expected = DetectionReport(width: width, height: height, faces: try image.withView { try shortRange.detect($0) })
        #expect(limited.body == [UInt8](try ReportJSON.compact(expected)))

        let stillPictures = try FaceDetector(models: FaceDetector.stillPictureModels, modelsDirectory: Self.models)
        let analyzer = FaceAnalyzer(landmarker: try FaceLandmarker(modelsDirectory: Self.models, detector: stillPictures),
                                    assessor: try CaptureQualityAssessor(framing: .passport))
        options = RequestOptions()
        options.framing = .passport
        let analyze = try await service.handle(.analyze, image: bytes, options: options)
        let analysis = AnalysisReport(width: width, height: height, analysis: try image.withView { try analyzer.analyze($0) })
        #expect(analyze.body == [UInt8](try ReportJSON.compact(analysis)))

        let landmarks = try await service.handle(.landmarks, image: bytes, options: RequestOptions())
        let decoded = try JSONDecoder().decode(LandmarksReport.self, from: Data(landmarks.body))
        #expect(decoded.faces.count == 5 && decoded.faces.allSatisfy { $0.landmarks.count == 478 })
    }

    @Test("segment answers the mask as a gray PNG, the new picture as RGB PNG, or the report as JSON")
    func segment() async throws {
        let service = try Self.service()
        defer { service.shutdown(timeout: .seconds(10)) }
        let bytes = try Self.sampleBytes("astronaut.png")
        let segmenter = try PersonSegmenter(modelsDirectory: Self.models)
        let mask = try ImageDecoder.decode(data: bytes).withView { try segmenter.segment($0) }

        let png = try await service.handle(.segment, image: bytes, options: RequestOptions())
        #expect(png.contentType == "image/png")
        let maskImage = try ImageDecoder.decode(data: png.body)
        #expect(maskImage.pixelFormat == .gray8 && maskImage.pixels == mask.grayscaleImage().pixels)

        var options = RequestOptions()
        options.background = .color(red: 255, green: 255, blue: 255)
        let replaced = try await service.handle(.segment, image: bytes, options: options)
        let picture = try ImageDecoder.decode(data: replaced.body)
        #expect(picture.width == 512 && picture.height == 512 && picture.pixelFormat == .rgb8)

        let json = try await service.handle(.segment, image: bytes, options: RequestOptions(), output: .json)
        let report = try JSONDecoder().decode(SegmentationReport.self, from: Data(json.body))
        #expect(report == SegmentationReport(width: 512, height: 512, model: .general, personShare: mask.personShare))
    }

    @Test("Bad pictures: unknown format 415, damaged 422, too many pixels 422 before decoding, empty body 422")
    func badPictures() async throws {
        let service = try Self.service { $0.maxPixels = 100_000 }
        defer { service.shutdown(timeout: .seconds(10)) }
        func status(_ bytes: [UInt8]) async -> (Int, String)? {
            do {
                _ = try await service.handle(.detect, image: bytes, options: RequestOptions())
                return nil
            } catch {
                return (error.statusCode, error.code)
            }
        }
        // No format recognised, and a format recognised but not decoded (Photoshop).
        #expect(await status(Array("not a picture".utf8)) ?? (0, "") == (415, "unsupported_media_type"))
        #expect(await status(Array("8BPS\u{0}\u{1} garbage".utf8)) ?? (0, "") == (415, "unsupported_media_type"))
        #expect(await status(Array("GIF89a garbage".utf8)) ?? (0, "") == (422, "undecodable_image"))  // a cut-off GIF
        #expect(await status([0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 1, 2, 3]) ?? (0, "") == (422, "undecodable_image"))
        #expect(await status([]) ?? (0, "") == (422, "undecodable_image"))
        // astronaut.png is 512 x 512 = 262,144 pixels, above the limit of 100,000.
        #expect(await status(try Self.sampleBytes("astronaut.png")) ?? (0, "") == (422, "image_too_large"))
        // A PNG header claiming 100,000 x 100,000 pixels and nothing else.
        var header: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
        header += [0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0, 8, 2, 0, 0, 0, 0, 0, 0, 0]
        #expect(await status(header).map { $0.0 } == 422)
    }

    @Test("A pipeline's failure caused by the picture is a 422, any other failure a 500")
    func pipelineFailures() {
        let image = PipelineError.invalidImage("a zero-size region")
        for error: any Error in [FaceDetectorError.pipeline(image), FaceLandmarkerError.pipeline(image),
                                 FaceLandmarkerError.detectionFailed(.pipeline(image)), PersonSegmenterError.pipeline(image)] {
            #expect(FaceService.imageProblem(error)?.contains("a zero-size region") == true, "\(error)")
        }
        #expect(FaceService.imageProblem(FaceDetectorError.pipeline(.inferenceFailed("x"))) == nil)
        #expect(FaceService.imageProblem(FaceLandmarkerError.nonFiniteOutput(path: "m")) == nil)
    }

    @Test("The server refuses a configuration that cannot work, naming each problem")
    func configurationProblems() {
        let bad = ServerConfiguration(port: 70000, workers: 0, maxQueue: -1, maxBodyBytes: 0, maxPixels: 0, apiKey: "",
                                      threadsPerWorker: 0, requestTimeout: .zero)
        #expect(bad.problems.count == 8, "\(bad.problems)")
        #expect(ServerConfiguration().problems.isEmpty)
    }
}
