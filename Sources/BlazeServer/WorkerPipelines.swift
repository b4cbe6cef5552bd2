import BlazeJobs
import BlazeSegmentation

/// The pipelines of one worker thread, used by that thread only: a `FaceJob` per set of face options its
/// requests have asked for, and the segmenters, each kept for the next request with the same options.
///
/// The defaults (the configured detector with its default options, the attention mesh, the selfie framing and
/// the general segmenter) are loaded at start-up, so that a missing model stops the server before it listens
/// and the first requests pay no loading. Other options (a `minScore`, a `maxFaces`, another detector) make
/// their job on first use; each cache keeps at most `cacheSize` of them, the least recently used leaving
/// first, so a client sending ever new options costs model loads, not memory.
final class WorkerPipelines: @unchecked Sendable {
    /// How each pipeline is created and how many of each are kept.
    let configuration: ServerConfiguration
    static let cacheSize = 6

    private var jobs = LRUCache<FaceJobOptions, FaceJob>(capacity: cacheSize)
    private var segmenters = LRUCache<PersonSegmenter.Model, PersonSegmenter>(capacity: 3)
    /// The background replacer.
    let replacer = BackgroundReplacer()

    /// Loads the default pipelines.
    /// - Throws: the pipelines' errors (a model not found, invalid or incompatible).
    init(configuration: ServerConfiguration) throws {
        self.configuration = configuration
        let defaults = RequestOptions()
        for task in FaceTask.allCases { try job(for: defaults, task: task).prepare(task) }
        _ = try segmenter(for: defaults)
    }

    /// The job for a request's options and task: the options `blazeface detect`, `landmarks` and `analyze` make
    /// from the same settings, with the server's detector and threads per worker.
    func job(for options: RequestOptions, task: FaceTask) -> FaceJob {
        let key = options.jobOptions(for: task, configuration: configuration)
        return jobs.value(for: key) { FaceJob(options: key, modelsDirectory: configuration.modelsDirectory) }
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
