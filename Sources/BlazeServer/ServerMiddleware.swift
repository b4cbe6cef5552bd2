#if Server
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1

/// The outermost middleware: a request id (the client's `X-Request-Id` when it sends a short one, else
/// Hummingbird's), every error answered as the API's JSON, the metrics, and one log line per request
/// (method, path, status, milliseconds, the id; never a body's bytes).
struct ObservationMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    static var requestIDField: HTTPField.Name { HTTPField.Name("X-Request-Id")! }

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let given = request.headers[Self.requestIDField], (1...64).contains(given.count),
           given.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.:".contains($0)) }) {
            context.logger[metadataKey: "hb.request.id"] = .string(given)
        }
        let start = ContinuousClock.now
        metrics.inFlight(1)
        defer { metrics.inFlight(-1) }
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPParserError {
            throw error  // a malformed or abandoned request: Hummingbird answers 400 and closes
        } catch is CancellationError {
            throw CancellationError()  // the client went away, or shutdown gave up on the request
        } catch {
            response = try Self.apiError(for: error, request: request, context: context)
                .response(from: request, context: context)
        }
        response.headers[Self.requestIDField] = context.id
        let duration = ContinuousClock.now - start
        let endpoint = context.endpointPath ?? "NotFound"
        metrics.record(endpoint: endpoint, status: response.status.code, duration: duration)
        context.logger.info("request", metadata: [
            "method": "\(request.method)", "path": "\(request.uri.path)", "status": "\(response.status.code)",
            "ms": "\((duration.timeInterval * 1000).rounded())",
        ])
        return response
    }

    /// The API's error for anything a handler threw.
    static func apiError(for error: any Error, request: Request, context: Context) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case is NIOTooManyBytesError:
            return .payloadTooLarge(limit: nil)
        case let error as HTTPError where error.status == .notFound:
            guard let allow = Routes.method(of: request.uri.path) else { return .notFound(request.uri.path) }
            return .methodNotAllowed("\(request.method)", request.uri.path, allow: allow)
        case let error as HTTPError where error.status == .methodNotAllowed:
            return .methodNotAllowed("\(request.method)", request.uri.path, allow: Routes.method(of: request.uri.path) ?? "")
        case let error as HTTPError where (400..<500).contains(error.status.code):
            return .badRequest(error.body ?? error.status.reasonPhrase)
        default:
            context.logger.error("unexpected error", metadata: ["error": "\(error)"])
            return .internalError("the server failed: \(type(of: error))")
        }
    }
}

/// Requires `Authorization: Bearer KEY` on the analysis endpoints and `/metrics` (not on `/healthz`,
/// `/readyz` and `/openapi.yaml`), compared in a time that does not depend on where the two differ.
struct APIKeyMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The expected header value's bytes: `Bearer KEY`.
    let expected: [UInt8]

    init(key: String) {
        expected = Array("Bearer \(key)".utf8)
    }

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        if path.hasPrefix("/v1/") || path == "/metrics" {
            guard Self.matches(Array((request.headers[.authorization] ?? "").utf8), expected) else {
                throw APIError.unauthorized
            }
        }
        return try await next(request, context)
    }

    /// Whether `given` equals `expected`, looking at every byte of `expected` whatever `given` holds.
    static func matches(_ given: [UInt8], _ expected: [UInt8]) -> Bool {
        var difference: UInt8 = given.count == expected.count ? 0 : 1
        for index in expected.indices {
            difference |= expected[index] ^ (index < given.count ? given[index] : 0)
        }
        return difference == 0
    }
}
#endif
