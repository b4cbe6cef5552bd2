import BlazeFaceAnalysis
import BlazeFaceMesh
import BlazeImageIO
import BlazeReports
import BlazeSegmentation
import BlazeTestSupport
import Foundation
import Testing

/// The report types: their keys, the entry and batch documents, the two JSON layouts, and a round trip of
/// real pipeline results through JSON.
@Suite struct ReportTests {
    static let models = TestResources.modelsDirectory.path

    /// The keys of a JSON object.
    static func keys(_ data: Data) throws -> Set<String> {
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return Set(object.keys)
    }

    @Test("An entry writes path beside its report's keys, or path and error; both read back")
    func entryLayout() throws {
        let report = DetectionReport(width: 640, height: 480, faces: [])
        let entry = ImageEntry(path: "a/b.jpg", outcome: .report(report))
        let data = try ReportJSON.compact(entry)
        #expect(String(decoding: data, as: UTF8.self) == #"{"faces":[],"height":480,"path":"a/b.jpg","width":640}"#)
        let back = try JSONDecoder().decode(ImageEntry<DetectionReport>.self, from: data)
        #expect(back.path == "a/b.jpg" && back.report == report && back.error == nil)

        let failed = ImageEntry<DetectionReport>(path: "c.png", outcome: .failure("truncated image"))
        let failedData = try ReportJSON.compact(failed)
        #expect(String(decoding: failedData, as: UTF8.self) == #"{"error":"truncated image","path":"c.png"}"#)
        let failedBack = try JSONDecoder().decode(ImageEntry<DetectionReport>.self, from: failedData)
        #expect(failedBack.report == nil && failedBack.error == "truncated image")

        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ImageEntry<DetectionReport>.self, from: Data(#"{"width":1}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ImageEntry<DetectionReport>.self, from: Data(#"{"path":"x","width":1}"#.utf8))
        }
    }

    @Test("pretty joins arrays of numbers onto one line and leaves strings alone")
    func prettyLayout() throws {
        struct Sample: Codable { var points: [[Float]]; var note: String }
        let text = try ReportJSON.pretty(Sample(points: [[1.5, -2, 3e-7]], note: "[\n1,\n2\n]"))
        #expect(text == """
            {
              "note" : "[\\n1,\\n2\\n]",
              "points" : [
                [1.5, -2, 3e-07]
              ]
            }
            """)
        #expect(ReportJSON.compactNumberArrays("[\n  1,\n  2\n]") == "[1, 2]")
        #expect(ReportJSON.compactNumberArrays("[\n  \"a\",\n  2\n]") == "[\n  \"a\",\n  2\n]")
    }

    @Test("The segmentation report rounds the person share to five decimals")
    func segmentationReport() throws {
        let report = SegmentationReport(width: 3, height: 2, model: .landscape, personShare: 1.0 / 3.0)
        #expect(report.personShare == 0.33333 && report.model == "landscape")
        #expect(try Self.keys(ReportJSON.compact(report)) == ["width", "height", "model", "personShare"])
    }

    @Test("Detector, landmarker and analyzer results on a portrait survive a round trip through JSON")
    func realResultsRoundTrip() throws {
        let image = try Samples.decode("astronaut.png")
        let (width, height) = (image.uprightWidth, image.uprightHeight)

        let detector = try FaceDetector(model: .fullRange, modelsDirectory: Self.models)
        let faces = try image.withView { try detector.detect($0) }
        let detection = DetectionReport(width: width, height: height, faces: faces)
        #expect(detection.faces.count == 1)
        let face = try #require(detection.faces.first)
        #expect(face.keypoints.map(\.type) == FaceKeypoints.Kind.allCases.map(\.rawValue))
        #expect(face.score == Double(faces[0].score) && face.uprightRotation == nil)
        let data = try ReportJSON.compact(detection)
        #expect(try JSONDecoder().decode(DetectionReport.self, from: data) == detection)
        let faceObject = try #require(
            (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["faces"] as? [[String: Any]]).first
        #expect(Set(try #require(faceObject).keys) == ["box", "score", "keypoints", "roll"])

        let rotated = DetectionReport(width: width, height: height, faces: faces, reportsRotation: true)
        #expect(rotated.faces.first?.uprightRotation == 0)

        let analyzer = try FaceAnalyzer(modelsDirectory: Self.models)
        let analysis = try image.withView { try analyzer.analyze($0) }
        let landmarks = LandmarksReport(width: width, height: height, faces: analysis.faces.map(\.landmarks))
        #expect(landmarks.faces.first?.landmarks.count == 478)
        #expect(try JSONDecoder().decode(LandmarksReport.self, from: ReportJSON.compact(landmarks)) == landmarks)

        let report = AnalysisReport(width: width, height: height, analysis: analysis)
        let analyzed = try #require(report.faces.first)
        #expect(analyzed.pose.pitch == analysis.faces[0].pose.pitch)
        #expect(analyzed.hints == analysis.faces[0].quality.hints.map(\.description))
        #expect(try JSONDecoder().decode(AnalysisReport.self, from: ReportJSON.compact(report)) == report)
    }

    @Test("A face without a detection reports its mesh's box and a null score")
    func faceWithoutDetection() throws {
        let image = try Samples.decode("astronaut.png")
        let landmarker = try FaceLandmarker(modelsDirectory: Self.models)
        var face = try #require(try image.withView { try landmarker.detect($0) }.first)
        face.detection = nil
        let report = LandmarksReport(width: 512, height: 512, faces: [face], reportsRotation: true)
        let entry = try #require(report.faces.first)
        #expect(entry.score == nil && entry.uprightRotation == 0)
        #expect(entry.box == BoxReport(face.boundingBox))
        let data = try ReportJSON.compact(entry)
        #expect(String(decoding: data, as: UTF8.self).contains(#""score":null"#))
        #expect(try JSONDecoder().decode(LandmarksReport.FaceReport.self, from: data) == entry)
    }
}
