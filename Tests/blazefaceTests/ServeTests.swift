#if Server
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `blazeface serve` as users run it: a child process on a loopback port. Its answers equal the CLI's JSON,
/// overload gives 503s and not timeouts, and SIGTERM lets the requests in flight finish and exits 0.
@Suite(.serialized) struct ServeTests {
    static let models = DetectTests.models

    /// A running `blazeface serve`, stopped (SIGKILL if need be) when the test ends.
    final class Server: @unchecked Sendable {
        let process = Process()
        let port: Int
        private let errors = Pipe()

        init(_ arguments: [String]) async throws {
            process.executableURL = try CommandLineTool.executable()
            process.arguments = ["serve", "--port", "0", "--models-dir", ServeTests.models, "--log-level", "warning"] + arguments
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let reader = errors.fileHandleForReading
            var text = ""
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline, !text.contains("listening on") {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            guard let range = text.range(of: #"127\.0\.0\.1:[0-9]+"#, options: .regularExpression),
                  let port = Int(text[range].split(separator: ":")[1]) else {
                process.terminate()
                throw CommandLineTool.NotFound(description: "the server did not start: \(text)")
            }
            self.port = port
        }

        deinit {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }

        /// POSTs `body` to `path` and returns the status, the body and the Retry-After header.
        func post(_ path: String, _ body: Data, timeout: TimeInterval = 120) async throws -> (Int, Data, String?) {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!, timeoutInterval: timeout)
            request.httpMethod = "POST"
            request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
            request.httpBody = body
            let (data, response) = try await URLSession.shared.data(for: request)
            let http = try #require(response as? HTTPURLResponse)
            return (http.statusCode, data, http.value(forHTTPHeaderField: "Retry-After"))
        }

        /// GETs `path`'s JSON object.
        func get(_ path: String) async throws -> [String: Any] {
            let (data, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)\(path)")!)
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }

        /// Sends SIGTERM and waits (at most `seconds`) for the exit status.
        func terminate(within seconds: Double) async throws -> Int32? {
            kill(process.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
            return process.isRunning ? nil : process.terminationStatus
        }
    }

    static func picture(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: try DetectTests.sample(name)))
    }

    @Test("detect, landmarks and analyze answer the CLI's JSON object for each picture, without its path")
    func sameAsCLI() async throws {
        let server = try await Server(["--workers", "2"])
        let names = ["astronaut.png", "t1.jpg", "obama.jpg"]
        let paths = try names.map(DetectTests.sample)
        for verb in ["detect", "landmarks", "analyze"] {
            let cli = try await CommandLineTool.run([verb, "--json", "--models-dir", Self.models] + paths)
            #expect(cli.status == 0, "\(cli)")
            let images = try DetectTests.images(cli.standardOutput)
            for (index, name) in names.enumerated() {
                let (status, body, _) = try await server.post("/v1/\(verb)", try Self.picture(name))
                #expect(status == 200)
                var expected = images[index]
                expected["path"] = nil
                let answer = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
                #expect(NSDictionary(dictionary: answer).isEqual(to: expected), "\(verb) \(name)")
            }
        }
        #expect(try await server.terminate(within: 30) == 0)
    }

    @Test("Overload over a socket: 503 with Retry-After at once for what the queue cannot hold, 200 for the rest")
    func overload() async throws {
        let server = try await Server(["--workers", "1", "--max-queue", "1"])
        let group = try Self.picture("t1.jpg")
        let results = try await withThrowingTaskGroup(of: (Int, String?, Duration).self) { tasks in
            for _ in 0..<8 {
                tasks.addTask {
                    let start = ContinuousClock.now
                    let (status, _, retry) = try await server.post("/v1/analyze", group)
                    return (status, retry, ContinuousClock.now - start)
                }
            }
            var all: [(Int, String?, Duration)] = []
            for try await result in tasks { all.append(result) }
            return all
        }
        let codes = results.map(\.0)
        #expect(Set(codes).isSubset(of: [200, 503]), "\(codes)")
        #expect(codes.contains(200) && codes.contains(503), "\(codes)")
        let refused = results.filter { $0.0 == 503 }
        #expect(refused.allSatisfy { $0.1 == "1" })
        #expect(try await server.terminate(within: 30) == 0)
    }

    @Test("SIGTERM: the requests in flight finish with 200, then the server exits 0 and refuses connections")
    func gracefulShutdown() async throws {
        let server = try await Server(["--workers", "1", "--max-queue", "8"])
        let group = try Self.picture("t1.jpg")
        let inFlight = (0..<4).map { _ in Task { try await server.post("/v1/analyze", group).0 } }
        var load: [String: Any] = [:]
        for _ in 0..<500 {  // until one request runs and the others wait
            load = try await server.get("/readyz")
            if load["running"] as? Int == 1, (load["waiting"] as? Int ?? 0) >= 2 { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(load["running"] as? Int == 1 && (load["waiting"] as? Int ?? 0) >= 2, "\(load)")
        let status = try await server.terminate(within: 60)
        var codes: [Int] = []
        for request in inFlight { codes.append(try await request.value) }
        #expect(codes == [200, 200, 200, 200])
        #expect(status == 0)
        await #expect(throws: (any Error).self) { _ = try await server.post("/v1/detect", group, timeout: 5) }
    }
}
#endif
