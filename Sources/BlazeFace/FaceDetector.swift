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
/// same size as the last one it performs no heap allocation (one model, without `tryRotations`).
///
/// Thread safety: a detector may be shared between threads; calls to `detect` are serialized by its model
/// session's lock (they reuse one set of buffers). For parallel detection, create one detector per thread.
public final class FaceDetector: @unchecked Sendable {
    /// The model file in use.
    public let modelPath: String
    /// The anchors, decoding, input range and output names in use.
    public let configuration: Configuration
    /// The options the detector was created with.
    public let options: Options
    /// The model's square input size in pixels (128, 192 or 256 for the BlazeFace models).
    public let inputSize: Int
    /// The effective minimum score.
    public let minimumScore: Float

    /// The shortest long side, in pixels, a picture may be decoded at for this detector when a decoder can
    /// deliver it smaller (shrink-on-load: libjpeg's DCT scaling through `ImageDecoder.decodeScaled`, an
    /// Image I/O thumbnail of the full picture on Apple platforms): 9 times the input side (1,728 pixels for
    /// full-range). Measured on the samples upscaled to 12 and 24 MP, a 1/2 decode at this size keeps every
    /// face found, with boxes within the full decode's own noise (Documentation/Imaging.md), except faces
    /// scored at the threshold and 12 to 28 input pixels wide, which a one-pixel shift of the full decode
    /// moves or loses as well. Coordinates found in the smaller picture must be mapped back to the full one.
    /// For a detector of several models, the largest input's: 9 times 192 for the still-picture ensemble.
    public var shrinkOnLoadLongSide: Int { 9 * companions.reduce(inputSize) { max($0, $1.inputSize) } }

    /// The other models of a detector made with `init(models:modelsDirectory:options:)`, each run on the same
    /// image after this one, their faces merged with its own; empty for one model.
    let companions: [FaceDetector]
    /// Scratch for a companion's faces, used only while `ensembleLock` is held.
    private var companionFaces: [Face] = []
    /// Serializes the runs of an ensemble (each model's session has its own lock; the merge needs one too).
    private let ensembleLock = NSLock()

    /// The model, its input conversion (MediaPipe's detector sampling, zero border, letterbox) and the lock
    /// that serializes `detect` calls; the buffers below are used only while it is held.
    private let session: ModelSession
    private let decoder: DetectionDecoder
    private let suppression: NonMaxSuppression
    private let regressors: ModelSession.Output
    private let scores: ModelSession.Output
    private var candidates: [Detection] = []
    private var kept: [Detection] = []
    private var scratch = NMSScratch()

    /// A detector for one of the BlazeFace models of the catalog.
    ///
    /// The model file is found by `ModelLocator`: in `modelsDirectory` (a folder, or the model file's own
    /// path) if given, and only there; else in the folder named by the `BLAZEFACE_MODELS` environment
    /// variable, else in a `Models` folder beside the executable, else in `Models/` under the current
    /// directory. Apps pass the folder or file they ship as a bundle resource (Documentation/Models.md).
    /// - Parameters:
    ///   - model: the catalog detector (default `.shortRange`).
    ///   - modelsDirectory: a folder holding the model file, or the file's own path; nil searches the default
    ///     folders.
    ///   - options: the detector's options.
    /// - Throws: `FaceDetectorError.modelNotFound` (saying where it looked and what to do),
    ///   `.invalidModel`, `.incompatibleModel` or `.invalidOptions`.
    public convenience init(model: Model = .shortRange, modelsDirectory: String? = nil,
                            options: Options = Options()) throws(FaceDetectorError) {
        let path = try FaceDetectorError.locateModel(model.catalogName, in: modelsDirectory)
        try self.init(modelPath: path, configuration: model.configuration, options: options)
    }

    /// A detector for a model file you bring, with its anchors and decoding made explicit.
    ///
    /// The outputs are the ones `configuration` names, or else the two whose shapes fit the anchors
    /// (`1 x anchors x numCoordinates` and `1 x anchors x 1`).
    /// - Parameters:
    ///   - modelPath: the .tflite file's path.
    ///   - configuration: the model's anchors, decoding, input range and output names.
    ///   - options: the detector's options.
    /// - Throws: `FaceDetectorError.modelNotFound`, `.invalidModel`, `.incompatibleModel`,
    ///   `.invalidConfiguration` or `.invalidOptions`.
    public convenience init(modelPath: String, configuration: Configuration,
                            options: Options = Options()) throws(FaceDetectorError) {
        try self.init(modelPath: modelPath, configuration: configuration, options: options, companions: [])
    }

