import BlazeTestSupport
import Foundation
import Testing

/// The README's first command prints what the README shows.
@Suite struct ReadmeTests {
    /// The `blazeface` arguments of the README's first command, and the lines it says the command prints.
    static func readmeExample() throws -> (arguments: [String], lines: [String]) {
        let readme = try String(contentsOf: TestResources.root.appendingPathComponent("README.md"), encoding: .utf8)
        let marker = "swift run -c release blazeface "
        let command = try #require(readme.components(separatedBy: "\n").first { $0.contains(marker) && $0.contains("apt-get") },
                                   "the README's first command runs \(marker)...")
        let arguments = try #require(command.components(separatedBy: marker).last).split(separator: " ").map(String.init)
        let printed = try #require(readme.components(separatedBy: "The first command prints:").dropFirst().first)
        let block = try #require(printed.components(separatedBy: "```").dropFirst().first,
                                 "a code block follows \"The first command prints:\"")
        let lines = block.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        return (arguments, lines)
    }

    @Test("the README's detect command prints the README's sample output")
    func firstCommand() async throws {
        let example = try Self.readmeExample()
        #expect(example.arguments.first == "detect" && !example.lines.isEmpty)
        let scratch = try TemporaryDirectory()
        let root = TestResources.root.path + "/"
        // Paths from the repository's root (where the README runs it), the annotation into a scratch folder.
        var arguments: [String] = []
        var iterator = example.arguments.makeIterator()
        while let argument = iterator.next() {
            if argument == "--annotate" {
                _ = iterator.next()
                arguments += ["--annotate", scratch.path("out")]
            } else {
                arguments.append(argument.hasPrefix("Models/") ? root + argument : argument)
            }
        }
        let result = try await CommandLineTool.run(arguments + ["--models-dir", DetectTests.models])
        #expect(result.status == 0, "\(result)")
        let printed = result.standardOutput.replacingOccurrences(of: root, with: "")
            .split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        #expect(printed == example.lines, "the README shows\n\(example.lines.joined(separator: "\n"))\nthe command prints\n\(printed.joined(separator: "\n"))")
        #expect(FileManager.default.fileExists(atPath: scratch.path("out/astronaut.png")))
    }
}
