import BlazeFace
import BlazeFaceAnalysis
import BlazeFaceMesh
import BlazeSegmentation

/// The pipelines of one worker thread, used by that thread only: the detectors, landmarkers, assessors and
/// segmenters its requests have asked for, each kept for the next request with the same options.
///
/// The defaults (the configured detector with its default options, the attention mesh, both framings and the
/// general segmenter) are loaded at start-up, so that a missing model stops the server before it listens and
/// the first requests pay no loading. Other options (a `minScore`, a `maxFaces`, another detector) make their
/// pipeline on first use; each cache keeps at most `cacheSize` of them, the least recently used leaving first,
/// so a client sending ever new options costs model loads, not memory.
final class WorkerPipelines: @unchecked Sendable {
    /// How each pipeline is created and how many of each are kept.
    let configuration: ServerConfiguration
    static let cacheSize = 6

    private var detectors = LRUCache<DetectorKey, FaceDetector>(capacity: cacheSize)
    private var landmarkers = LRUCache<DetectorKey, FaceLandmarker>(capacity: cacheSize)
    private var segmenters = LRUCache<PersonSegmenter.Model, PersonSegmenter>(capacity: 3)
    private let assessors: [RequestOptions.FramingChoice: CaptureQualityAssessor]
    /// The background replacer.
    let replacer = BackgroundReplacer()

    /// The options that make a detector (or the landmarker around one) differ.
    struct DetectorKey: Hashable {
        var model: FaceDetector.Model
        var minScore: Float?
        var maxFaces: Int?
        var tryRotations: Bool
    }

    /// Loads the default pipelines.
    /// - Throws: the pipelines' errors (a model not found, invalid or incompatible).
    init(configuration: ServerConfiguration) throws {
        self.configuration = configuration
        var assessors: [RequestOptions.FramingChoice: CaptureQualityAssessor] = [:]
        for choice in RequestOptions.FramingChoice.allCases {
            assessors[choice] = try CaptureQualityAssessor(framing: choice.framing)
        }
        self.assessors = assessors
        let defaults = RequestOptions()
        _ = try detector(for: defaults)
        _ = try landmarker(for: defaults)
        _ = try segmenter(for: defaults)
    }

    private func key(_ options: RequestOptions) -> DetectorKey {
        DetectorKey(model: options.detector ?? configuration.detector, minScore: options.minScore,
                    maxFaces: options.maxFaces, tryRotations: options.tryRotations)
    }

    /// The detector for a request's options (as `blazeface detect` makes it).
    func detector(for options: RequestOptions) throws -> FaceDetector {
        let key = key(options)
        return try detectors.value(for: key) {
            try FaceDetector(model: key.model, modelsDirectory: configuration.modelsDirectory,
                             options: .init(minimumScore: key.minScore, maximumFaces: key.maxFaces,
                                            threadCount: configuration.threadsPerWorker,
                                            tryRotations: key.tryRotations))
        }
    }

    /// The attention-mesh landmarker for a request's options (as `blazeface landmarks` makes it).
    func landmarker(for options: RequestOptions) throws -> FaceLandmarker {
        let key = key(options)
        return try landmarkers.value(for: key) {
            try FaceLandmarker(model: .attention, modelsDirectory: configuration.modelsDirectory,
                               options: .init(detector: key.model, maximumFaces: key.maxFaces,
                                              minimumDetectionScore: key.minScore ?? 0.5,
                                              threadCount: configuration.threadsPerWorker,
                                              tryRotations: key.tryRotations))
        }
    }

    /// The analyzer for a request's options (as `blazeface analyze` makes it).
    func analyzer(for options: RequestOptions) throws -> FaceAnalyzer {
        guard let assessor = assessors[options.framing] else { throw APIError.internalError("no assessor") }
        return FaceAnalyzer(landmarker: try landmarker(for: options), assessor: assessor)
    }

    /// The segmenter for a request's model.
    func segmenter(for options: RequestOptions) throws -> PersonSegmenter {
        try segmenters.value(for: options.segmentationModel) {
            try PersonSegmenter(model: options.segmentationModel, modelsDirectory: configuration.modelsDirectory,
                                options: .init(threadCount: configuration.threadsPerWorker))
        }
    }
}

/// A few values by key; the least recently used leaves when a new one comes in full.
struct LRUCache<Key: Hashable, Value> {
    let capacity: Int
    private var entries: [(key: Key, value: Value)] = []

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The value for `key`, made by `make` when absent.
    mutating func value(for key: Key, make: () throws -> Value) rethrows -> Value {
        if let index = entries.firstIndex(where: { $0.key == key }) {
            let entry = entries.remove(at: index)
            entries.append(entry)
            return entry.value
        }
        let value = try make()
        if entries.count >= capacity { entries.removeFirst() }
        entries.append((key, value))
        return value
    }

    /// The keys, least recently used first.
    var keys: [Key] { entries.map(\.key) }
}
