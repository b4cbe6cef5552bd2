import BlazeFace
import BlazeFaceAnalysis
import BlazeFaceMesh
import BlazeImageIO
import BlazeJobs
import BlazeModels
import BlazeReports
import BlazeSegmentation
import Foundation

/// The server's work without HTTP: a pool of workers, each with its own pipelines, and what one request
/// asks of them (decode the picture within the limits, run the endpoint's pipeline, encode the answer).
final class FaceService: Sendable {
    /// What the service was started with.
    let configuration: ServerConfiguration
    private let pool: WorkPool<WorkerPipelines>

    /// What a request gets back: its body, the body's media type, and where the time went.
    struct Answer: Sendable {
        /// The body's bytes.
        var body: [UInt8]
        /// `application/json` or `image/png`.
        var contentType: String
        /// Seconds spent decoding the picture.
        var decodeSeconds: Double
        /// Seconds spent in the pipeline (and drawing a new background).
        var inferenceSeconds: Double
    }

    /// What `segment` answers.
    enum SegmentOutput: Sendable {
        /// The mask (or the picture with its new background) as PNG.
        case png
        /// The `SegmentationReport` as JSON.
        case json
    }

    /// Loads every worker's default pipelines and starts the workers.
    /// - Parameters:
    ///   - configuration: the server's configuration.
    ///   - onLoad: called with the waiting and running job counts whenever they change.
    /// - Throws: the first pipeline error (a model missing or invalid): the server must not start then.
    init(configuration: ServerConfiguration,
         onLoad: @escaping @Sendable (_ waiting: Int, _ running: Int) -> Void = { _, _ in }) throws {
        self.configuration = configuration
        let workers = try (0..<configuration.workers).map { _ in try WorkerPipelines(configuration: configuration) }
        pool = WorkPool(workers: workers, queueCapacity: configuration.maxQueue, onChange: onLoad)
    }

    /// The numbers of requests waiting for a worker and running now.
    var load: (waiting: Int, running: Int) { pool.load }

    /// Runs one request on a worker.
    /// - Parameters:
    ///   - endpoint: which pipeline.
    ///   - image: the picture file's bytes.
    ///   - options: the request's options.
    ///   - output: what `segment` answers.
    /// - Returns: the answer.
    /// - Throws: `APIError`: 503 when the queue is full, 504 past the deadline, 415/422 for the picture,
    ///   500 for a pipeline failure.
    func handle(_ endpoint: Endpoint, image: [UInt8], options: RequestOptions,
                output: SegmentOutput = .png) async throws(APIError) -> Answer {
        let maxPixels = configuration.maxPixels
        do {
            return try await pool.run(timeout: configuration.requestTimeout) { pipelines in
                try Self.answer(endpoint, image: image, options: options, output: output, maxPixels: maxPixels,
                                pipelines: pipelines)
            }
        } catch let error as APIError {
            throw error
        } catch let rejection as PoolRejection {
            switch rejection {
            case .queueFull: throw .overloaded
            case .shuttingDown: throw .shuttingDown
            case .timedOut, .cancelled: throw .timedOut(after: configuration.requestTimeout)
            }
        } catch {
            if let problem = Self.imageProblem(error) { throw .unprocessable(code: "unprocessable_image", problem) }
            throw .internalError("the pipeline failed: \(error)")
        }
    }

    /// The message of a pipeline failure caused by the picture itself (one the pipelines cannot sample), nil
    /// for any other failure.
    static func imageProblem(_ error: any Error) -> String? {
        let shared: PipelineError?
        switch error {
        case FaceDetectorError.pipeline(let inner), FaceLandmarkerError.pipeline(let inner),
             FaceLandmarkerError.detectionFailed(.pipeline(let inner)), PersonSegmenterError.pipeline(let inner):
            shared = inner
        default:
            shared = nil
        }
        guard case .invalidImage(let message)? = shared else { return nil }
        return "the picture cannot be analysed: \(message)"
    }

    /// Stops taking requests and waits for the workers to finish the admitted ones.
    /// - Parameter timeout: the longest wait.
    /// - Returns: whether every worker ended in time.
    @discardableResult
    func shutdown(timeout: Duration) -> Bool {
        pool.shutdown(timeout: timeout)
    }

    /// One request's work, on a worker thread: the face endpoints through the worker's `FaceJob` (as the CLI
    /// runs them), `segment` here.
    private static func answer(_ endpoint: Endpoint, image bytes: [UInt8], options: RequestOptions,
                               output: SegmentOutput, maxPixels: Int, pipelines: WorkerPipelines) throws -> Answer {
        let limits = ImageDecodingOptions(maximumPixelCount: maxPixels)
        switch endpoint {
        case .detect:
            let job = pipelines.job(for: options, task: .detect)
            return try answer { try job.detect(.bytes(bytes), limits: limits) }
        case .landmarks:
            let job = pipelines.job(for: options, task: .landmarks)
            return try answer { try job.landmarks(.bytes(bytes), limits: limits) }
        case .analyze:
            let job = pipelines.job(for: options, task: .analyze)
            return try answer { try job.analyze(.bytes(bytes), limits: limits) }
        case .segment:
            return try segment(bytes, options: options, output: output, limits: limits, pipelines: pipelines)
        }
    }

    /// A face job's report as JSON; a picture the job cannot decode is the client's error.
    private static func answer<Found, Report: Encodable>(_ run: () throws -> FaceJobResult<Found, Report>) throws
        -> Answer {
        let result: FaceJobResult<Found, Report>
        do {
            result = try run()
        } catch let error as ImageIOError {  // the decode: the pipelines throw their own errors
            throw APIError.image(error)
        }
        return Answer(body: try json(result.report), contentType: "application/json",
                      decodeSeconds: result.decodeTime.timeInterval, inferenceSeconds: result.inferenceTime.timeInterval)
    }

    private static func segment(_ bytes: [UInt8], options: RequestOptions, output: SegmentOutput,
                                limits: ImageDecodingOptions, pipelines: WorkerPipelines) throws -> Answer {
        let start = ContinuousClock.now
        let image: DecodedImage
        do {
            image = try ImageDecoder.decode(data: bytes, options: limits)
        } catch {
            throw APIError.image(error)
        }
        let decoded = ContinuousClock.now
        let (width, height) = (image.uprightWidth, image.uprightHeight)
        let segmenter = try pipelines.segmenter(for: options)
        let mask = try image.withView { try segmenter.segment($0) }
        var contentType = "application/json"
        let body: [UInt8]
        switch (output, options.background) {
        case (.json, _):
            body = try json(SegmentationReport(width: width, height: height,
                                               model: segmenter.modelChoice(width: width, height: height),
                                               personShare: mask.personShare))
        case (.png, nil):
            body = try PNGEncoder.encode(mask.grayscaleImage())
            contentType = "image/png"
        case (.png, let fill?):
            let picture = try image.withView {
                try pipelines.replacer.replaceBackground(of: $0, mask: mask,
                                                         with: fill.background(width: width, height: height))
            }
            body = try PNGEncoder.encode(picture)
            contentType = "image/png"
        }
        return Answer(body: body, contentType: contentType, decodeSeconds: (decoded - start).timeInterval,
                      inferenceSeconds: (ContinuousClock.now - decoded).timeInterval)
    }

    private static func json(_ report: some Encodable) throws -> [UInt8] {
        [UInt8](try ReportJSON.compact(report))
    }
}
