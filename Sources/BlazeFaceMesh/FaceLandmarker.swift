import BlazeFace
import BlazeModels
import BlazeRegions
import Foundation

/// MediaPipe's face mesh on every face of a picture: 478 points (mesh and irises) or 468, in the image's
/// own pixels, with the face-presence score.
///
/// ```swift
/// let landmarker = try FaceLandmarker()                  // attention mesh, full-range detector
/// let faces = try landmarker.detect(image)                // image: an ImageView
/// for face in faces {
///     print(face.presence, face.points[1])                // the nose tip
///     let lips = face[.lips]                              // named regions: FaceRegion
/// }
/// ```
///
/// The pipeline is MediaPipe's legacy FaceMesh graph (`face_landmark_front_cpu.pbtxt`): detect faces, make a
/// region from each detection (rotation from the eyes, square on the long side, 1.5 times the box), warp it
/// into the 192x192 model input (bilinear, replicate border, values 0...1), run the mesh model, drop faces
/// whose presence is not above `minimumPresence`, project the points back into the image. With
/// `Options.mediaPipe()` (short-range detector, one face) it is MediaPipe's pipeline with MediaPipe's settings;
/// the default options find every face with the full-range detector.
///
/// For video, `detect(_:tracking:)` follows MediaPipe's video mode: each face's next region comes from its
/// points on the previous frame, and the detector runs only while fewer than `maximumFaces` faces are tracked.
///
/// Regions may leave the image: the border pixels are repeated, as in MediaPipe, and points may lie outside
/// the image. Faces whose region is degenerate (a zero or non-finite size) are skipped.
///
/// Thread safety: a landmarker may be shared between threads; its calls are serialized by a lock (so they
/// wait for each other: for parallel work, make one landmarker per thread). The faces `detect(_:tracking:)`
/// follows are the caller's array, so threads following different videos may share one landmarker. With
/// `detect(_:into:)` and the same number of faces as the last call it performs no heap allocation.
public final class FaceLandmarker: @unchecked Sendable {
    /// Which mesh the landmarker computes.
    public let model: Model
    /// The options the landmarker was created with.
    public let options: Options
    /// The mesh model file in use.
    public let meshModelPath: String
    /// The detector `detect` runs.
    public let detector: FaceDetector

    private let session: ModelSession
    private let layout: MeshOutputs
    private let iris: IrisRefiner?
    private let lock = NSLock()
    /// Scratch, used only while `lock` is held: detections, regions, decoded points (x, y, z per point).
    private var faces: [Face] = []
    private var regions: [(region: NormalizedRegion, detection: Face?)] = []
    private let normalized: UnsafeMutablePointer<Float>

    /// A landmarker on the catalog's models, found by `ModelLocator` as `FaceDetector(model:)` finds its own
    /// (`modelsDirectory`, else `BLAZEFACE_MODELS`, else `Models` beside the executable, else `./Models`).
    /// - Parameters:
    ///   - model: which mesh to compute (default `.attention`).
    ///   - modelsDirectory: a folder holding the model files, or nil to search the default folders.
    ///   - options: the landmarker's options; `options.detector` picks the detector.
    /// - Throws: `FaceLandmarkerError.modelNotFound`, `.invalidModel`, `.incompatibleModel`, `.invalidOptions`.
    public convenience init(model: Model = .attention, modelsDirectory: String? = nil,
                            options: Options = Options()) throws(FaceLandmarkerError) {
        let (meshPath, irisPath) = try Self.modelPaths(model, in: modelsDirectory)  // the mesh's missing file first
        let detector: FaceDetector
        do {
            detector = try FaceDetector(model: options.detector, modelsDirectory: modelsDirectory,
                                        options: options.detectorOptions)
        } catch {
            if case let .pipeline(.modelNotFound(file, searched)) = error { throw .modelNotFound(file: file, searched: searched) }
            throw .detectionFailed(error)
        }
        try self.init(model: model, meshModelPath: meshPath, irisModelPath: irisPath, detector: detector,
                      options: options)
    }

    /// A landmarker on the catalog's mesh models (found as `init(model:modelsDirectory:options:)` finds them)
    /// and a detector you made, such as `FaceDetector(models: FaceDetector.stillPictureModels)`, the
    /// still-picture detector `blazeface landmarks` uses. `options.detector` is not used; the other options are.
    /// - Parameters:
    ///   - model: which mesh to compute (default `.attention`).
    ///   - modelsDirectory: a folder holding the model files, or nil to search the default folders.
    ///   - detector: the detector `detect` runs.
    ///   - options: the landmarker's options.
    /// - Throws: `FaceLandmarkerError.modelNotFound`, `.invalidModel`, `.incompatibleModel`, `.invalidOptions`.
    public convenience init(model: Model = .attention, modelsDirectory: String? = nil, detector: FaceDetector,
                            options: Options = Options()) throws(FaceLandmarkerError) {
        let (meshPath, irisPath) = try Self.modelPaths(model, in: modelsDirectory)
        try self.init(model: model, meshModelPath: meshPath, irisModelPath: irisPath, detector: detector,
                      options: options)
    }

