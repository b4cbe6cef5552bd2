import BlazeFace
import BlazeFaceAnalysis
import BlazeFaceMesh
import BlazeImageIO
import BlazeJobs
import BlazeTestSupport
import Foundation
import Testing

/// `FaceJob` gives what the pipelines give when called directly, for each task and each way to name a detector.
@Suite("Face job")
struct FaceJobTests {
    static let models = TestResources.modelsDirectory.path

    static func samplePath(_ file: String) -> String {
        TestResources.modelsDirectory.appendingPathComponent("samples/\(file)").path
    }

    @Test("detect: the detector's faces and report, from a file and from its bytes")
    func detectMatchesTheDetector() throws {
        let path = Self.samplePath("multi_face.jpg")
        let image = try ImageDecoder.decode(contentsOf: path)
        let detector = try FaceDetector(models: FaceDetector.stillPictureModels, modelsDirectory: Self.models)
        let direct = try image.withView { try detector.detect($0) }
        let job = FaceJob(modelsDirectory: Self.models)
        let fromFile = try job.detect(.file(path))
        let fromBytes = try job.detect(.bytes(Array(try Data(contentsOf: URL(fileURLWithPath: path)))))
        #expect(!direct.isEmpty)
        #expect(fromFile.found == direct && fromBytes.found == direct)
        #expect(fromFile.report == fromBytes.report)
        #expect(fromFile.report.width == image.uprightWidth && fromFile.report.faces.count == direct.count)
    }

    @Test("landmarks and analyze: the landmarker's meshes with the same options")
    func meshMatchesTheLandmarker() throws {
        let path = Self.samplePath("obama.jpg")
        let image = try ImageDecoder.decode(contentsOf: path)
        let options = FaceJobOptions(detector: .catalog(.shortRange), maximumFaces: 2)
        let landmarker = try FaceLandmarker(model: .attention, modelsDirectory: Self.models,
                                            options: options.landmarkerOptions)
        let direct = try image.withView { try landmarker.detect($0) }
        let job = FaceJob(options: options, modelsDirectory: Self.models)
        let meshes = try job.landmarks(.file(path))
        #expect(!direct.isEmpty && meshes.found == direct)
        let analysis = try job.analyze(.file(path))
        #expect(analysis.found.faces.map(\.landmarks) == direct)
    }

    @Test("a detector file: the catalog's configuration by file name, and errors for what is not a detector")
    func detectorFile() throws {
        let path = try TestResources.modelPath(.fullRange)
        let byFile = FaceJob(options: FaceJobOptions(detector: .file(path)), modelsDirectory: Self.models)
        let byName = FaceJob(options: FaceJobOptions(detector: .catalog(.fullRange)), modelsDirectory: Self.models)
        let sample = Self.samplePath("astronaut.png")
        #expect(try byFile.detect(.file(sample)).found == byName.detect(.file(sample)).found)

        let notAModel = FileManager.default.temporaryDirectory
            .appendingPathComponent("blazejobs-\(UInt64.random(in: 0...UInt64.max)).tflite").path
        try Data("not a model".utf8).write(to: URL(fileURLWithPath: notAModel))
        defer { try? FileManager.default.removeItem(atPath: notAModel) }
        #expect(throws: FaceDetectorError.self) {
            try FaceJob(options: FaceJobOptions(detector: .file(notAModel))).prepare(.detect)
        }
        let mesh = try TestResources.modelPath(.faceMeshFDLite)  // a 192x192 input, but two outputs of a mesh
        #expect(throws: FaceDetectorError.self) {
            try FaceJob(options: FaceJobOptions(detector: .file(mesh))).prepare(.detect)
        }
    }

    @Test("a picture that cannot be read is the decoder's error, not the pipeline's")
    func badPicture() throws {
        let job = FaceJob(modelsDirectory: Self.models)
        #expect(throws: ImageIOError.self) { try job.detect(.bytes([0x89, 0x50, 0x4E, 0x47])) }
        #expect(throws: ImageIOError.self) { try job.landmarks(.bytes(Array("GIF89a".utf8))) }
        #expect(throws: ImageIOError.self) { try job.analyze(.file("/nonexistent/picture.jpg")) }
    }
}
