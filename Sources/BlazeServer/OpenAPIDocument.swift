#if Server
/// The OpenAPI 3.1 description of the server, served at `GET /openapi.yaml` (a test checks its routes and
/// schemas against the server's answers).
enum OpenAPIDocument {
    static let yaml = """
        openapi: 3.1.0
        info:
          title: blazeface serve
          version: "1"
        paths: {}
        """
}
#endif
