import BlazeFaceAnalysis
import BlazeFaceMesh
import BlazeImageIO
import BlazeReports
import BlazeSegmentation
import BlazeTestSupport
import Foundation
import Testing

/// The CLI prints the library's reports: `--json`'s output equals, byte for byte, `ReportJSON.pretty` of a
/// `BatchReport` of `ImageEntry`s made with the BlazeReports types from the same pipelines in-process (so the
/// server and Swift users get the very objects and bytes the CLI prints). A good portrait, a group photo and a
/// corrupt file, which the entry reports with the decoder's message.
@Suite struct ReportBytesTests {
    static let models = DetectTests.models

    /// The inputs and, per input, the decoded picture or the error message the CLI reports for it.
    static func inputs() throws -> (paths: [String], scratch: TemporaryDirectory) {
        let scratch = try TemporaryDirectory()
        let corrupt = scratch.path("corrupt.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 1, 2, 3]).write(to: URL(fileURLWithPath: corrupt))
        return ([try DetectTests.sample("astronaut.png"), try DetectTests.sample("t1.jpg"), corrupt], scratch)
    }

    /// The entries of `paths` as the library makes them: `report` on each decoded picture, the decoder's
    /// message for a picture that cannot be read.
    static func entries<Report>(_ paths: [String],
                                _ report: (DecodedImage) throws -> Report) throws -> [ImageEntry<Report>] {
        try paths.map { path in
            let image: DecodedImage
            do {
                image = try ImageDecoder.decode(contentsOf: path)
            } catch {
                let message = (error as? any LocalizedError)?.errorDescription ?? String(describing: error)
                return ImageEntry(path: path, outcome: .failure(message))
            }
            return ImageEntry(path: path, outcome: .report(try report(image)))
        }
    }

    /// Runs the CLI and checks its standard output against the library's document.
    static func expectSameBytes<Report>(_ arguments: [String], _ entries: [ImageEntry<Report>]) async throws {
        let result = try await CommandLineTool.run(arguments + ["--json", "--models-dir", models, "--threads", "2"])
        #expect(result.status == 1, "the corrupt file fails the run: \(result)")
        let expected = try ReportJSON.pretty(BatchReport(images: entries)) + "\n"
        #expect(result.standardOutput == expected)
    }

    @Test("detect --json is the library's DetectionReport, byte for byte")
    func detect() async throws {
        let (paths, scratch) = try Self.inputs()
        defer { _ = scratch }
        let detector = try FaceDetector(models: FaceDetector.stillPictureModels, modelsDirectory: Self.models)
        let entries = try Self.entries(paths) { image in
            DetectionReport(width: image.uprightWidth, height: image.uprightHeight,
                            faces: try image.withView { try detector.detect($0) })
        }
        #expect(entries[1].report?.faces.count == 5, "the group photo's five faces")
        try await Self.expectSameBytes(["detect"] + paths, entries)
    }

    @Test("landmarks --json --try-rotations is the library's LandmarksReport, byte for byte")
    func landmarks() async throws {
        let (paths, scratch) = try Self.inputs()
        defer { _ = scratch }
        // The still-picture detector, the tools' default.
        let detector = try FaceDetector(models: FaceDetector.stillPictureModels, modelsDirectory: Self.models,
                                        options: .init(tryRotations: true))
        let landmarker = try FaceLandmarker(modelsDirectory: Self.models, detector: detector,
                                            options: .init(tryRotations: true))
        let entries = try Self.entries(paths) { image in
            LandmarksReport(width: image.uprightWidth, height: image.uprightHeight,
                            faces: try image.withView { try landmarker.detect($0) }, reportsRotation: true)
        }
        try await Self.expectSameBytes(["landmarks", "--try-rotations"] + paths, entries)
    }

    @Test("analyze --json is the library's FaceAnalyzer and AnalysisReport, byte for byte")
    func analyze() async throws {
        let (paths, scratch) = try Self.inputs()
        defer { _ = scratch }
        let detector = try FaceDetector(models: FaceDetector.stillPictureModels, modelsDirectory: Self.models)
        let analyzer = FaceAnalyzer(landmarker: try FaceLandmarker(modelsDirectory: Self.models, detector: detector),
                                    assessor: try CaptureQualityAssessor(framing: .passport))
        let entries = try Self.entries(paths) { image in
            AnalysisReport(width: image.uprightWidth, height: image.uprightHeight,
                           analysis: try image.withView { try analyzer.analyze($0) })
        }
        try await Self.expectSameBytes(["analyze", "--framing", "passport"] + paths, entries)
    }

    @Test("segment --json is the library's SegmentationReport with the CLI's mask and output keys")
    func segment() async throws {
        let (paths, scratch) = try Self.inputs()
        defer { _ = scratch }
        let segmenter = try PersonSegmenter(modelsDirectory: Self.models)
        let entries = try Self.entries(paths) { image in
            let mask = try image.withView { try segmenter.segment($0) }
            let person = mask.values.filter { $0 > 0.5 }.count
            return SegmentationReport(
                width: image.uprightWidth, height: image.uprightHeight,
                model: segmenter.modelChoice(width: image.uprightWidth, height: image.uprightHeight),
                personShare: Double(person) / Double(mask.values.count))
        }
        let result = try await CommandLineTool.run(["segment"] + paths + ["--json", "--models-dir", Self.models])
        let printed = try JSONDecoder().decode(BatchReport<ImageEntry<SegmentationReport>>.self,
                                               from: Data(result.standardOutput.utf8))
        #expect(printed.images.map(\.path) == entries.map(\.path))
        #expect(printed.images.map(\.report) == entries.map(\.report))
        #expect(printed.images.map(\.error) == entries.map(\.error))
        let images = try DetectTests.images(result.standardOutput)
        #expect(Set(images[0].keys) == ["path", "width", "height", "model", "personShare", "mask", "output"])
        #expect(images[0]["mask"] is NSNull && images[0]["output"] is NSNull)
    }
}
