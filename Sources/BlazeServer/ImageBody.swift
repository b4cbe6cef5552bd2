#if Server
import HTTPTypes
import Hummingbird
// The multipart parser is reached through `Converter`, the type swift-openapi-generator's servers use (its
// "Generated" SPI, hence the minor-version pin in Package.swift).
@_spi(Generated) import OpenAPIRuntime
import NIOCore

/// The picture a `/v1/` request carries: the body itself (`image/*`, `application/octet-stream`, no content
/// type, or `application/x-www-form-urlencoded`, which is what `curl --data-binary @photo.jpg` sends), or the
/// `image` part of a `multipart/form-data` body. The picture's format is recognised from its bytes.
enum ImageBody {
    /// Reads the request's picture.
    /// - Parameters:
    ///   - request: the request.
    ///   - limit: the most body bytes accepted.
    ///   - timeout: the longest the body may take to arrive.
    /// - Returns: the picture file's bytes.
    /// - Throws: `APIError`: 413 beyond `limit` (before reading, when `Content-Length` says so), 408 when the
    ///   body is too slow, 415 for another media type, 400 for a multipart body without an `image` part.
    static func read(_ request: Request, limit: Int, timeout: Duration) async throws -> [UInt8] {
        let mediaType = request.headers[.contentType].flatMap { MediaType(from: $0) }
        if let mediaType, !mediaType.isType(.multipartForm), mediaType.type != .image,
           !mediaType.isType(.applicationBinary), !mediaType.isType(.applicationUrlEncoded) {
            throw APIError.unsupportedMediaType(
                "the body is \(mediaType): send the picture's bytes (image/*, application/octet-stream) or "
                    + "multipart/form-data with an 'image' part")
        }
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            throw APIError.payloadTooLarge(limit: limit)
        }
        let body = try await collect(request.body, limit: limit, timeout: timeout)
        guard let mediaType, mediaType.isType(.multipartForm) else { return Array(buffer: body) }
        guard let boundary = mediaType.parameter, boundary.name.lowercased() == "boundary", !boundary.value.isEmpty else {
            throw APIError.badRequest("a multipart/form-data body needs a boundary parameter")
        }
        return try await imagePart(of: body, boundary: boundary.value)
    }

    /// The body, at most `limit` bytes, within `timeout`.
    private static func collect(_ body: RequestBody, limit: Int, timeout: Duration) async throws -> ByteBuffer {
        try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask {
                do {
                    return try await body.collect(upTo: limit)
                } catch is NIOTooManyBytesError {
                    throw APIError.payloadTooLarge(limit: limit)
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let buffer = first else {
                throw APIError.bodyTimedOut(after: timeout)
            }
            return buffer
        }
    }

    /// The bytes of the first part named `image`, through swift-openapi-runtime's multipart parser (which
    /// reports malformed input as errors; MultipartKit 4's traps on a header name byte of 0x80 or more).
    private static func imagePart(of body: ByteBuffer, boundary: String) async throws -> [UInt8] {
        let converter = Converter(configuration: .init())
        do {
            let parts = try converter.getRequiredRequestBodyAsMultipart(
                MultipartBody<MultipartRawPart>.self, from: HTTPBody(Array(buffer: body)), transforming: { $0 },
                boundary: boundary, allowsUnknownParts: true, requiredExactlyOncePartNames: [],
                requiredAtLeastOncePartNames: [], atMostOncePartNames: [], zeroOrMoreTimesPartNames: [],
                decoding: { $0 })
            var count = 0
            for try await part in parts {
                count += 1
                let bytes = try await [UInt8](collecting: part.body, upTo: body.readableBytes)
                if part.name == "image" { return bytes }
            }
            throw APIError.badRequest(count == 0 ? "the multipart/form-data body holds no part"
                                                 : "the multipart/form-data body has no part named 'image'")
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError.badRequest("the multipart/form-data body is malformed: \(error)")
        }
    }
}
#endif
