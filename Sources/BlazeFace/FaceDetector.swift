import BlazeAnchors
import BlazeModels
import BlazeRuntime
import Foundation

/// Finds faces in images with a BlazeFace model: image in, faces out, in the image's own coordinates.
///
/// ```swift
/// let detector = try FaceDetector(model: .shortRange)
/// let faces = try ImageView.withPixels(rgb, width: 1280, height: 720, pixelFormat: .rgb8) { image in
///     try detector.detect(image)
/// }
/// for face in faces { print(face.boundingBox, face.score, face.keypoints.noseTip) }
/// ```
///
/// The whole pipeline (preprocessing into the model's input, inference, decoding, non-maximum
/// suppression, mapping back to the image) runs inside `detect`. With `detect(_:into:)` and a frame of the
/// same size as the last one it performs no heap allocation.
///
/// Thread safety: a detector may be shared between threads; calls to `detect` are serialized by an
/// internal lock (they reuse one set of buffers). For parallel detection, create one detector per thread.
public final class FaceDetector: @unchecked Sendable {
    /// The model file in use.
    public let modelPath: String
    public let configuration: Configuration
    public let options: Options
    /// The model's square input size in pixels (128, 192 or 256 for the BlazeFace models).
    public let inputSize: Int
    /// The effective minimum score.
    public let minimumScore: Float

    private let interpreter: Interpreter
    private let decoder: DetectionDecoder
    private let suppression: NonMaxSuppression
    private let regressorsOutput: Int
    private let scoresOutput: Int
    private let lock = NSLock()
    private var candidates: [Detection] = []
    private var kept: [Detection] = []
    private var scratch = NMSScratch()
    /// Sampling positions per model column and row (first tap, weight of the second), reused.
    private let samplingColumns: UnsafeMutablePointer<Int>
    private let samplingRows: UnsafeMutablePointer<Int>

    /// A detector for one of the BlazeFace models of the catalog.
    ///
    /// The model file is found by `ModelLocator`: in `modelsDirectory` (a folder, or the model file's own
    /// path) if given, and only there; else in the folder named by the `BLAZEFACE_MODELS` environment
    /// variable, else in a `Models` folder beside the executable, else in `Models/` under the current
    /// directory. Apps pass the folder or file they ship as a bundle resource (Documentation/Models.md).
    /// - Throws: `FaceDetectorError.modelNotFound` (saying where it looked and what to do),
    ///   `.invalidModel`, `.incompatibleModel` or `.invalidOptions`.
    public convenience init(model: Model = .shortRange, modelsDirectory: String? = nil,
                            options: Options = Options()) throws(FaceDetectorError) {
        let path: String
        do { path = try ModelLocator().locate(model.catalogName, in: modelsDirectory) } catch {
            switch error {
            case let .notFound(file, searched): throw .modelNotFound(file: file, searched: searched)
            }
        }
        try self.init(modelPath: path, configuration: model.configuration, options: options)
    }

    /// A detector for a model file you bring, with its anchors and decoding made explicit.
    public init(modelPath: String, configuration: Configuration, options: Options = Options()) throws(FaceDetectorError) {
        guard (1...Interpreter.Options.maximumThreadCount).contains(options.threadCount) else {
            throw .invalidOptions("threadCount \(options.threadCount) must be from 1 to \(Interpreter.Options.maximumThreadCount)")
        }
        guard options.iouThreshold >= 0, options.iouThreshold <= 1 else {
            throw .invalidOptions("iouThreshold \(options.iouThreshold) is outside 0...1")
        }
        if let score = options.minimumScore, !(0...1).contains(score) {
            throw .invalidOptions("minimumScore \(score) is outside 0...1")
        }
        if let maximum = options.maximumFaces, maximum < 1 {
            throw .invalidOptions("maximumFaces \(maximum) must be at least 1")
        }
        guard FileManager.default.fileExists(atPath: modelPath) else {
            throw .modelNotFound(file: (modelPath as NSString).lastPathComponent,
                                 searched: [(modelPath as NSString).deletingLastPathComponent])
        }
        let interpreter: Interpreter
        do { interpreter = try Interpreter(modelPath: modelPath, options: .init(threadCount: options.threadCount)) } catch {
            throw .invalidModel(path: modelPath, error: error)
        }
        // One 1 x S x S x 3 input; outputs: 1 x N x coords and 1 x N x 1.
        guard interpreter.inputs.count == 1, interpreter.inputs[0].shape.count == 4,
              interpreter.inputs[0].shape[0] == 1, interpreter.inputs[0].shape[3] == 3,
              interpreter.inputs[0].shape[1] == interpreter.inputs[0].shape[2] else {
            throw .incompatibleModel(path: modelPath, reason: "expected one 1xSxSx3 input, the model has \(interpreter.inputs.map(\.shape))")
        }
        let size = interpreter.inputs[0].shape[1]
        var decoding = configuration.decoding
        if let score = options.minimumScore { decoding.minScore = score }
        let anchors: [Anchor]
        do { anchors = try configuration.anchors.generateAnchors() } catch {
            throw .invalidConfiguration("\(error)")
        }
        guard configuration.anchors.inputWidth == size, configuration.anchors.inputHeight == size else {
            throw .incompatibleModel(path: modelPath, reason: "the model's input is \(size)x\(size) but the anchors are for \(configuration.anchors.inputWidth)x\(configuration.anchors.inputHeight)")
        }
        let outputs = interpreter.outputs
        guard outputs.count == 2,
              let regressors = outputs.firstIndex(where: { $0.shape.last == decoding.numCoordinates && $0.elementCount == anchors.count * decoding.numCoordinates }),
              let scores = outputs.firstIndex(where: { $0.shape.last == 1 && $0.elementCount == anchors.count }),
              regressors != scores else {
            throw .incompatibleModel(path: modelPath, reason: "expected outputs 1x\(anchors.count)x\(decoding.numCoordinates) and 1x\(anchors.count)x1, the model has \(outputs.map(\.shape))")
        }
        do { decoder = try DetectionDecoder(anchors: anchors, options: decoding) } catch {
            throw .invalidConfiguration("\(error)")
        }
        self.modelPath = modelPath
        self.configuration = configuration
        self.options = options
        self.inputSize = size
        self.minimumScore = decoding.minScore
        self.interpreter = interpreter
        self.regressorsOutput = regressors
        self.scoresOutput = scores
        self.suppression = NonMaxSuppression(algorithm: options.nms, iouThreshold: options.iouThreshold,
                                             maxDetections: options.maximumFaces)
        candidates.reserveCapacity(anchors.count)
        kept.reserveCapacity(anchors.count)
        samplingColumns = .allocate(capacity: Preprocessor.tableStride * size)
        samplingRows = .allocate(capacity: Preprocessor.tableStride * size)
    }