    /// The catalog files of `model`: the mesh model, and the iris model for `.meshWithIris`.
    private static func modelPaths(_ model: Model, in modelsDirectory: String?) throws(FaceLandmarkerError)
        -> (mesh: String, iris: String?) {
        let meshPath = try FaceLandmarkerError.locateModel(model.meshModel, in: modelsDirectory)
        let irisPath = model == .meshWithIris ? try FaceLandmarkerError.locateModel(.iris, in: modelsDirectory) : nil
        return (meshPath, irisPath)
    }

    /// A landmarker on model files you bring: a mesh model with the outputs `model` needs (468 x 3 points and
    /// a face flag; for `.attention` also lips, eyes and irises), the iris model for `.meshWithIris`, and a
    /// detector. `options.detector` is not used; the other options are.
    /// - Parameters:
    ///   - model: which mesh the mesh model file computes.
    ///   - meshModelPath: the mesh model's .tflite file.
    ///   - irisModelPath: the iris model's .tflite file, needed by `.meshWithIris` only.
    ///   - detector: the detector `detect` runs.
    ///   - options: the landmarker's options.
    /// - Throws: `FaceLandmarkerError.modelNotFound`, `.invalidModel`, `.incompatibleModel`, `.invalidOptions`.
    public init(model: Model, meshModelPath: String, irisModelPath: String? = nil, detector: FaceDetector,
                options: Options = Options()) throws(FaceLandmarkerError) {
        try options.validate(as: FaceLandmarkerError.self)
        do {
            session = try ModelSession(modelPath: meshModelPath,
                                       conversion: .init(range: 0...1, fit: .stretch, border: .replicate,
                                                         sampling: .warp),
                                       threadCount: options.threadCount, limits: options.modelLimits)
        } catch {
            throw .session(error, modelPath: meshModelPath)
        }
        guard session.inputWidth == 192, session.inputHeight == 192 else {
            throw .incompatibleModel(path: meshModelPath, reason: "expected a 1x192x192x3 input, the model's is "
                                     + "1x\(session.inputHeight)x\(session.inputWidth)x3")
        }
        guard let layout = MeshOutputs(session.outputs, refined: model == .attention) else {
            let want = model == .attention
                ? "7 outputs of 1404, 160, 142, 142, 10, 10 and 1 values" : "2 outputs of 1404 and 1 values"
            throw .incompatibleModel(path: meshModelPath, reason: "expected \(want), the model has "
                                     + "\(session.outputs.map(\.shape))")
        }
        if model == .meshWithIris {
            guard let irisModelPath else { throw .invalidOptions("the mesh-iris model needs irisModelPath") }
            iris = try IrisRefiner(modelPath: irisModelPath, threadCount: options.threadCount,
                                   limits: options.modelLimits)
        } else {
            iris = nil
        }
        self.model = model
        self.options = options
        self.meshModelPath = meshModelPath
        self.detector = detector
        self.layout = layout
        normalized = .allocate(capacity: 478 * 3)
        normalized.initialize(repeating: 0, count: 478 * 3)
        let capacity = options.maximumFaces ?? 16
        faces.reserveCapacity(capacity)
        regions.reserveCapacity(2 * capacity)
    }

    deinit {
        normalized.deallocate()
    }

    // MARK: - Pictures

    /// Finds the faces in `image` and computes each one's mesh (MediaPipe's static-image mode).
    /// - Parameter image: the image, read upright (its orientation applied); borrowed for the call only.
    /// - Returns: the faces present, in the detector's order, in the upright image's pixels.
    /// - Throws: `FaceLandmarkerError.detectionFailed`, `.invalidImage` (an image that cannot be sampled) or
    ///   `.nonFiniteOutput`.
    public func detect(_ image: ImageView) throws(FaceLandmarkerError) -> [FaceLandmarks] {
        var results: [FaceLandmarks] = []
        try detect(image, into: &results)
        return results
    }

    /// `detect(_:)` into `results` (replacing its contents), reusing its storage: allocation-free when it
    /// already holds as many faces as are found.
    /// - Parameters:
    ///   - image: the image, read upright (its orientation applied); borrowed for the call only.
    ///   - results: receives the faces present, in the upright image's pixels.
    /// - Throws: `FaceLandmarkerError.detectionFailed`, `.invalidImage` (an image that cannot be sampled) or
    ///   `.nonFiniteOutput`.
    public func detect(_ image: ImageView, into results: inout [FaceLandmarks]) throws(FaceLandmarkerError) {
        lock.lock()
        defer { lock.unlock() }
        regions.removeAll(keepingCapacity: true)
        try appendDetectedRegions(image)
        try runMesh(image, into: &results)
    }

