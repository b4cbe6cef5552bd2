import BlazeFace
import BlazeFaceMesh
import BlazeTracking
import Foundation

/// The pipelines `--pipelines` times, in report order.
enum PipelineName: String, CaseIterable {
    /// The landmarker's own detector alone: `FaceLandmarker.detector.detect(_:into:)`.
    case detect
    /// Static-image mode: `FaceLandmarker.detect(_:into:)`, detector and mesh on every frame.
    case landmarks
    /// Video mode: `FaceLandmarker.detect(_:tracking:)` fed its own previous result, the same frame each time.
    /// With one face tracked and `maximumFaces` 1 the detector does not run: the mesh's region comes from the
    /// previous frame's points (MediaPipe's video mode).
    case landmarksTracking = "landmarks-tracking"
    /// `FaceTracker.process(_:timestamp:into:)` on the same landmarker, the same frame at 30 frames per second:
    /// the mesh from the previous frame's points (moved by the face's velocity), the identity check, One-Euro
    /// smoothing of the 478 points and the box, and the result's copy of the points; `maximumFaces` 1, so the
    /// detector runs on the first frame only.
    case tracking
    /// `landmarks` plus, per face, head pose, expression and capture quality (`FrameAttributes`: passport
    /// framing, the pose and the eyes given) into reused storage.
    case landmarksAttributes = "landmarks-attributes"
    /// `landmarks-tracking` plus the same attributes per face: what the attributes add to a video frame.
    case attributes
    /// `PersonSegmenter(model: .general).segment(_:into:)`, the mask at the frame's size (`SegmentationBenchmark`).
    case segmentation
    /// The same with the landscape model.
    case segmentationLandscape = "segmentation-landscape"

    /// The face pipelines (`PipelineBenchmark`), in report order.
    static let face: [PipelineName] = [.detect, .landmarks, .landmarksAttributes, .landmarksTracking, .attributes,
                                       .tracking]

    /// For the attribute pipelines: the pipeline they add the attributes to.
    var withoutAttributes: PipelineName? {
        switch self {
        case .landmarksAttributes: return .landmarks
        case .attributes: return .landmarksTracking
        default: return nil
        }
    }

    /// The pipeline's configuration, one line for the reports.
    func configuration(threads: Int) -> String {
        switch self {
        case .detect, .landmarks, .landmarksTracking: return PipelineBenchmark.configuration(threads: threads)
        case .landmarksAttributes, .attributes:
            return "the same, plus per face HeadPose, FaceExpression and CaptureQualityAssessor(framing: .passport) "
                + "(pose and eyes given) into reused storage"
        case .tracking:
            return "FaceTracker(landmarker: the same, options: maximumFaces 1, smoothing .mediaPipeFace, attributes "
                + "[.landmarks], identity check on), 30 frames per second"
        case .segmentation: return SegmentationBenchmark.configuration(.general, threads: threads)
        case .segmentationLandscape: return SegmentationBenchmark.configuration(.landscape, threads: threads)
        }
    }
}

/// Which pipelines `--pipelines` times (`--pipeline-set`).
enum PipelineSet: String, CaseIterable {
    case all, face, segmentation
}

/// What `--pipelines` measured.
struct PipelineResult {
    var name: PipelineName
    var threads: Int
    var frame: Frame
    var timing: Summary
    var allocations: Int
    var iterations: Int
    /// Faces the pipeline returned on its last call (detections for `detect`, meshes otherwise).
    var faces: Int
    /// The presence of the first mesh on the last call (nil for `detect` or no face).
    var presence: Float?
    /// For `landmarks-tracking` and `tracking`: whether one face was still tracked after every timed frame.
    var trackedThroughout: Bool?
    /// For the segmentation pipelines: the share of the last mask's pixels above 0.5.
    var personShare: Double? = nil
    /// For the segmentation pipelines: where the time goes.
    var breakdown: SegmentationBreakdown? = nil
    /// For `attributes`: each attribute alone on the tracked face.
    var attributeBreakdown: AttributeBreakdown? = nil
}

enum PipelineBenchmark {
    /// The landmarker the pipelines run: MediaPipe's legacy FaceMesh configuration.
    static let model = FaceLandmarker.Model.attention
    static func options(threads: Int) -> FaceLandmarker.Options {
        var options = FaceLandmarker.Options.mediaPipe(maximumFaces: 1)
        options.threadCount = threads
        return options
    }