    deinit {
        samplingColumns.deallocate()
        samplingRows.deallocate()
    }

    /// Finds the faces in `image`, highest score first.
    public func detect(_ image: ImageView) throws(FaceDetectorError) -> [Face] {
        var faces: [Face] = []
        try detect(image, into: &faces)
        return faces
    }

    /// Finds the faces in `image` and stores them in `faces` (replacing its contents), highest score first.
    /// Allocation-free once `faces` has capacity for the result.
    public func detect(_ image: ImageView, into faces: inout [Face]) throws(FaceDetectorError) {
        lock.lock()
        defer { lock.unlock() }
        let region = Preprocessor.region(width: image.uprightWidth, height: image.uprightHeight,
                                         mode: options.preprocessing)
        do {
            try fillInput(image, region: region)
            try interpreter.invoke()
            try interpreter.withOutput(at: regressorsOutput) { regressors in
                try interpreter.withOutput(at: scoresOutput) { scores in
                    try decoder.decode(regressors: regressors, scores: scores, into: &candidates)
                }
            }
        } catch {
            // Inputs and outputs were validated at creation, so this cannot happen with a valid image.
            throw .invalidImage("inference failed: \(error)")
        }
        suppression(candidates, into: &kept, scratch: &scratch)
        faces.removeAll(keepingCapacity: true)
        // Index loop: a `for detection in kept` iterator allocates in unoptimized builds.
        for index in 0..<kept.count {
            faces.append(Self.face(from: kept[index], region: region))
        }
    }

    /// Writes the model input for `image` (the preprocessing step of `detect`). The caller holds the lock.
    private func fillInput(_ image: ImageView, region: RegionOfInterest) throws {
        let size = inputSize, range = configuration.inputRange
        let columns = samplingColumns, rows = samplingRows
        try interpreter.withInput(at: 0) { input in
            Preprocessor.fill(input.baseAddress!, size: size, image: image, region: region, range: range,
                              columns: columns, rows: rows)
        }
    }

    /// Runs only the preprocessing step of `detect` on `image` (for the benchmark's breakdown of a detect).
    package func preprocessOnly(_ image: ImageView) {
        lock.lock()
        defer { lock.unlock() }
        let region = Preprocessor.region(width: image.uprightWidth, height: image.uprightHeight,
                                         mode: options.preprocessing)
        try? fillInput(image, region: region)
    }

    /// Maps a detection (normalized to the model input) into upright image pixels.
    static func face(from d: Detection, region: RegionOfInterest) -> Face {
        let a = region.imagePoint(x: d.box.xMin, y: d.box.yMin)
        let b = region.imagePoint(x: d.box.xMax, y: d.box.yMax)
        func point(_ k: Int) -> Point {
            k < d.keypoints.count ? region.imagePoint(x: d.keypoints[k].x, y: d.keypoints[k].y) : Point(x: .nan, y: .nan)
        }
        let keypoints = FaceKeypoints(rightEye: point(0), leftEye: point(1), noseTip: point(2), mouthCenter: point(3),
                                      rightEarTragion: point(4), leftEarTragion: point(5))
        return Face(boundingBox: Rect(x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y),
                    score: d.score, keypoints: keypoints)
    }
}
