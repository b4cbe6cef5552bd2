import BlazeFace
import BlazeJobs

/// What `blazeface serve` is started with: where it listens, how much work it takes, what it refuses.
public struct ServerConfiguration: Sendable {
    /// The address to bind: loopback by default, so that nothing outside the machine reaches the server
    /// unless asked (`0.0.0.0` for every interface).
    public var host: String
    /// The TCP port; 0 lets the system choose (the chosen one is reported at start-up).
    public var port: Int
    /// Pipeline workers: threads, each with its own models, running one request at a time.
    public var workers: Int
    /// Requests that may wait while every worker is busy; beyond them the server answers 503 at once.
    public var maxQueue: Int
    /// The largest request body accepted, in bytes (413 beyond it).
    public var maxBodyBytes: Int
    /// The largest picture accepted, in pixels, checked from its header before it is decoded (422 beyond it).
    public var maxPixels: Int
    /// The bearer token every `/v1/` and `/metrics` request must carry; nil for none.
    public var apiKey: String?
    /// The detector used when a request names none.
    public var detector: FaceJobOptions.DetectorSource
    /// Threads each model's inference uses within one request.
    public var threadsPerWorker: Int
    /// The longest a request may take, waiting in the queue included (504 beyond it).
    public var requestTimeout: Duration
    /// How long a client may take to send its request head and body once connected (a slow or stalled
    /// client is disconnected after it).
    public var idleTimeout: Duration
    /// How long a shutdown (SIGTERM) waits for the requests in flight before it gives up on them.
    public var shutdownTimeout: Duration
    /// The most connections open at once; beyond them new connections wait in the kernel's backlog.
    public var maxConnections: Int
    /// The folder of the models; nil for the usual places (`BLAZEFACE_MODELS`, `Models` beside the
    /// executable, `./Models`).
    public var modelsDirectory: String?

    /// A configuration; each parameter sets the property of the same name.
    /// - Parameters:
    ///   - host: the address to bind.
    ///   - port: the TCP port (0: any free one).
    ///   - workers: pipeline workers.
    ///   - maxQueue: requests that may wait.
    ///   - maxBodyBytes: the largest request body.
    ///   - maxPixels: the largest picture.
    ///   - apiKey: the bearer token required, or nil.
    ///   - detector: the default detector.
    ///   - threadsPerWorker: inference threads per request.
    ///   - requestTimeout: the longest a request may take.
    ///   - idleTimeout: the longest a connection may stay silent.
    ///   - shutdownTimeout: the longest a shutdown waits for requests in flight.
    ///   - maxConnections: the most connections open at once.
    ///   - modelsDirectory: the folder of the models.
    public init(host: String = "127.0.0.1", port: Int = 8080, workers: Int = 2, maxQueue: Int = 32,
                maxBodyBytes: Int = 32 << 20, maxPixels: Int = 50_000_000, apiKey: String? = nil,
                detector: FaceJobOptions.DetectorSource = .stillPictures, threadsPerWorker: Int = 1,
                requestTimeout: Duration = .seconds(30), idleTimeout: Duration = .seconds(10),
                shutdownTimeout: Duration = .seconds(30), maxConnections: Int = 1024, modelsDirectory: String? = nil) {
        self.host = host
        self.port = port
        self.workers = workers
        self.maxQueue = maxQueue
        self.maxBodyBytes = maxBodyBytes
        self.maxPixels = maxPixels
        self.apiKey = apiKey
        self.detector = detector
        self.threadsPerWorker = threadsPerWorker
        self.requestTimeout = requestTimeout
        self.idleTimeout = idleTimeout
        self.shutdownTimeout = shutdownTimeout
        self.maxConnections = maxConnections
        self.modelsDirectory = modelsDirectory
    }

    /// What is wrong with the configuration, one sentence per problem (empty when it is usable).
    public var problems: [String] {
        var found: [String] = []
        if !(0...65535).contains(port) { found.append("the port must be in 0...65535, not \(port)") }
        if !(1...256).contains(workers) { found.append("workers must be in 1...256, not \(workers)") }
        if !(0...100_000).contains(maxQueue) { found.append("the queue must hold 0...100000 requests, not \(maxQueue)") }
        if maxBodyBytes < 1 { found.append("the body limit must be at least 1 byte") }
        if maxPixels < 1 { found.append("the pixel limit must be at least 1") }
        if !(1...64).contains(threadsPerWorker) { found.append("threads per worker must be in 1...64") }
        for (name, value) in [("request", requestTimeout), ("idle", idleTimeout), ("shutdown", shutdownTimeout)]
        where value <= .zero {
            found.append("the \(name) timeout must be positive")
        }
        if !(1...1_000_000).contains(maxConnections) { found.append("connections must be in 1...1000000") }
        if let apiKey, apiKey.isEmpty { found.append("the API key is empty") }
        return found
    }
}