    /// The tracker of the `tracking` pipeline: one face, MediaPipe's smoothing, the points reported.
    static let trackerOptions = FaceTracker.Options(maximumFaces: 1, attributes: [.landmarks])

    /// One line for the reports.
    static func configuration(threads: Int) -> String {
        let o = options(threads: threads)
        return "FaceLandmarker(model: .\(model), options: .mediaPipe(maximumFaces: \(o.maximumFaces ?? 0))): "
            + "attention mesh (\(model.meshModel.fileName), MediaPipe's refine_landmarks=True), "
            + "\(o.detector.catalogName.rawValue) detector (\(o.detector.catalogName.fileName)), at most \(o.maximumFaces ?? 0) face, "
            + "minimum detection score \(o.minimumDetectionScore), minimum presence \(o.minimumPresence), "
            + "\(threads) thread\(threads == 1 ? "" : "s")"
    }

    /// Times the six pipelines on `frame` in alternating blocks of 10 (one landmarker for all six, as an
    /// app would have), after a first `detect(_:into:)` that fills the tracked faces and the results' storage.
    /// - Throws: `BenchFailure` when the frame has no face for the landmarker: the mesh pipelines would then
    ///   time the detector alone.
    static func run(frame: Frame, threads: Int, modelsDir: String?, iterations: Int, warmup: Int,
                    timeLimit: Double?) throws -> [PipelineResult] {
        let landmarker = try FaceLandmarker(model: model, modelsDirectory: modelsDir, options: options(threads: threads))
        var faces: [Face] = []
        faces.reserveCapacity(16)
        var found: [FaceLandmarks] = []
        var tracked: [FaceLandmarks] = []
        var foundForAttributes: [FaceLandmarks] = [], trackedForAttributes: [FaceLandmarks] = []
        let attributes = try FrameAttributes(), staticAttributes = try FrameAttributes()
        var attributesLost = false
        var breakdown: AttributeBreakdown?
        var lost = false, trackerLost = false
        let tracker = try FaceTracker(landmarker: landmarker, options: trackerOptions)
        var trackingResult = FaceTrackingResult()
        var time = 0.0
        let timed = try frame.withImageView { view in
            try landmarker.detect(view, into: &found)
            guard found.count == 1 else {
                throw BenchFailure("the \(landmarker.options.detector.catalogName.rawValue) detector and the mesh find "
                                   + "\(found.count) faces in \(frame.recipe); the pipelines need a frame with one face")
            }
            tracked = found
            foundForAttributes = found
            trackedForAttributes = found
            breakdown = try FrameAttributes.breakdown(view, face: found[0], iterations: iterations * 10,
                                                      timeLimit: timeLimit.map { $0 / 10 })
            try tracker.process(view, timestamp: time, into: &trackingResult)
            return try AlternatingBlocks.run([
                { try landmarker.detector.detect(view, into: &faces) },
                { try landmarker.detect(view, into: &found) },
                {
                    try landmarker.detect(view, into: &foundForAttributes)
                    try staticAttributes.compute(view, faces: foundForAttributes)
                },
                {
                    try landmarker.detect(view, tracking: &tracked)
                    if tracked.count != 1 { lost = true }
                },
                {
                    try landmarker.detect(view, tracking: &trackedForAttributes)
                    if trackedForAttributes.count != 1 { attributesLost = true }
                    try attributes.compute(view, faces: trackedForAttributes)
                },
                {
                    time += 1.0 / 30
                    try tracker.process(view, timestamp: time, into: &trackingResult)
                    if trackingResult.faces.count != 1 || trackingResult.faces[0].id != 1 { trackerLost = true }
                },
            ], iterations: iterations, warmup: warmup, timeLimit: timeLimit)
        }
        let faceCounts = [faces.count, found.count, foundForAttributes.count, tracked.count,
                          trackedForAttributes.count, trackingResult.faces.count]
        let presences = [nil, found.first?.presence, foundForAttributes.first?.presence, tracked.first?.presence,
                         trackedForAttributes.first?.presence, trackingResult.faces.first?.score]
        return PipelineName.face.enumerated().map { index, name in
            PipelineResult(name: name, threads: threads, frame: frame, timing: timed.summaries[index],
                           allocations: timed.allocations[index], iterations: timed.iterations,
                           faces: faceCounts[index], presence: presences[index],
                           trackedThroughout: name == .landmarksTracking ? !lost : name == .tracking ? !trackerLost
                               : name == .attributes ? !attributesLost : nil,
                           attributeBreakdown: name == .attributes ? breakdown : nil)
        }
    }
}
