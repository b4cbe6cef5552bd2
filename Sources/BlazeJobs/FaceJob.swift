import BlazeFace
import BlazeFaceAnalysis
import BlazeFaceMesh
import BlazeImageIO
import BlazeModels
import BlazeReports

/// One picture file's whole face job: decode it (scaled or not), run the pipeline, map what was found back to
/// the full upright picture, and make the report. `blazeface detect`/`landmarks`/`analyze`, the server's
/// `/v1/detect`, `/v1/landmarks` and `/v1/analyze`, and the bench's library runs all go through it, so they
/// agree to the bit on the same picture and options.
///
/// A job makes its pipelines from its `FaceJobOptions` on first use and keeps them. It is meant for one thread
/// at a time (the pipelines serialize their own calls); make one job per worker thread.
///
/// Boxes and points follow MediaPipe's rule whatever the decode: as the model gives them, never clipped to the
/// picture. A face cut by an edge has a box that extends past it.
public final class FaceJob: @unchecked Sendable {
    /// The job's options.
    public let options: FaceJobOptions
    /// The folder of the catalog models; nil to search `ModelLocator`'s folders.
    public let modelsDirectory: String?

    private var detectorStorage: FaceDetector?
    private var meshDetectorStorage: FaceDetector?
    private var landmarkerStorage: FaceLandmarker?
    private var analyzerStorage: FaceAnalyzer?

    /// A job; it loads nothing until a task or `prepare(_:)` needs it.
    /// - Parameters:
    ///   - options: the detector, decode and task settings.
    ///   - modelsDirectory: the folder of the catalog models; nil to search the default folders.
    public init(options: FaceJobOptions = FaceJobOptions(), modelsDirectory: String? = nil) {
        self.options = options
        self.modelsDirectory = modelsDirectory
    }

    /// Loads the models `task` needs now, so that a missing or bad model fails before any picture is read.
    /// - Parameter task: the task to get ready for.
    /// - Throws: the pipeline's error (`FaceDetectorError`, `FaceLandmarkerError`, `CaptureQualityError`).
    public func prepare(_ task: FaceTask) throws {
        switch task {
        case .detect: _ = try detector()
        case .landmarks: _ = try landmarker()
        case .analyze: _ = try analyzer()
        }
    }

    /// The detector of the `detect` task.
    /// - Returns: the job's detector, loaded on the first call.
    /// - Throws: `FaceDetectorError` when the model cannot be found or loaded, or the options are invalid.
    public func detector() throws -> FaceDetector {
        if let detectorStorage { return detectorStorage }
        let detector = try makeDetector(options.detectorOptions)
        detectorStorage = detector
        return detector
    }

    /// The landmarker of the `landmarks` task, on the job's detector (with the mesh tasks' default score).
    /// - Returns: the job's landmarker, loaded on the first call.
    /// - Throws: `FaceLandmarkerError` when a model cannot be found or loaded, or the options are invalid.
    public func landmarker() throws -> FaceLandmarker {
        if let landmarkerStorage { return landmarkerStorage }
        let landmarker = try makeLandmarker(options.mesh)
        landmarkerStorage = landmarker
        return landmarker
    }

    /// The analyzer of the `analyze` task: the 478-point attention mesh and the options' framing.
    /// - Returns: the job's analyzer, loaded on the first call.
    /// - Throws: `FaceLandmarkerError` or `CaptureQualityError`.
    public func analyzer() throws -> FaceAnalyzer {
        if let analyzerStorage { return analyzerStorage }
        let landmarker = options.mesh == .attention ? try landmarker() : try makeLandmarker(.attention)
        let analyzer = FaceAnalyzer(landmarker: landmarker,
                                    assessor: try CaptureQualityAssessor(framing: options.framing))
        analyzerStorage = analyzer
        return analyzer
    }

    // MARK: The tasks

    /// The faces of a picture.
    /// - Parameters:
    ///   - picture: the picture file, or its bytes.
    ///   - limits: the largest file and image accepted.
    /// - Returns: the faces in the full upright picture's pixels, its report, and the decoded picture.
    /// - Throws: `ImageIOError` when the picture cannot be read; `FaceDetectorError` when detection fails.
    public func detect(_ picture: PictureSource, limits: ImageDecodingOptions = .init()) throws
        -> FaceJobResult<[Face], DetectionReport> {
        let detector = try detector()
        let side: Int?
        switch options.decode {
        case .full: side = nil
        case .shrinkOnLoad(let minimumLongSide): side = minimumLongSide ?? detector.shrinkOnLoadLongSide
        }
        return try run(picture, limits: limits, minimumLongSide: side) { scaled in
            let found = try scaled.image.withView { try detector.detect($0) }
            let faces = scaled.scaleDenominator == 1 ? found : found.map { $0.mapped(scaled.fullSizePoint) }
            return (faces, DetectionReport(width: scaled.fullUprightWidth, height: scaled.fullUprightHeight,
                                           faces: faces, reportsRotation: options.tryRotations))
        }
    }

    /// The face meshes of a picture (decoded in full).
    /// - Parameters:
    ///   - picture: the picture file, or its bytes.
    ///   - limits: the largest file and image accepted.
    /// - Returns: the meshes in the upright picture's pixels, their report, and the decoded picture.
    /// - Throws: `ImageIOError` when the picture cannot be read; `FaceLandmarkerError` when the mesh fails.
    public func landmarks(_ picture: PictureSource, limits: ImageDecodingOptions = .init()) throws
        -> FaceJobResult<[FaceLandmarks], LandmarksReport> {
        let landmarker = try landmarker()
        return try run(picture, limits: limits, minimumLongSide: nil) { scaled in
            let faces = try scaled.image.withView { try landmarker.detect($0) }
            return (faces, LandmarksReport(width: scaled.fullUprightWidth, height: scaled.fullUprightHeight,
                                           faces: faces, reportsRotation: options.tryRotations))
        }
    }

