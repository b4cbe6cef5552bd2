#if Server
import ArgumentParser
import BlazeServer
import Foundation
import Logging

/// `blazeface serve`: the pipelines as an HTTP service (BlazeServer's `FaceServer`).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve detect, landmarks, analyze and segment over HTTP (models loaded once per worker).",
        discussion: """
            POST a picture's bytes (or multipart/form-data with an 'image' part) to /v1/detect, /v1/landmarks, \
            /v1/analyze or /v1/segment; options go in the query (minScore, maxFaces, detector, tryRotations, \
            framing; model and background for segment). The JSON answer is the object `blazeface ... --json` \
            prints for one image, without "path". GET /healthz, /readyz, /metrics (Prometheus) and \
            /openapi.yaml. Every error is {"error": {"code", "message"}}: 400 bad query, 401 missing API key, \
            408 body too slow, 413 body too large, 415 not a picture, 422 undecodable or too many pixels, \
            503 (with Retry-After) when every worker is busy and the queue is full, 504 past the request timeout.
            SIGTERM or SIGINT stops accepting, finishes the requests in flight (at most --shutdown-timeout) and exits 0.
            Documentation/Server.md has examples, sizing and metrics.
            """)

    @Option(help: "The address to listen on (0.0.0.0 for every interface).")
    var host = "127.0.0.1"

    @Option(help: "The TCP port (0: any free port, printed at start-up).")
    var port = 8080

    @Option(help: "Pipeline workers, each with its own models (default: the number of cores).")
    var workers = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Requests that may wait while every worker is busy; beyond them, 503 at once.")
    var maxQueue = 32

    @Option(help: "The largest request body, in bytes (413 beyond it).")
    var maxBodyBytes = 32 << 20

    @Option(help: "The largest picture, in pixels, checked before decoding (422 beyond it).")
    var maxPixels = 50_000_000

    @Option(help: ArgumentHelp("A file holding the API key: requests to /v1/ and /metrics must then send "
                               + "'Authorization: Bearer KEY'.", valueName: "file"))
    var apiKeyFile: String?

    @Option(help: "The detector when a request names none.")
    var detector = DetectorChoice(.stillPictures)

    @Option(help: "Threads each request's inference uses.")
    var threads = 1

    @Option(help: "Folder holding the models (Models/fetch.sh fetches them).")
    var modelsDir: String?

    @Option(help: "Seconds a request may take, waiting for a worker included (504 beyond them).")
    var requestTimeout = 30.0

    @Option(help: "Seconds a connection may stay silent before it is closed.")
    var idleTimeout = 10.0

    @Option(help: "Seconds a shutdown waits for the requests in flight.")
    var shutdownTimeout = 30.0

    @Option(help: "The most connections open at once; more wait in the kernel's backlog.")
    var maxConnections = 1024

    @Option(help: "Log level: trace, debug, info (one line per request), notice, warning, error, critical.")
    var logLevel = "info"

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("--log-level '\(logLevel)' is not a level") }
        for (name, value) in [("--request-timeout", requestTimeout), ("--idle-timeout", idleTimeout),
                              ("--shutdown-timeout", shutdownTimeout)]
        where !(value > 0 && value <= 86_400) {
            throw ValidationError("\(name) must be a number of seconds in (0, 86400]")
        }
        let problems = try configuration().problems
        if !problems.isEmpty { throw ValidationError(problems.joined(separator: "; ")) }
    }

    /// The server's configuration from the options (the API key read from its file).
    func configuration() throws -> ServerConfiguration {
        ServerConfiguration(
            host: host, port: port, workers: workers, maxQueue: maxQueue, maxBodyBytes: maxBodyBytes,
            maxPixels: maxPixels, apiKey: try apiKeyFile.map(Self.readKey), detector: detector.source,
            threadsPerWorker: threads, requestTimeout: .seconds(requestTimeout), idleTimeout: .seconds(idleTimeout),
            shutdownTimeout: .seconds(shutdownTimeout), maxConnections: maxConnections, modelsDirectory: modelsDir)
    }

    /// The key in `path`: a regular file of at most 4 KiB, surrounding white space dropped.
    static func readKey(_ path: String) throws -> String {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        guard let attributes, attributes[.type] as? FileAttributeType == .typeRegular else {
            throw ValidationError("--api-key-file '\(path)' is not a readable regular file")
        }
        guard let size = attributes[.size] as? Int, size <= 4096,
              let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ValidationError("--api-key-file '\(path)' must be a UTF-8 text file of at most 4 KiB")
        }
        let key = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !key.isEmpty, !key.contains(where: \.isNewline) else {
            throw ValidationError("--api-key-file '\(path)' must hold one non-empty line")
        }
        return key
    }

    func run() async throws {
        let configuration = try configuration()
        try await reportingFailures {
            try await FaceServer.run(configuration, logLevel: Logger.Level(rawValue: logLevel) ?? .info) { port in
                printError("blazeface serve: listening on http://\(configuration.host):\(port) "
                           + "(\(configuration.workers) workers, queue \(configuration.maxQueue))")
            }
        }
    }
}
#endif
