#if !Server
import ArgumentParser

/// `blazeface serve` in a build without the package's Server trait (the default): says how to get it. The server's
/// dependencies (Hummingbird, SwiftNIO, swift-prometheus, ...) double the first build's time, so the tool is
/// built without them unless asked.
struct ServeUnavailableCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve detect, landmarks, analyze and segment over HTTP (needs a build with the Server trait).",
        discussion: """
            This blazeface was built without the HTTP server. Build it with the package's Server trait:
              swift build -c release --traits Server
            (or `swift run -c release --traits Server blazeface serve`). Documentation/Server.md has the rest.
            """)

    @Argument(parsing: .allUnrecognized, help: .hidden)
    var arguments: [String] = []

    func run() throws {
        printError("""
            blazeface serve: this build has no HTTP server (the package's Server trait is off by default, to keep \
            the first build lean). Build it with:
              swift build -c release --traits Server
            and run .build/release/blazeface serve again (Documentation/Server.md).
            """)
        throw ExitCode(2)
    }
}
#endif
