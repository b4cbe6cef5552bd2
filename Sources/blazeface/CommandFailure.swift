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
        } catch {
            throw Self.reported(error)
        }
    }

    /// `reportingFailures` for an async body.
    func reportingFailures(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch {
            throw Self.reported(error)
        }
    }

    /// The error to rethrow: argument-parser errors unchanged, any other printed and turned into exit status 1.
    static func reported(_ error: any Error) -> any Error {
        switch error {
        case is ExitCode, is ValidationError, is CleanExit:
            return error
        default:
            printError("error: \(message(for: error))")
            return ExitCode.failure
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
