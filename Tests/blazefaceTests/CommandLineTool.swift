import BlazeTestSupport
import Foundation

/// Runs the built `blazeface` executable as a subprocess.
enum CommandLineTool {
    /// What a run printed and how it ended.
    struct Result: CustomStringConvertible {
        var status: Int32
        var standardOutput: String
        var standardError: String

        var description: String {
            "exit status \(status)\n--- stdout ---\n\(standardOutput)\n--- stderr ---\n\(standardError)"
        }
    }

    struct NotFound: Error, CustomStringConvertible {
        var description: String
    }

    /// The `blazeface` executable: next to the test bundle (same build), else the newest one under the
    /// repository's `.build` folder.
    static func executable() throws -> URL {
        let manager = FileManager.default
        var bundleNeighbours: [URL] = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        if let executable = Bundle.main.executableURL { bundleNeighbours.append(executable.deletingLastPathComponent()) }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            bundleNeighbours.append(bundle.bundleURL.deletingLastPathComponent())
        }
        for directory in bundleNeighbours {
            let candidate = directory.appendingPathComponent("blazeface")
            if manager.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        let build = TestResources.root.appendingPathComponent(".build")
        var candidates = ["debug", "release"].map { build.appendingPathComponent($0).appendingPathComponent("blazeface") }
        for triple in (try? manager.contentsOfDirectory(atPath: build.path)) ?? [] {
            for configuration in ["debug", "release"] {
                candidates.append(build.appendingPathComponent(triple).appendingPathComponent(configuration)
                    .appendingPathComponent("blazeface"))
            }
        }
        let existing = candidates.filter { manager.isExecutableFile(atPath: $0.path) }
        func modified(_ url: URL) -> Date {
            ((try? manager.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date) ?? .distantPast
        }
        guard let newest = existing.max(by: { modified($0) < modified($1) }) else {
            throw NotFound(description: "no blazeface executable next to the test bundle or under \(build.path); run swift build")
        }
        return newest
    }

    /// Runs `blazeface` with `arguments` (and `standardInput` on its standard input, else the test's) until it exits. Output goes through temporary files, so a long
    /// report cannot fill a pipe and block the child; the wait suspends instead of blocking a thread of
    /// the test runner's pool.
    static func run(_ arguments: [String], standardInput: String? = nil) async throws -> Result {
        let scratch = try TemporaryDirectory()
        let outURL = scratch.url.appendingPathComponent("stdout"), errURL = scratch.url.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        process.standardOutput = out
        process.standardError = err
        if let standardInput {
            let inURL = scratch.url.appendingPathComponent("stdin")
            try Data(standardInput.utf8).write(to: inURL)
            process.standardInput = try FileHandle(forReadingFrom: inURL)
        }
        let status = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int32, any Error>) in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        try out.close()
        try err.close()
        return Result(status: status,
                      standardOutput: try String(contentsOf: outURL, encoding: .utf8),
                      standardError: try String(contentsOf: errURL, encoding: .utf8))
    }
}
