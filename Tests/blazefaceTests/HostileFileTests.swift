import BlazeTestSupport
import Foundation
import Testing

/// The tool on files that are not images: FIFOs found by the folder walk or named directly, and a FIFO as
/// the model. Nothing may block; each is an error for that file or skipped by the walk.
@Suite struct HostileFileTests {
    @Test("a folder's FIFO named a.jpg is skipped by the walk; named directly it is an error, not a hang")
    func fifoImages() async throws {
        let scratch = try TemporaryDirectory()
        let folder = scratch.path("pictures")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let fifo = (folder as NSString).appendingPathComponent("a.jpg")
        #expect(mkfifo(fifo, 0o600) == 0)
        try FileManager.default.copyItem(atPath: try DetectTests.sample("astronaut.png"),
                                         toPath: (folder as NSString).appendingPathComponent("b.png"))
        let walked = try await CommandLineTool.run(["detect", folder, "--json", "--models-dir", DetectTests.models])
        #expect(walked.status == 0, "\(walked)")
        let images = try DetectTests.images(walked.standardOutput)
        #expect(images.compactMap { ($0["path"] as? String).map { ($0 as NSString).lastPathComponent } } == ["b.png"])

        let direct = try await CommandLineTool.run(["detect", fifo, "--json", "--models-dir", DetectTests.models])
        #expect(direct.status == 1, "\(direct)")
        #expect(direct.standardOutput.contains("FIFO"), "\(direct)")
    }

    @Test("a FIFO given as the model is refused by inspect at once")
    func fifoModel() async throws {
        let scratch = try TemporaryDirectory()
        let fifo = scratch.path("model.tflite")
        #expect(mkfifo(fifo, 0o600) == 0)
        let result = try await CommandLineTool.run(["inspect", fifo])
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.contains("not a regular file"), "\(result)")
    }
}
