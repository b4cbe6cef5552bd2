import BlazeImageIO

/// Every error the server answers: an HTTP status, a stable machine-readable code and a message for people,
/// sent as `{"error": {"code": ..., "message": ...}}`.
struct APIError: Error, Equatable, Sendable {
    /// The HTTP status code.
    var statusCode: Int
    /// A stable code (`payload_too_large`, `image_too_large`, ...), listed in the OpenAPI document.
    var code: String
    /// What was wrong, in words.
    var message: String
    /// For a 405: the methods the path takes (the answer's `Allow` header).
    var allow: String?

    static func badRequest(_ message: String) -> APIError {
        APIError(statusCode: 400, code: "bad_request", message: message)
    }

    static let unauthorized = APIError(
        statusCode: 401, code: "unauthorized", message: "this server needs an API key: send 'Authorization: Bearer KEY'")

    static func notFound(_ path: String) -> APIError {
        APIError(statusCode: 404, code: "not_found", message: "no such endpoint: \(path)")
    }

    static func methodNotAllowed(_ method: String, _ path: String, allow: String = "") -> APIError {
        APIError(statusCode: 405, code: "method_not_allowed", message: "\(method) is not allowed on \(path)", allow: allow)
    }

    static func bodyTimedOut(after timeout: Duration) -> APIError {
        APIError(statusCode: 408, code: "request_timeout", message: "the request body did not arrive within \(timeout)")
    }

    static func payloadTooLarge(limit: Int?) -> APIError {
        APIError(statusCode: 413, code: "payload_too_large",
                 message: "the request body exceeds the limit" + (limit.map { " of \($0) bytes" } ?? ""))
    }

    static func unsupportedMediaType(_ message: String) -> APIError {
        APIError(statusCode: 415, code: "unsupported_media_type", message: message)
    }

    static func unprocessable(code: String, _ message: String) -> APIError {
        APIError(statusCode: 422, code: code, message: message)
    }

    static let overloaded = APIError(
        statusCode: 503, code: "overloaded", message: "every worker is busy and the queue is full: retry shortly")

    static let shuttingDown = APIError(statusCode: 503, code: "shutting_down", message: "the server is shutting down")

    static func timedOut(after timeout: Duration) -> APIError {
        APIError(statusCode: 504, code: "timeout", message: "the request took longer than \(timeout)")
    }

    static func internalError(_ message: String) -> APIError {
        APIError(statusCode: 500, code: "internal", message: message)
    }

    /// The answer for a picture that could not be decoded: 415 for a format that is not read, 422 for a
    /// damaged, empty or too large one.
    static func image(_ error: ImageIOError) -> APIError {
        switch error {
        case .unknownFormat, .unsupported:
            return unsupportedMediaType(error.description)
        case .tooLarge:
            return unprocessable(code: "image_too_large", error.description)
        case .zeroSize:
            return unprocessable(code: "empty_image", error.description)
        case .corrupt, .truncated, .cannotRead, .notARegularFile, .fileTooLarge, .cannotWrite:
            return unprocessable(code: "undecodable_image", error.description)
        }
    }

    /// The error as the API's JSON object.
    var body: ErrorBody { ErrorBody(error: .init(code: code, message: message)) }

    /// `{"error": {"code", "message"}}`.
    struct ErrorBody: Codable, Equatable, Sendable {
        var error: Detail
        /// The error's code and message.
        struct Detail: Codable, Equatable, Sendable {
            var code: String
            var message: String
        }
    }
}