    /// One frame of video (MediaPipe's video mode): `results` holds the previous frame's faces on entry and
    /// this frame's on return. Each tracked face's region comes from its previous points; the detector runs
    /// only while fewer than `maximumFaces` faces are tracked (on every frame when it is nil), and a detection
    /// overlapping a tracked face (IoU above 0.5) yields to it. Faces whose presence drops are lost.
    /// - Parameters:
    ///   - image: the image, read upright (its orientation applied); borrowed for the call only.
    ///   - results: the previous frame's faces on entry (empty for the first frame), this frame's on return.
    /// - Throws: `FaceLandmarkerError.detectionFailed`, `.invalidImage` (an image that cannot be sampled) or
    ///   `.nonFiniteOutput`.
    public func detect(_ image: ImageView, tracking results: inout [FaceLandmarks]) throws(FaceLandmarkerError) {
        lock.lock()
        defer { lock.unlock() }
        regions.removeAll(keepingCapacity: true)
        let width = image.uprightWidth, height = image.uprightHeight
        let tracked = results.count
        if options.maximumFaces.map({ tracked < $0 }) ?? true {
            try appendDetectedRegions(image)
        }
        for index in results.indices {
            if let region = Self.trackingRegion(for: results[index].points, imageWidth: width, imageHeight: height) {
                regions.append((region, nil))
            }
        }
        Self.associate(&regions)
        try runMesh(image, into: &results)
    }

    /// The meshes of faces found by any detector, in their order; faces whose presence is not above
    /// `minimumPresence` are left out.
    /// - Parameters:
    ///   - image: the image, read upright (its orientation applied); borrowed for the call only.
    ///   - faces: detections in the upright image's pixels; each region is made from its box and eyes.
    /// - Returns: the faces present, in the upright image's pixels, each with its detection.
    /// - Throws: `FaceLandmarkerError.invalidImage` (an image that cannot be sampled) or `.nonFiniteOutput`.
    public func landmarks(_ image: ImageView, for faces: [Face]) throws(FaceLandmarkerError) -> [FaceLandmarks] {
        lock.lock()
        defer { lock.unlock() }
        regions.removeAll(keepingCapacity: true)
        let width = image.uprightWidth, height = image.uprightHeight
        for face in faces {
            regions.append((Self.detectionRegion(for: face, imageWidth: width, imageHeight: height), face))
        }
        var results: [FaceLandmarks] = []
        try runMesh(image, into: &results)
        return results
    }

    /// The mesh of the face in `region` (upright pixels; make one with `region(for:imageWidth:imageHeight:)`),
    /// or nil when its presence is not above `minimumPresence`.
    /// - Parameters:
    ///   - image: the image, read upright (its orientation applied); borrowed for the call only.
    ///   - region: the face's region, in the upright image's pixels.
    /// - Returns: the face's mesh in the upright image's pixels, or nil.
    /// - Throws: `FaceLandmarkerError.invalidRegion` for a region with a zero, negative or non-finite size;
    ///   `.invalidImage` or `.nonFiniteOutput`.
    public func landmarks(_ image: ImageView, region: RotatedRect) throws(FaceLandmarkerError) -> FaceLandmarks? {
        let normalizedRegion = NormalizedRegion(region, imageWidth: image.uprightWidth, imageHeight: image.uprightHeight)
        guard region.isValid, normalizedRegion.isUsable else { throw .invalidRegion(region) }
        lock.lock()
        defer { lock.unlock() }
        regions.removeAll(keepingCapacity: true)
        regions.append((normalizedRegion, nil))
        var results: [FaceLandmarks] = []
        try runMesh(image, into: &results)
        return results.first
    }

    /// The mesh of the face in `region` (upright pixels) written into `face`, reusing its points' storage: no
    /// allocation once `face` has held a mesh of this model. Returns false, leaving `face` unchanged, when the
    /// presence is not above `minimumPresence`. `detection` is stored in `face.detection`. This is the step a
    /// tracker runs per face and frame (`BlazeTracking`'s `FaceTracker`).
    /// - Parameters:
    ///   - image: the image, read upright (its orientation applied); borrowed for the call only.
    ///   - region: the face's region, in the upright image's pixels.
    ///   - detection: the detection the region was made from, if any.
    ///   - face: receives the mesh, in the upright image's pixels, when the face is present.
    /// - Returns: whether the face is present (and `face` was written).
    /// - Throws: `FaceLandmarkerError.invalidRegion` for a region with a zero, negative or non-finite size;
    ///   `.invalidImage` or `.nonFiniteOutput`.
    public func landmarks(_ image: ImageView, region: RotatedRect, detection: Face? = nil,
                          into face: inout FaceLandmarks) throws(FaceLandmarkerError) -> Bool {
        let width = image.uprightWidth, height = image.uprightHeight
        let normalizedRegion = NormalizedRegion(region, imageWidth: width, imageHeight: height)
        guard region.isValid, normalizedRegion.isUsable else { throw .invalidRegion(region) }
        lock.lock()
        defer { lock.unlock() }
        let pixels = normalizedRegion.pixels(imageWidth: width, imageHeight: height)
        guard let presence = try infer(image, region: pixels) else { return false }
        face.presence = presence
        face.region = pixels
        face.detection = detection
        Self.project(normalized, count: layout.pointCount, region: normalizedRegion, imageWidth: width,
                     imageHeight: height, into: &face.points)
        if let iris {
            try iris.refine(image, points: &face.points)
        }
        return true
    }

