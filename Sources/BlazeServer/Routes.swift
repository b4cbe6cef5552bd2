#if Server
import HTTPTypes
import Hummingbird
import NIOCore

/// The server's routes over a `FaceService`.
enum Routes {
    /// Every route's path (a request for one of them with another method is a 405).
    static let paths: Set<String> = Set(Endpoint.allCases.map(\.path) + ["/healthz", "/readyz", "/metrics", "/openapi.yaml"])

    /// The one method a route's path takes (`POST` for the analysis endpoints, `GET` for the others), or nil
    /// for a path that is not a route.
    static func method(of path: String) -> String? {
        guard paths.contains(path) else { return nil }
        return path.hasPrefix("/v1/") ? "POST" : "GET"
    }

    /// The router: the middleware (observation, then the API key when one is set) and every route.
    static func router(service: FaceService, metrics: ServerMetrics) -> Router<BasicRequestContext> {
        let configuration = service.configuration
        let router = Router()
        router.add(middleware: ObservationMiddleware(metrics: metrics))
        if let key = configuration.apiKey { router.add(middleware: APIKeyMiddleware(key: key)) }

        router.get("/healthz") { _, _ in json(#"{"status":"ok"}"#) }
        router.get("/readyz") { _, _ in
            let load = service.load
            return json(#"{"status":"ready","waiting":\#(load.waiting),"running":\#(load.running)}"#)
        }
        router.get("/metrics") { _, _ in
            let load = service.load
            metrics.queue(waiting: load.waiting, running: load.running)
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(bytes: metrics.render())))
        }
        router.get("/openapi.yaml") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml"],
                     body: .init(byteBuffer: ByteBuffer(string: OpenAPIDocument.yaml)))
        }
        for endpoint in Endpoint.allCases {
            router.post(RouterPath(endpoint.path)) { request, _ in
                try await analyze(request, endpoint: endpoint, service: service, metrics: metrics)
            }
        }
        return router
    }

    /// One `/v1/` request: its options (400 before the body is read), its picture, the service's answer.
    static func analyze(_ request: Request, endpoint: Endpoint, service: FaceService,
                        metrics: ServerMetrics) async throws -> Response {
        let query = request.uri.queryParameters.map { (name: String($0.key), value: String($0.value)) }
        let options = try RequestOptions(query: query, for: endpoint)
        let configuration = service.configuration
        let image = try await ImageBody.read(request, limit: configuration.maxBodyBytes,
                                             timeout: configuration.requestTimeout)
        let answer = try await service.handle(endpoint, image: image, options: options,
                                              output: segmentOutput(accepting: request.headers[.accept]))
        metrics.record(endpoint: endpoint.path, decodeSeconds: answer.decodeSeconds,
                       inferenceSeconds: answer.inferenceSeconds)
        return Response(status: .ok, headers: [.contentType: answer.contentType],
                        body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
    }

    /// `segment`'s answer for an `Accept` header: JSON when it asks for JSON and not for PNG, else PNG.
    static func segmentOutput(accepting accept: String?) -> FaceService.SegmentOutput {
        guard let accept = accept?.lowercased() else { return .png }
        return accept.contains("application/json") && !accept.contains("image/png") ? .json : .png
    }

    private static func json(_ text: String) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
#endif
