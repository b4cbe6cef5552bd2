import ArgumentParser
import Foundation

/// A failure the tool reports as `error: <description>` on standard error, exiting with status 1.
struct CommandFailure: Error, CustomStringConvertible, LocalizedError {
    var description: String

    init(_ description: String) { self.description = description }

    var errorDescription: String? { description }
}

extension ParsableCommand {
    /// Runs `body`; a library or tool error is printed as `error: <description>` on standard error and
    /// turned into exit status 1. Argument-parser errors (`ValidationError`, `ExitCode`, `CleanExit`) pass
    /// through unchanged so that the parser prints usage as usual.
    func reportingFailures(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as ExitCode {
            throw error
        } catch let error as ValidationError {
            throw error
        } catch let error as CleanExit {
            throw error
        } catch {
            printError("error: \(Self.message(for: error))")
            throw ExitCode.failure
        }
    }

    /// The user-facing text of an error: its `LocalizedError` description (every library error of this
    /// package has one, equal to its `description`), else its `description`.
    static func message(for error: any Error) -> String {
        if let localized = error as? any LocalizedError, let text = localized.errorDescription { return text }
        return String(describing: error)
    }
}

/// `message` about the file at `path`, prefixed with the path unless the message already quotes it.
func about(_ path: String, _ message: String) -> String {
    message.contains("'\(path)'") ? message : "\(path): \(message)"
}

/// Writes one line to standard error.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