    // MARK: - Regions

    /// MediaPipe's region of interest for a detected face in an upright image of the given size (upright pixels).
    /// - Parameters:
    ///   - face: a detection, in the upright image's pixels.
    ///   - imageWidth: the upright image's width, in pixels.
    ///   - imageHeight: the upright image's height, in pixels.
    /// - Returns: the region the mesh model would see, in the upright image's pixels.
    public static func region(for face: Face, imageWidth: Int, imageHeight: Int) -> RotatedRect {
        Self.detectionRegion(for: face, imageWidth: imageWidth, imageHeight: imageHeight)
            .pixels(imageWidth: imageWidth, imageHeight: imageHeight)
    }

    /// MediaPipe's region of interest for the next frame from a face's points (nil for fewer than 264 points).
    /// - Parameters:
    ///   - points: a face's mesh points, in the upright image's pixels.
    ///   - imageWidth: the upright image's width, in pixels.
    ///   - imageHeight: the upright image's height, in pixels.
    /// - Returns: the next frame's region, in the upright image's pixels, or nil.
    public static func region(for points: [Landmark], imageWidth: Int, imageHeight: Int) -> RotatedRect? {
        Self.trackingRegion(for: points, imageWidth: imageWidth, imageHeight: imageHeight)?
            .pixels(imageWidth: imageWidth, imageHeight: imageHeight)
    }

    // MARK: - The pipeline (callers hold the lock)

    private func appendDetectedRegions(_ image: ImageView) throws(FaceLandmarkerError) {
        do { try detector.detect(image, into: &faces) } catch { throw .detectionFailed(error) }
        let width = image.uprightWidth, height = image.uprightHeight
        for index in faces.indices {
            let face = faces[index]
            regions.append((Self.detectionRegion(for: face, imageWidth: width, imageHeight: height), face))
        }
    }

    /// Runs the mesh on every region of `regions` and writes the faces present into `results`, reusing its
    /// elements' storage.
    private func runMesh(_ image: ImageView, into results: inout [FaceLandmarks]) throws(FaceLandmarkerError) {
        let width = image.uprightWidth, height = image.uprightHeight
        var kept = 0
        for index in regions.indices {
            let (region, detection) = regions[index]
            guard region.isUsable else { continue }
            let pixels = region.pixels(imageWidth: width, imageHeight: height)
            guard let presence = try infer(image, region: pixels) else { continue }
            if kept == results.count {
                var points: [Landmark] = []
                points.reserveCapacity(model.pointCount)
                results.append(FaceLandmarks(points: points, presence: presence, region: pixels, detection: detection))
            } else {
                results[kept].presence = presence
                results[kept].region = pixels
                results[kept].detection = detection
            }
            Self.project(normalized, count: layout.pointCount, region: region, imageWidth: width,
                         imageHeight: height, into: &results[kept].points)
            if let iris {
                try iris.refine(image, points: &results[kept].points)
            }
            kept += 1
        }
        results.removeLast(results.count - kept)
    }

    /// Runs the mesh model on `region` and decodes its points into `normalized`; nil when the face's presence
    /// is not above the minimum.
    private func infer(_ image: ImageView, region: RotatedRect) throws(FaceLandmarkerError) -> Float? {
        let layout = layout, normalized = normalized, minimum = options.minimumPresence
        let outcome: (presence: Float, finite: Bool)
        do {
            outcome = try session.run(image, region: region) { outputs, _ throws(ModelSessionError) in
                let flag = outputs[layout.flag][0]
                guard flag.isFinite else { return (0, false) }
                let presence = Self.presence(flag: flag)
                guard presence > minimum else { return (presence, true) }
                return (presence, Self.decode(outputs, layout, into: normalized))
            }
        } catch {
            throw .session(error, modelPath: meshModelPath)
        }
        guard outcome.finite else { throw .nonFiniteOutput(path: meshModelPath) }
        return outcome.presence > minimum ? outcome.presence : nil
    }
}