    /// The head poses, expressions and capture quality of a picture's faces (decoded in full).
    /// - Parameters:
    ///   - picture: the picture file, or its bytes.
    ///   - limits: the largest file and image accepted.
    /// - Returns: the analysis, its report, and the decoded picture.
    /// - Throws: `ImageIOError` when the picture cannot be read; the analyzer's errors.
    public func analyze(_ picture: PictureSource, limits: ImageDecodingOptions = .init()) throws
        -> FaceJobResult<AnalyzedImage, AnalysisReport> {
        let analyzer = try analyzer()
        return try run(picture, limits: limits, minimumLongSide: nil) { scaled in
            let analysis = try scaled.image.withView { try analyzer.analyze($0) }
            return (analysis, AnalysisReport(width: scaled.fullUprightWidth, height: scaled.fullUprightHeight,
                                             analysis: analysis, reportsRotation: options.tryRotations))
        }
    }

    // MARK: Making the pipelines

    private func run<Found, Report>(_ picture: PictureSource, limits: ImageDecodingOptions, minimumLongSide: Int?,
                                    _ body: (ScaledImage) throws -> (Found, Report)) throws
        -> FaceJobResult<Found, Report> {
        let start = ContinuousClock.now
        let scaled = try picture.decode(limits: limits, minimumLongSide: minimumLongSide)
        let decoded = ContinuousClock.now
        let (found, report) = try body(scaled)
        return FaceJobResult(picture: scaled, found: found, report: report, decodeTime: decoded - start,
                             inferenceTime: ContinuousClock.now - decoded)
    }

    private func makeDetector(_ detectorOptions: FaceDetector.Options) throws(FaceDetectorError) -> FaceDetector {
        switch options.detector {
        case .catalog(let model):
            return try FaceDetector(model: model, modelsDirectory: modelsDirectory, options: detectorOptions)
        case .models(let models):
            return try FaceDetector(models: models, modelsDirectory: modelsDirectory, options: detectorOptions)
        case .file(let path):
            return try FaceDetector(modelPath: path, configuration: try DetectorFile.configuration(forModelAt: path),
                                    options: detectorOptions)
        }
    }

    /// A landmarker on the job's detector, as `FaceLandmarker(model:modelsDirectory:options:)` makes it for a
    /// catalog detector.
    private func makeLandmarker(_ mesh: FaceLandmarker.Model) throws(FaceLandmarkerError) -> FaceLandmarker {
        let detector: FaceDetector
        if let meshDetectorStorage {
            detector = meshDetectorStorage
        } else {
            do {
                detector = try makeDetector(options.meshDetectorOptions)
            } catch {
                if case let .pipeline(.modelNotFound(file, searched)) = error {
                    throw .modelNotFound(file: file, searched: searched)
                }
                throw .detectionFailed(error)
            }
            meshDetectorStorage = detector
        }
        return try FaceLandmarker(model: mesh, modelsDirectory: modelsDirectory, detector: detector,
                                  options: options.landmarkerOptions)
    }
}

/// The face tasks a `FaceJob` runs.
public enum FaceTask: String, Hashable, Sendable, CaseIterable {
    /// Faces: boxes, scores, six keypoints.
    case detect
    /// Face meshes: 468 or 478 points per face.
    case landmarks
    /// Head pose, eyes, smile and capture quality per face.
    case analyze
}

/// What a `FaceJob` task gives back.
public struct FaceJobResult<Found, Report> {
    /// The picture as decoded: its pixels (at 1/`scaleDenominator` of the full size with shrink-on-load),
    /// orientation and full size. Draw on `picture.image` when the decode was full.
    public var picture: ScaledImage
    /// What the pipeline found, in the full upright picture's pixels.
    public var found: Found
    /// The report of the picture (`DetectionReport`, `LandmarksReport`, `AnalysisReport`).
    public var report: Report
    /// The time spent reading and decoding the picture.
    public var decodeTime: Duration
    /// The time spent in the pipeline and making the report.
    public var inferenceTime: Duration
}

extension FaceJobResult: Sendable where Found: Sendable, Report: Sendable {}

/// A picture to decode: a file, or a file's bytes already in memory.
public enum PictureSource: Sendable {
    /// The file at this path (read within `ImageDecodingOptions.maximumFileBytes`).
    case file(String)
    /// A whole picture file's bytes.
    case bytes([UInt8])

    /// The decoded picture, at the smallest scale keeping `minimumLongSide` pixels (nil: in full).
    func decode(limits: ImageDecodingOptions, minimumLongSide: Int?) throws(ImageIOError) -> ScaledImage {
        switch (self, minimumLongSide) {
        case (.file(let path), let side?):
            return try ImageDecoder.decodeScaled(contentsOf: path, minimumLongSide: side, options: limits)
        case (.bytes(let bytes), let side?):
            return try ImageDecoder.decodeScaled(data: bytes, minimumLongSide: side, options: limits)
        case (.file(let path), nil):
            return ScaledImage(fullDecode: try ImageDecoder.decode(contentsOf: path, options: limits))
        case (.bytes(let bytes), nil):
            return ScaledImage(fullDecode: try ImageDecoder.decode(data: bytes, options: limits))
        }
    }
}

extension ScaledImage {
    /// A full decode, as a scaled decode at 1/1.
    init(fullDecode image: DecodedImage) {
        self.init(image: image, scaleDenominator: 1, fullWidth: image.width, fullHeight: image.height)
    }
}
