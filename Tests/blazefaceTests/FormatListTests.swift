import BlazeImageIO
import Foundation
import Testing

/// Every command that reads pictures lists the formats the decoder reads, from `ImageFileFormat`'s one list.
@Suite struct FormatListTests {
    @Test("each command's help names every format, and the batch commands every file extension",
          arguments: ["detect", "landmarks", "analyze", "segment", "crop"])
    func helpListsEveryFormat(_ command: String) async throws {
        let result = try await CommandLineTool.run([command, "--help"])
        #expect(result.status == 0, "\(result)")
        // ArgumentParser wraps help text at the terminal's width: compare with the line breaks taken out.
        let help = result.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for format in ImageFileFormat.allCases {
            #expect(help.contains(format.listedName), "\(command) --help leaves out \(format.listedName)")
        }
        if command != "crop" {  // crop takes one file; the others walk folders by extension
            for fileExtension in ImageFileFormat.allFileExtensions {
                #expect(help.contains(".\(fileExtension)"), "\(command) --help leaves out .\(fileExtension)")
            }
        }
    }
}