    /// A detector on one model file, followed by `companions` (see `init(models:modelsDirectory:options:)`).
    init(modelPath: String, configuration: Configuration, options: Options,
         companions: [FaceDetector]) throws(FaceDetectorError) {
        try options.validate(as: FaceDetectorError.self)
        let session: ModelSession
        do {
            session = try ModelSession(
                modelPath: modelPath,
                conversion: .init(range: configuration.inputRange, fit: .letterbox, border: .zero, sampling: .detector),
                threadCount: options.threadCount, limits: options.modelLimits)
        } catch {
            throw .session(error, modelPath: modelPath)
        }
        guard session.inputWidth == session.inputHeight else {
            throw .incompatibleModel(path: modelPath, reason: "expected a square 1xSxSx3 input, the model's is \(session.inputHeight)x\(session.inputWidth)")
        }
        let size = session.inputWidth
        var decoding = configuration.decoding
        if let score = options.minimumScore { decoding.minScore = score }
        let anchors: [Anchor]
        do { anchors = try configuration.anchors.generateAnchors() } catch {
            throw .invalidConfiguration("\(error)")
        }
        guard configuration.anchors.inputWidth == size, configuration.anchors.inputHeight == size else {
            throw .incompatibleModel(path: modelPath, reason: "the model's input is \(size)x\(size) but the anchors are for \(configuration.anchors.inputWidth)x\(configuration.anchors.inputHeight)")
        }
        (regressors, scores) = try Self.outputs(of: session, configuration: configuration,
                                                anchors: anchors.count, coordinates: decoding.numCoordinates)
        do { decoder = try DetectionDecoder(anchors: anchors, options: decoding) } catch {
            throw .invalidConfiguration("\(error)")
        }
        self.modelPath = modelPath
        self.configuration = configuration
        self.options = options
        self.inputSize = size
        self.minimumScore = decoding.minScore
        self.session = session
        self.suppression = NonMaxSuppression(algorithm: options.nms, iouThreshold: options.iouThreshold,
                                             maxDetections: options.maximumFaces)
        self.companions = companions
        candidates.reserveCapacity(anchors.count)
        kept.reserveCapacity(anchors.count)
    }

    /// The regressor and score outputs: by the configuration's names, else by shape; each checked against
    /// the anchors.
    private static func outputs(of session: ModelSession, configuration: Configuration, anchors: Int,
                                coordinates: Int) throws(FaceDetectorError) -> (ModelSession.Output, ModelSession.Output) {
        let path = session.modelPath
        let expected = "outputs 1x\(anchors)x\(coordinates) and 1x\(anchors)x1"
        func fits(_ output: ModelSession.Output, _ last: Int) -> Bool {
            output.shape.last == last && output.elementCount == anchors * last
        }
        let regressors: ModelSession.Output?, scores: ModelSession.Output?
        do {
            regressors = try configuration.regressorsOutput.map { name throws(ModelSessionError) in try session.output(named: name) }
                ?? session.outputs.first { fits($0, coordinates) }
            scores = try configuration.scoresOutput.map { name throws(ModelSessionError) in try session.output(named: name) }
                ?? session.outputs.first { fits($0, 1) }
        } catch {
            throw .incompatibleModel(path: path, reason: error.description)
        }
        guard session.outputs.count == 2, let regressors, let scores, regressors != scores,
              fits(regressors, coordinates), fits(scores, 1) else {
            throw .incompatibleModel(path: path, reason: "expected \(expected), the model has \(session.outputs.map(\.shape))")
        }
        return (regressors, scores)
    }

    /// Finds the faces in `image`, highest score first.
    /// - Parameter image: the image, read upright (its orientation applied); borrowed for the call only.
    /// - Returns: the faces, in the upright image's pixels.
    /// - Throws: `FaceDetectorError.invalidImage` when the image cannot be sampled.
    public func detect(_ image: ImageView) throws(FaceDetectorError) -> [Face] {
        var faces: [Face] = []
        try detect(image, into: &faces)
        return faces
    }

    /// Finds the faces in `image` and stores them in `faces` (replacing its contents), highest score first.
    /// Allocation-free once `faces` has capacity for the result (unless `options.tryRotations` is set, or the
    /// detector runs several models: the merge allocates).
    /// - Parameters:
    ///   - image: the image, read upright (its orientation applied); borrowed for the call only.
    ///   - faces: receives the faces, in the upright image's pixels.
    /// - Throws: `FaceDetectorError.invalidImage` when the image cannot be sampled.
    public func detect(_ image: ImageView, into faces: inout [Face]) throws(FaceDetectorError) {
        if options.tryRotations {
            try detectInEveryTurn(image, into: &faces)
        } else {
            try detectUpright(image, into: &faces)
        }
    }

    /// One detection on the upright image: each model's, merged.
    private func detectUpright(_ image: ImageView, into faces: inout [Face]) throws(FaceDetectorError) {
        guard !companions.isEmpty else { return try detectWithOwnModel(image, into: &faces) }
        ensembleLock.lock()
        defer { ensembleLock.unlock() }
        try detectWithOwnModel(image, into: &faces)
        for companion in companions {
            try companion.detectWithOwnModel(image, into: &companionFaces)
            faces.append(contentsOf: companionFaces)
        }
        faces = Self.merged(faces, iouThreshold: Double(options.iouThreshold), maximumFaces: options.maximumFaces)
    }

