@testable import BlazeServer
import Testing

/// The query of the `/v1/` endpoints: each parameter's values, and the 400s.
@Suite struct RequestOptionsTests {
    static func parse(_ query: [(String, String)], _ endpoint: Endpoint = .analyze) throws(APIError) -> RequestOptions {
        try RequestOptions(query: query.map { (name: $0.0, value: $0.1) }, for: endpoint)
    }

    @Test("Every parameter's values")
    func values() throws {
        let options = try Self.parse([("minScore", "0.25"), ("maxFaces", "3"), ("detector", "short-range"),
                                      ("tryRotations", "true"), ("framing", "passport")])
        #expect(options.minScore == 0.25 && options.maxFaces == 3 && options.detector == .catalog(.shortRange))
        #expect(options.tryRotations && options.framing == .passport)
        #expect(try Self.parse([("detector", "front")]).detector == .catalog(.shortRange), "an alias")
        #expect(try Self.parse([("detector", "photo")]).detector == .stillPictures)
        #expect(try Self.parse([("detector", "back")]).detector == .catalog(.backCamera))
        let segment = try Self.parse([("model", "landscape"), ("background", "#00FF00")], .segment)
        #expect(segment.segmentationModel == .landscape && segment.background == .color(red: 0, green: 255, blue: 0))
        #expect(try Self.parse([]) == RequestOptions())
    }

    @Test("Bad values, unknown, repeated and misplaced parameters are 400s that name the parameter")
    func refusals() {
        let cases: [([(String, String)], Endpoint, String)] = [
            ([("minScore", "1.5")], .detect, "minScore"), ([("minScore", "nan")], .detect, "minScore"),
            ([("maxFaces", "0")], .detect, "maxFaces"), ([("maxFaces", "9999999999999999999999")], .detect, "maxFaces"),
            ([("detector", "face-mesh")], .detect, "detector"), ([("detector", "/etc/passwd")], .detect, "detector"),
            ([("tryRotations", "yes")], .detect, "tryRotations"), ([("framing", "portrait")], .analyze, "framing"),
            ([("framing", "selfie")], .detect, "framing"), ([("model", "huge")], .segment, "model"),
            ([("background", "beach.jpg")], .segment, "background"), ([("background", "#12")], .segment, "background"),
            ([("path", "/etc/passwd")], .detect, "path"), ([("maxFaces", "1"), ("maxFaces", "2")], .detect, "repeated"),
            ([("minScore", "0.5")], .segment, "minScore"),
            ([("fullDecode", "1")], .detect, "fullDecode"), ([("fullDecode", "true")], .analyze, "fullDecode"),
        ]
        for (query, endpoint, word) in cases {
            do {
                _ = try Self.parse(query, endpoint)
                Issue.record("\(query) on \(endpoint) was accepted")
            } catch {
                #expect(error.statusCode == 400 && error.code == "bad_request")
                #expect(error.message.contains(word), "\(error.message)")
            }
        }
    }

    @Test("The per-worker cache keeps the most recently used pipelines")
    func lruCache() {
        var cache = LRUCache<Int, String>(capacity: 2)
        var made = 0
        for key in [1, 2, 1, 3, 1, 2] { _ = cache.value(for: key) { made += 1; return "\(key)" } }
        #expect(made == 4, "1, 2, 3, then 2 again after it left")
        #expect(cache.keys == [1, 2])
    }
}
