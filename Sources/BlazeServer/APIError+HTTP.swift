#if Server
import Foundation
import HTTPTypes
import Hummingbird

extension APIError: HTTPResponseError {
    /// The status as Hummingbird's type.
    var status: HTTPResponse.Status { HTTPResponse.Status(code: statusCode) }

    /// The JSON answer: `{"error": {"code", "message"}}`, with `Retry-After: 1` on a 503, and
    /// `Connection: close` on a 408 or 413 (the rest of such a body is not read: the connection is closed
    /// once the answer is written, by `CloseAfterResponseHandler`), and `Allow` on a 405.
    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [.contentType: "application/json"]
        if statusCode == 503 { headers[.retryAfter] = "1" }
        if statusCode == 408 || statusCode == 413 { headers[.connection] = "close" }
        if let allow { headers[.allow] = allow }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(body)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
#endif
