import BlazeFace
import BlazeFaceAnalysis
import BlazeJobs
import BlazeModels
import BlazeSegmentation

/// The options of a `/v1/` request, from its query (`?minScore=0.7&maxFaces=3&detector=short-range`).
/// Each endpoint takes its own set; an unknown or repeated parameter, or a bad value, is a 400.
struct RequestOptions: Hashable, Sendable {
    /// The detector; nil for the server's default.
    var detector: FaceJobOptions.DetectorSource?
    /// The minimum detection score, 0...1; nil for the default (the model's for detect, 0.5 for the mesh).
    var minScore: Float?
    /// At most this many faces, highest scores first; nil for every face.
    var maxFaces: Int?
    /// Whether the detector also looks in the picture's other three quarter turns.
    var tryRotations = false
    /// `detect`: decode a large JPEG in full rather than at the detector's `shrinkOnLoadLongSide`.
    var fullDecode = false
    /// `analyze`'s framing.
    var framing: FramingChoice = .selfie
    /// `segment`'s model.
    var segmentationModel: PersonSegmenter.Model = .general
    /// `segment`'s new background; nil for the mask.
    var background: BackgroundFill?

    /// `analyze`'s framings by name.
    enum FramingChoice: String, Hashable, Sendable, CaseIterable {
        case passport, selfie

        var framing: Framing { self == .passport ? .passport : .selfie }
    }

    /// The query parameters each endpoint takes.
    static let parameters: [Endpoint: Set<String>] = [
        .detect: ["minScore", "maxFaces", "detector", "tryRotations", "fullDecode"],
        .landmarks: ["minScore", "maxFaces", "detector", "tryRotations"],
        .analyze: ["minScore", "maxFaces", "detector", "tryRotations", "framing"],
        .segment: ["model", "background"],
    ]

    /// The defaults of every endpoint.
    init() {}

    /// The face job's options for these request options: those of the same flags of `blazeface detect`,
    /// `landmarks` or `analyze`. Settings the task does not use keep their defaults, so that tasks share jobs.
    /// - Parameters:
    ///   - task: the endpoint's task.
    ///   - configuration: the server's default detector, threads per worker and model limits.
    func jobOptions(for task: FaceTask, configuration: ServerConfiguration) -> FaceJobOptions {
        var options = FaceJobOptions(detector: detector ?? configuration.detector, minimumScore: minScore,
                                     maximumFaces: maxFaces, tryRotations: tryRotations,
                                     threadCount: configuration.threadsPerWorker)
        switch task {
        case .detect:
            if fullDecode { options.decode = .full }
        case .landmarks:
            break
        case .analyze:
            options.framing = framing.framing
        }
        return options
    }

    /// The options of `query` for `endpoint`.
    /// - Throws: `APIError.badRequest` naming the parameter and what it takes.
    init(query: [(name: String, value: String)], for endpoint: Endpoint) throws(APIError) {
        let allowed = Self.parameters[endpoint] ?? []
        var seen = Set<String>()
        for (name, value) in query {
            guard allowed.contains(name) else {
                let list = allowed.sorted().joined(separator: ", ")
                throw .badRequest("unknown query parameter '\(name)': \(endpoint.path) takes \(list.isEmpty ? "none" : list)")
            }
            guard seen.insert(name).inserted else { throw .badRequest("the query parameter '\(name)' is repeated") }
            try set(name, value)
        }
    }

    private mutating func set(_ name: String, _ value: String) throws(APIError) {
        switch name {
        case "minScore":
            guard let score = Float(value), (0...1).contains(score) else {
                throw .badRequest("minScore must be a number in 0...1, not '\(value)'")
            }
            minScore = score
        case "maxFaces":
            guard let count = Int(value), (1...1000).contains(count) else {
                throw .badRequest("maxFaces must be a whole number in 1...1000, not '\(value)'")
            }
            maxFaces = count
        case "detector":
            guard let source = FaceJobOptions.DetectorSource(name: value) else {
                let names = FaceJobOptions.DetectorSource.names.joined(separator: ", ")
                throw .badRequest("detector must be one of \(names), not '\(value)'")
            }
            detector = source
        case "tryRotations":
            guard let flag = Bool(value) else { throw .badRequest("tryRotations must be true or false, not '\(value)'") }
            tryRotations = flag
        case "fullDecode":
            guard let flag = Bool(value) else { throw .badRequest("fullDecode must be true or false, not '\(value)'") }
            fullDecode = flag
        case "framing":
            guard let choice = FramingChoice(rawValue: value) else {
                throw .badRequest("framing must be passport or selfie, not '\(value)'")
            }
            framing = choice
        case "model":
            guard let model = PersonSegmenter.Model(rawValue: value) else {
                throw .badRequest("model must be general, landscape or automatic, not '\(value)'")
            }
            segmentationModel = model
        case "background":
            let fill: BackgroundFill?
            do {
                fill = try BackgroundFill(parsing: value)
            } catch {
                throw .badRequest("background \(error)")
            }
            guard let fill else {
                throw .badRequest("background must be white, black, #RRGGBB, blur or blur:RADIUS, not '\(value)'")
            }
            background = fill
        default:
            throw .badRequest("unknown query parameter '\(name)'")
        }
    }
}

/// The analysis endpoints.
enum Endpoint: String, Hashable, Sendable, CaseIterable {
    case detect, landmarks, analyze, segment

    /// The route: `/v1/detect`, ...
    var path: String { "/v1/\(rawValue)" }
}
