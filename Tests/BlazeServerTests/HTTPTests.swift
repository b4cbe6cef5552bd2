#if Server
@testable import BlazeServer
import BlazeFace
import BlazeImageIO
import BlazeReports
import BlazeTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// The HTTP layer in-process (HummingbirdTesting's router client, and its live client on a loopback socket):
/// every status the API documents, the API key, multipart bodies, the metrics and the request id.
@Suite struct HTTPTests {
    static let models = TestResources.modelsDirectory.path

    /// A test application over a service with `change` applied to a one-worker configuration.
    static func app(_ change: (inout ServerConfiguration) -> Void = { _ in }) throws
        -> (app: some ApplicationProtocol, service: FaceService) {
        var configuration = ServerConfiguration(port: 0, workers: 1, maxQueue: 2, modelsDirectory: models)
        change(&configuration)
        let metrics = ServerMetrics()
        let service = try FaceService(configuration: configuration) { metrics.queue(waiting: $0, running: $1) }
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        return (FaceServer.application(service: service, metrics: metrics, logger: logger), service)
    }

    static func sample(_ name: String) throws -> ByteBuffer {
        ByteBuffer(bytes: try FaceServiceTests.sampleBytes(name))
    }

    /// The `{"error": {"code", "message"}}` of a response.
    static func errorCode(_ response: TestResponse) throws -> String {
        let body = try JSONDecoder().decode(APIError.ErrorBody.self, from: Data(buffer: response.body))
        #expect(!body.error.message.isEmpty)
        #expect(response.headers[.contentType] == "application/json")
        return body.error.code
    }

