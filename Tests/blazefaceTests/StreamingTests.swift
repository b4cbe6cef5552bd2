import BlazeFace
import BlazeImageIO
import BlazeReports
import Foundation
import Testing

/// `--files-from` and `--json-lines`: one line per picture, in input order (or any order with `--unordered`),
/// each the `--json` document's entry for it; error lines for bad paths; exit 0 when the input ends.
@Suite struct StreamingTests {
    static let models = DetectTests.models

    @Test("detect --files-from - prints the --json entries as lines, in order, with error lines, and exits 0")
    func filesFromStandardInput() async throws {
        let scratch = try TemporaryDirectory()
        let corrupt = scratch.path("corrupt.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 1, 2, 3]).write(to: URL(fileURLWithPath: corrupt))
        let paths = [try DetectTests.sample("astronaut.png"), "/no/such/picture.jpg", corrupt,
                     try DetectTests.sample("t1.jpg"), try DetectTests.sample("obama.jpg")]
        let input = paths[0] + "\n" + paths[1] + "\n\n" + paths[2] + "\r\n" + paths[3] + "\n" + paths[4]  // blank line, CRLF, no final newline
        let lines = try await CommandLineTool.run(["detect", "--files-from", "-", "--models-dir", Self.models, "--threads", "2"],
                                                  standardInput: input)
        #expect(lines.status == 0, "\(lines)")
        let batch = try await CommandLineTool.run(["detect", "--json", "--models-dir", Self.models] + paths)
        #expect(batch.status == 1)
        let document = try JSONDecoder().decode(BatchReport<ImageEntry<DetectionReport>>.self, from: Data(batch.standardOutput.utf8))
        let expected = try document.images.map { String(decoding: try ReportJSON.compact($0), as: UTF8.self) + "\n" }.joined()
        #expect(lines.standardOutput == expected)
        #expect(document.images.map(\.error).map { $0 != nil } == [false, true, true, false, false])
    }

    @Test("--unordered prints the same lines in any order; --json-lines with arguments exits 1 for a bad image")
    func unorderedAndArguments() async throws {
        let paths = [try DetectTests.sample("astronaut.png"), try DetectTests.sample("t1.jpg"),
                     try DetectTests.sample("obama.jpg"), "/no/such/picture.jpg"]
        let ordered = try await CommandLineTool.run(["analyze", "--json-lines", "--models-dir", Self.models] + paths)
        #expect(ordered.status == 1, "a bad image fails a run over arguments")
        let unordered = try await CommandLineTool.run(
            ["analyze", "--files-from", "-", "--unordered", "--threads", "2", "--models-dir", Self.models],
            standardInput: paths.joined(separator: "\n") + "\n")
        #expect(unordered.status == 0)
        let a = ordered.standardOutput.split(separator: "\n"), b = unordered.standardOutput.split(separator: "\n")
        #expect(a.count == 4 && Set(a) == Set(b))
    }

    @Test("An empty input prints nothing; an overlong line is an error line and the run goes on; bad flags are refused")
    func edges() async throws {
        let empty = try await CommandLineTool.run(["detect", "--files-from", "-", "--models-dir", Self.models], standardInput: "")
        #expect(empty.status == 0 && empty.standardOutput.isEmpty)
        let long = String(repeating: "x", count: 20_000) + "\n" + (try DetectTests.sample("astronaut.png")) + "\n"
        let result = try await CommandLineTool.run(["detect", "--files-from", "-", "--models-dir", Self.models], standardInput: long)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(result.status == 0 && lines.count == 2)
        #expect(lines.first?.contains("longer than 16384 bytes") == true)
        #expect(lines.last?.contains("\"faces\"") == true)
        for bad in [["--files-from", "-", "--json"], ["--unordered", "x.jpg"], ["--files-from", "-", "x.jpg"], []] {
            let refused = try await CommandLineTool.run(["detect"] + bad)
            #expect(refused.status == 64, "\(bad): \(refused.standardError)")
        }
        let missing = try await CommandLineTool.run(["detect", "--files-from", "/no/such/list.txt", "--models-dir", Self.models])
        #expect(missing.status == 1 && missing.standardError.contains("no such file"))
    }
}