    /// One detection on the upright image with this detector's own model: the model, decoding and NMS.
    private func detectWithOwnModel(_ image: ImageView, into faces: inout [Face]) throws(FaceDetectorError) {
        let region = Self.region(for: image, preprocessing: options.preprocessing)
        do {
            try session.run(image, region: region) { outputs, footprint throws(ModelSessionError) in
                do {
                    try decoder.decode(regressors: outputs[regressors], scores: outputs[scores], into: &candidates)
                } catch {
                    // Outputs were checked against the anchors at creation, so this cannot happen.
                    throw .inferenceFailed("decoding: \(error)")
                }
                suppression(candidates, into: &kept, scratch: &scratch)
                faces.removeAll(keepingCapacity: true)
                // Index loop: a `for detection in kept` iterator allocates in unoptimized builds.
                for index in 0..<kept.count {
                    faces.append(Self.face(from: kept[index], footprint: footprint))
                }
            }
        } catch {
            throw .session(error, modelPath: modelPath)
        }
    }

    /// The region of the upright image fed to the model: the whole image (letterboxed by the converter) or
    /// its centred square.
    static func region(for image: ImageView, preprocessing: Preprocessing) -> RotatedRect {
        let w = Double(image.uprightWidth), h = Double(image.uprightHeight)
        let side = preprocessing == .letterbox ? max(w, h) : min(w, h)
        return RotatedRect(center: Point(x: w / 2, y: h / 2), width: side, height: side)
    }

    /// Runs only the preprocessing step of `detect` on `image` (for the benchmark's breakdown of a detect).
    package func preprocessOnly(_ image: ImageView) {
        _ = try? session.fillOnly(image, region: Self.region(for: image, preprocessing: options.preprocessing))
    }

    /// Maps a detection (normalized to the model input) into upright image pixels.
    static func face(from d: Detection, footprint: RotatedRect) -> Face {
        func image(_ x: Float, _ y: Float) -> Point { footprint.point(u: Double(x), v: Double(y)) }
        let a = image(d.box.xMin, d.box.yMin)
        let b = image(d.box.xMax, d.box.yMax)
        func point(_ k: Int) -> Point {
            k < d.keypoints.count ? image(d.keypoints[k].x, d.keypoints[k].y) : Point(x: .nan, y: .nan)
        }
        let keypoints = FaceKeypoints(rightEye: point(0), leftEye: point(1), noseTip: point(2), mouthCenter: point(3),
                                      rightEarTragion: point(4), leftEarTragion: point(5))
        return Face(boundingBox: Rect(x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y),
                    score: d.score, keypoints: keypoints)
    }

    /// `options.tryRotations`: a detection in each quarter turn of the image, the faces mapped back into the
    /// upright image and merged across turns.
    private func detectInEveryTurn(_ image: ImageView, into faces: inout [Face]) throws(FaceDetectorError) {
        var found: [Face] = [], turnFaces: [Face] = []
        let width = Double(image.uprightWidth), height = Double(image.uprightHeight)
        for turns in 0..<4 {
            try detectUpright(image.turned(quarterTurns: turns), into: &turnFaces)
            for face in turnFaces {
                found.append(Self.face(face, turnedBack: turns, width: width, height: height))
            }
        }
        faces = Self.merged(found, iouThreshold: Double(options.iouThreshold), maximumFaces: options.maximumFaces)
    }

    /// A face found in the image turned `turns` times 90° clockwise, in the coordinates of the image before
    /// the turns (`width` x `height`, upright pixels): keypoints mapped exactly, the box the axis-aligned box
    /// of the turned box (exact for quarter turns), `uprightRotation` set to `90 * turns`.
    static func face(_ face: Face, turnedBack turns: Int, width: Double, height: Double) -> Face {
        // The turned image is the upright image shown with orientation `back`, so `storedPoint` takes a point
        // of the turned image to the upright one.
        let back = ImageOrientation(quarterTurns: turns, mirrored: false)
        var mapped = face.mapped { p in
            let q = back.storedPoint(u: p.x, v: p.y, width: width, height: height)
            return Point(x: q.x, y: q.y)
        }
        mapped.uprightRotation = 90 * (((turns % 4) + 4) % 4)
        return mapped
    }

    /// One face per person from the faces of several detections (the four turns, the models of an ensemble):
    /// highest score first, a face dropped when its box's IoU with an already kept face is above `iouThreshold`
    /// (the detector's own NMS rule, without blending across detections); then at most `maximumFaces`.
    static func merged(_ faces: [Face], iouThreshold: Double, maximumFaces: Int?) -> [Face] {
        // Ties keep the earlier turn first.
        let order = faces.indices.sorted { faces[$0].score != faces[$1].score ? faces[$0].score > faces[$1].score : $0 < $1 }
        var kept: [Face] = []
        for index in order {
            if let maximumFaces, kept.count >= maximumFaces { break }
            let face = faces[index]
            if kept.allSatisfy({ $0.boundingBox.iou(face.boundingBox) <= iouThreshold }) { kept.append(face) }
        }
        return kept
    }
}
