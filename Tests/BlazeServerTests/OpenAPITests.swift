#if Server
@testable import BlazeServer
import BlazeImageIO
import Foundation
import Testing
import Yams

/// The OpenAPI document against the server: the same routes, methods, query parameters, statuses and error
/// codes, and schemas that real answers satisfy.
@Suite struct OpenAPITests {
    typealias Object = [String: Any]

    static func document() throws -> Object {
        try #require(try Yams.load(yaml: OpenAPIDocument.yaml) as? Object)
    }

    /// The object a `$ref` names (`#/components/...`), or the object itself.
    static func resolve(_ value: Any?, in document: Object) throws -> Object {
        let object = try #require(value as? Object, "not an object: \(String(describing: value))")
        guard let reference = object["$ref"] as? String else { return object }
        var node: Any = document
        for part in reference.dropFirst(2).split(separator: "/") {
            node = try #require((node as? Object)?[String(part)], "\(reference) does not resolve")
        }
        return try resolve(node, in: document)
    }

    @Test("The document names every picture format the decoder reads, in its description and the request body's")
    func formats() throws {
        let document = try Self.document()
        let info = try #require(document["info"] as? Object)
        let body = try Self.resolve(["$ref": "#/components/requestBodies/Picture"], in: document)
        for text in [try #require(info["description"] as? String), try #require(body["description"] as? String)] {
            let flat = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            for format in ImageFileFormat.allCases {
                #expect(flat.contains(format.listedName), "the OpenAPI document leaves out \(format.listedName): \(flat)")
            }
        }
    }

    @Test("The document's paths and methods are the server's routes")
    func routes() throws {
        let document = try Self.document()
        let paths = try #require(document["paths"] as? Object)
        var documented = Set<String>()
        for (path, operations) in paths {
            for method in try #require(operations as? Object).keys { documented.insert("\(method.uppercased()) \(path)") }
        }
        let served = Set(Endpoint.allCases.map { "POST \($0.path)" } + ["/healthz", "/readyz", "/metrics", "/openapi.yaml"].map { "GET \($0)" })
        #expect(documented == served)
        #expect(Set(paths.keys) == Routes.paths)
    }

    @Test("Each analysis endpoint documents exactly the query parameters it takes, and the statuses it answers")
    func parametersAndStatuses() throws {
        let document = try Self.document()
        let paths = try #require(document["paths"] as? Object)
        for endpoint in Endpoint.allCases {
            let operation = try #require((paths[endpoint.path] as? Object)?["post"] as? Object)
            let parameters = try #require(operation["parameters"] as? [Any]).map { try Self.resolve($0, in: document) }
            #expect(Set(parameters.compactMap { $0["name"] as? String }) == RequestOptions.parameters[endpoint], "\(endpoint)")
            #expect(parameters.allSatisfy { $0["in"] as? String == "query" })
            let statuses = Set(try #require(operation["responses"] as? Object).keys)
            #expect(statuses == ["200", "400", "401", "408", "413", "415", "422", "503", "504"], "\(endpoint)")
        }
    }

    @Test("The error codes the document lists are the ones the server can answer")
    func errorCodes() throws {
        let document = try Self.document()
        let error = try Self.resolve(["$ref": "#/components/schemas/Error"], in: document)
        let detail = try #require((error["properties"] as? Object)?["error"] as? Object)
        let code = try #require((detail["properties"] as? Object)?["code"] as? Object)
        let documented = Set(try #require(code["enum"] as? [String]))
        let imageErrors: [ImageIOError] = [.unknownFormat, .unsupported(""), .tooLarge(width: 1, height: 1, limit: 1),
                                           .zeroSize, .corrupt(""), .truncated("")]
        let answered: [APIError] = [
            .badRequest(""), .unauthorized, .notFound(""), .bodyTimedOut(after: .seconds(1)), .payloadTooLarge(limit: 1),
            .unsupportedMediaType(""), .overloaded, .shuttingDown, .timedOut(after: .seconds(1)), .internalError(""),
            .methodNotAllowed("GET", "/v1/detect"), .unprocessable(code: "unprocessable_image", ""),
        ] + imageErrors.map(APIError.image)
        #expect(documented == Set(answered.map(\.code)))
    }

    /// Checks `value` against the subset of JSON Schema the document uses (type, properties, required, items,
    /// enum, const), failing on a key the schema does not name.
    static func check(_ value: Any, against schema: Object, in document: Object, at path: String) throws {
        let schema = try resolve(schema, in: document)
        let types: [String] = (schema["type"] as? [String]) ?? [(schema["type"] as? String) ?? "any"]
        switch value {
        case is NSNull:
            #expect(types.contains("null"), "\(path): null where \(types)")
        case let object as Object:
            #expect(types.contains("object"), "\(path): an object where \(types)")
            let properties = (schema["properties"] as? Object) ?? [:]
            #expect(Set(object.keys).isSubset(of: Set(properties.keys)), "\(path): keys \(object.keys.sorted())")
            #expect(Set((schema["required"] as? [String]) ?? []).isSubset(of: Set(object.keys)), "\(path): missing keys")
            for (key, child) in object {
                if let childSchema = properties[key] { try check(child, against: try resolve(childSchema, in: document), in: document, at: "\(path).\(key)") }
            }
        case let array as [Any]:
            #expect(types.contains("array"), "\(path): an array where \(types)")
            if let items = schema["items"] { for (i, item) in array.enumerated() { try check(item, against: try resolve(items, in: document), in: document, at: "\(path)[\(i)]") } }
        case let string as String:
            #expect(types.contains("string"), "\(path): a string where \(types)")
            if let values = schema["enum"] as? [String] { #expect(values.contains(string), "\(path): \(string)") }
        case let number as NSNumber:
            let integral = number.doubleValue.rounded() == number.doubleValue
            #expect(types.contains("number") || (types.contains("integer") && integral), "\(path): \(number) where \(types)")
            if let values = schema["enum"] as? [Int] { #expect(values.contains(number.intValue), "\(path): \(number)") }
        default:
            Issue.record("\(path): unexpected \(type(of: value))")
        }
    }

    @Test("Real answers (a group photo, with rotations reported) satisfy the documented schemas")
    func schemas() async throws {
        let document = try Self.document()
        let service = try FaceServiceTests.service()
        defer { service.shutdown(timeout: .seconds(10)) }
        let bytes = try FaceServiceTests.sampleBytes("t1.jpg")
        var options = RequestOptions()
        options.tryRotations = true
        let cases: [(Endpoint, String, FaceService.SegmentOutput)] = [
            (.detect, "DetectionReport", .png), (.landmarks, "LandmarksReport", .png),
            (.analyze, "AnalysisReport", .png), (.segment, "SegmentationReport", .json),
        ]
        for (endpoint, schema, output) in cases {
            let answer = try await service.handle(endpoint, image: bytes, options: endpoint == .segment ? RequestOptions() : options,
                                                  output: output)
            let json = try JSONSerialization.jsonObject(with: Data(answer.body))
            try Self.check(json, against: ["$ref": "#/components/schemas/\(schema)"], in: document, at: schema)
        }
        let error = try JSONSerialization.jsonObject(with: JSONEncoder().encode(APIError.overloaded.body))
        try Self.check(error, against: ["$ref": "#/components/schemas/Error"], in: document, at: "Error")
    }
}
#endif