    @Test("detect answers the library's report; the request id is echoed when given")
    func detect() async throws {
        let (app, service) = try Self.app()
        defer { service.shutdown(timeout: .seconds(10)) }
        let bytes = try FaceServiceTests.sampleBytes("astronaut.png")
        let image = try ImageDecoder.decode(data: bytes)
        let detector = try FaceDetector(model: .fullRange, modelsDirectory: Self.models)
        let expected = DetectionReport(width: 512, height: 512, faces: try image.withView { try detector.detect($0) })
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/detect", method: .post,
                                     headers: [.contentType: "image/png", HTTPField.Name("X-Request-Id")!: "abc-1"],
                                     body: ByteBuffer(bytes: bytes)) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                #expect(response.headers[HTTPField.Name("X-Request-Id")!] == "abc-1")
                let json = [UInt8](try ReportJSON.compact(expected))
                #expect(Array(buffer: response.body) == json)
            }
        }
    }

    @Test("multipart/form-data: the image part is read; a body without one is a 400")
    func multipart() async throws {
        let (app, service) = try Self.app()
        defer { service.shutdown(timeout: .seconds(10)) }
        let bytes = try FaceServiceTests.sampleBytes("astronaut.png")
        @Sendable func form(_ name: String) -> ByteBuffer {
            var body = ByteBuffer()
            body.writeString("--XyZ\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n")
            body.writeString("--XyZ\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"a.png\"\r\n")
            body.writeString("Content-Type: image/png\r\n\r\n")
            body.writeBytes(bytes)
            body.writeString("\r\n--XyZ--\r\n")
            return body
        }
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/detect", method: .post,
                                     headers: [.contentType: "multipart/form-data; boundary=XyZ"], body: form("image")) { response in
                #expect(response.status == .ok)
                let report = try JSONDecoder().decode(DetectionReport.self, from: Data(buffer: response.body))
                #expect(report.width == 512 && report.faces.count == 1)
            }
            try await client.execute(uri: "/v1/detect", method: .post,
                                     headers: [.contentType: "multipart/form-data; boundary=XyZ"], body: form("photo")) { response in
                #expect(response.status == .badRequest)
                let code = try Self.errorCode(response)
                #expect(code == "bad_request")
            }
            try await client.execute(uri: "/v1/detect", method: .post,
                                     headers: [.contentType: "multipart/form-data"], body: form("image")) { response in
                #expect(response.status == .badRequest)
            }
            // Header names with bytes of 0x80 and more (they crashed MultipartKit 4.7.1's parser), a part
            // without its end, garbage: 400s, and the server goes on.
            let hostile: [[UInt8]] = [
                Array("--X\r\n".utf8) + [0x80] + Array(": a\r\n\r\nx\r\n--X--\r\n".utf8),
                Array("--X\r\nn\u{E9}me: a\r\n\r\nx\r\n--X--\r\n".utf8),
                Array("--X\r\nContent-Disposition: form-data; name=\"image\"\r\n\r\nabc".utf8),
                Array("garbage".utf8), [],
            ]
            for body in hostile {
                try await client.execute(uri: "/v1/detect", method: .post,
                                         headers: [.contentType: "multipart/form-data; boundary=X"],
                                         body: ByteBuffer(bytes: body)) { response in
                    #expect(response.status == .badRequest, "\(body.prefix(24))")
                }
            }
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
        }
    }

    @Test("Every documented error: 400, 404, 405, 413, 415, 422, with its JSON")
    func errors() async throws {
        let (app, service) = try Self.app { $0.maxBodyBytes = 1_000_000; $0.maxPixels = 200_000 }
        defer { service.shutdown(timeout: .seconds(10)) }
        let png = try Self.sample("astronaut.png")  // 512 x 512: above the pixel limit
        try await app.test(.router) { client in
            let cases: [(String, HTTPRequest.Method, HTTPFields, ByteBuffer?, HTTPResponse.Status, String)] = [
                ("/v1/detect?maxFaces=0", .post, [:], png, .badRequest, "bad_request"),
                ("/v1/detect?path=/etc/passwd", .post, [:], png, .badRequest, "bad_request"),
                ("/v2/detect", .post, [:], png, .notFound, "not_found"),
                ("/v1/detect", .get, [:], nil, .methodNotAllowed, "method_not_allowed"),
                ("/v1/detect", .post, [:], ByteBuffer(repeating: 0xFF, count: 1_000_001), .contentTooLarge, "payload_too_large"),
                ("/v1/detect", .post, [.contentType: "text/plain"], png, .unsupportedMediaType, "unsupported_media_type"),
                ("/v1/detect", .post, [.contentType: "application/json"], ByteBuffer(string: "{}"),
                 .unsupportedMediaType, "unsupported_media_type"),
                ("/v1/detect", .post, [:], ByteBuffer(string: "hello, no picture"), .unsupportedMediaType,
                 "unsupported_media_type"),
                ("/v1/detect", .post, [:], ByteBuffer(string: "8BPS\u{0}\u{1}"), .unsupportedMediaType, "unsupported_media_type"),
                ("/v1/detect", .post, [:], ByteBuffer(string: "GIF89a...."), .unprocessableContent, "undecodable_image"),
                ("/v1/detect", .post, [:], ByteBuffer(bytes: [0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 1]),
                 .unprocessableContent, "undecodable_image"),
                ("/v1/detect", .post, [:], ByteBuffer(), .unprocessableContent, "undecodable_image"),
                ("/v1/landmarks", .post, [.contentType: "image/png"], png, .unprocessableContent, "image_too_large"),
                ("/v1/segment?background=sky", .post, [:], png, .badRequest, "bad_request"),
            ]
            for (uri, method, headers, body, status, code) in cases {
                try await client.execute(uri: uri, method: method, headers: headers, body: body) { response in
                    #expect(response.status == status, "\(uri)")
                    let found = try Self.errorCode(response)
                    #expect(found == code, "\(uri)")
                    if status == .contentTooLarge { #expect(response.headers[.connection] == "close") }
                    if status == .methodNotAllowed { #expect(response.headers[.allow] == "POST") }
                }
            }
        }
    }

    @Test("A full queue answers 503 with Retry-After at once; the admitted requests succeed")
    func overload() async throws {
        let (app, service) = try Self.app { $0.workers = 1; $0.maxQueue = 0 }
        defer { service.shutdown(timeout: .seconds(30)) }
        let group = try Self.sample("t1.jpg")
        try await app.test(.router) { client in
            let statuses = try await withThrowingTaskGroup(of: (HTTPResponse.Status, String?).self) { tasks in
                for _ in 0..<6 {
                    tasks.addTask {
                        try await client.execute(uri: "/v1/analyze", method: .post, body: group) { response in
                            (response.status, response.headers[.retryAfter])
                        }
                    }
                }
                var all: [(HTTPResponse.Status, String?)] = []
                for try await status in tasks { all.append(status) }
                return all
            }
            let codes = statuses.map(\.0.code)
            let refused = statuses.filter { $0.0.code == 503 }
            let retryAfter = refused.map(\.1)
            #expect(Set(codes).isSubset(of: [200, 503]), "\(codes)")
            #expect(!refused.isEmpty && refused.count < 6, "\(codes)")
            #expect(retryAfter.allSatisfy { $0 == "1" }, "\(retryAfter)")
        }
    }

    @Test("A request past its deadline is a 504")
    func deadline() async throws {
        let (app, service) = try Self.app { $0.requestTimeout = .milliseconds(1) }
        defer { service.shutdown(timeout: .seconds(30)) }
        let group = try Self.sample("t1.jpg")
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/analyze", method: .post, body: group) { response in
                #expect(response.status == .gatewayTimeout)
                let code = try Self.errorCode(response)
                #expect(code == "timeout")
            }
        }
    }

    @Test("With an API key, /v1/ and /metrics need 'Authorization: Bearer KEY'; health and the spec do not")
    func apiKey() async throws {
        let (app, service) = try Self.app { $0.apiKey = "s3cret-key" }
        defer { service.shutdown(timeout: .seconds(10)) }
        let png = try Self.sample("astronaut.png")
        try await app.test(.router) { client in
            for header in [nil, "Bearer wrong", "Bearer s3cret-ke", "Bearer s3cret-key2", "s3cret-key", "bearer s3cret-key"] {
                let headers: HTTPFields = header.map { [.authorization: $0] } ?? [:]
                try await client.execute(uri: "/v1/detect", method: .post, headers: headers, body: png) { response in
                    #expect(response.status == .unauthorized, "\(header ?? "none")")
                    let code = try Self.errorCode(response)
                #expect(code == "unauthorized")
                }
            }
            try await client.execute(uri: "/metrics", method: .get) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: "/v1/detect", method: .post, headers: [.authorization: "Bearer s3cret-key"],
                                     body: png) { #expect($0.status == .ok) }
            for path in ["/healthz", "/readyz", "/openapi.yaml"] {
                try await client.execute(uri: path, method: .get) { #expect($0.status == .ok, "\(path)") }
            }
        }
        #expect(APIKeyMiddleware<BasicRequestContext>.matches(Array("ab".utf8), Array("ab".utf8)))
        #expect(!APIKeyMiddleware<BasicRequestContext>.matches(Array("abc".utf8), Array("ab".utf8)))
        #expect(!APIKeyMiddleware<BasicRequestContext>.matches([], Array("ab".utf8)))
    }

    @Test("/metrics counts requests by endpoint and status and has the pipeline's histograms")
    func metrics() async throws {
        let (app, service) = try Self.app()
        defer { service.shutdown(timeout: .seconds(10)) }
        let png = try Self.sample("astronaut.png")
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/detect", method: .post, body: png) { #expect($0.status == .ok) }
            try await client.execute(uri: "/v1/detect?minScore=2", method: .post, body: png) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/nowhere", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .ok)
                let text = String(buffer: response.body)
                for line in [#"blazeface_http_requests_total{endpoint="/v1/detect",status="200"} 1"#,
                             #"blazeface_http_requests_total{endpoint="/v1/detect",status="400"} 1"#,
                             #"blazeface_http_requests_total{endpoint="NotFound",status="404"} 1"#,
                             #"blazeface_decode_duration_seconds_count 1"#,
                             #"blazeface_inference_duration_seconds_count{endpoint="/v1/detect"} 1"#,
                             "blazeface_queue_waiting_requests 0.0", "blazeface_queue_running_requests 0.0"] {
                    #expect(text.contains(line), "\(line)")
                }
            }
        }
    }

    @Test("Over a loopback socket: the answer, keep-alive, and a 413 that closes the connection")
    func live() async throws {
        let (app, service) = try Self.app { $0.maxBodyBytes = 1 << 20 }
        defer { service.shutdown(timeout: .seconds(10)) }
        let png = try Self.sample("astronaut.png")
        try await app.test(.live) { client in
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/v1/analyze?framing=passport", method: .post, body: png) { response in
                #expect(response.status == .ok)
                let report = try JSONDecoder().decode(AnalysisReport.self, from: Data(buffer: response.body))
                #expect(report.faces.count == 1 && report.faces[0].hints.contains("tooSmall"))
            }
            try await client.execute(uri: "/v1/detect", method: .post,
                                     body: ByteBuffer(repeating: 0, count: 2 << 20)) { response in
                #expect(response.status == .contentTooLarge)
                #expect(response.headers[.connection] == "close")
            }
        }
    }
}
#endif
