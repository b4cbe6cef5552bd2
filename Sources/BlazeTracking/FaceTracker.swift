import BlazeFaceAnalysis
import BlazeFaceMesh

/// Follows faces through a stream of frames and gives each a stable ID.
///
/// ```swift
/// let tracker = try FaceTracker(options: .init(maximumFaces: 2))
/// var result = FaceTrackingResult()
/// for (frame, time) in video {                                   // frame: an ImageView, time in seconds
///     try tracker.process(frame, timestamp: time, into: &result)
///     for face in result.faces { print(face.id, face.box) }
///     for event in result.events { print(event) }                 // "face 3 started", "face 1 ended", ...
/// }
/// print(tracker.metrics.effectiveFramesPerSecond)
/// ```
///
/// The loop is MediaPipe's video mode (`FaceLandmarker.detect(_:tracking:)`) with IDs added: each followed
/// face's region comes from its points on the previous processed frame (moved by its last velocity), and the
/// detector runs only while fewer faces than `maximumFaces` are followed — on every frame while none is, or
/// while a missed face is held, otherwise on the `detectionInterval` schedule. A face whose presence drops is
/// missed; it keeps its ID for `holdFrames` frames and continues when the detector finds it again near where it
/// was (`reassociationRadius`) with the same proportions (`FaceDescriptor`, `identityThreshold`). A face whose
/// proportions change at once (another person in the same place: a hard cut) gets a new ID. IDs start at 1 and
/// are never reused. Documentation/Tracking.md describes the choices and their limits.
///
/// Thread safety: not thread-safe and not `Sendable`. One tracker follows one stream, called from one thread at a
/// time; it may move between threads when the caller orders the calls (a serial queue, or a lock or semaphore
/// handed from one call to the next). Trackers of their own, each following its own stream on its own thread,
/// may share one `FaceLandmarker` (`init(landmarker:options:)`): the landmarker's lock serializes their models
/// (so they take turns on it; for parallel work give each tracker its own). With `process(_:timestamp:into:)`,
/// the same faces as on the frame before and smoothing on, a frame makes no heap allocation.
public final class FaceTracker {
    /// The options the tracker was created with.
    public let options: Options
    /// The landmarker (and its detector) the tracker runs.
    public let landmarker: FaceLandmarker
    /// Called for every face found on a processed frame with the frame, the raw mesh and the face's attributes,
    /// after the head pose: set the eyes' open probabilities and the smile there (for gestures and callers).
    public var attributeHook: ((_ frame: ImageView, _ face: FaceLandmarks, _ attributes: inout FaceAttributes) -> Void)?
    /// Counts and times so far (`FaceTrackerMetrics.peakResidentBytes` for memory).
    public internal(set) var metrics = FaceTrackerMetrics()

    var tracks: [Track] = []
    var nextID = 1
    private var frameIndex = 0
    private var lastTimestamp: Double?
    private var lastProcessedTime: Double?
    private var lastDetectionTime: Double?
    private var framesSinceDetection = 0
    private var frameSize: (width: Int, height: Int)?
    /// Scratch: detections, a mesh being computed, meshes waiting for an ID, association pairs.
    private var detections: [Face] = []
    private var scratch: FaceLandmarks
    var candidates: [FaceLandmarks] = []
    var candidateCount = 0
    var pairs: [(cost: Double, candidate: Int, track: Int)] = []
    private var internalResult = FaceTrackingResult()

    /// A tracker on the catalog's models (found as `FaceLandmarker(model:modelsDirectory:options:)` finds them).
    /// - Parameters:
    ///   - options: the tracker's options, which also choose the mesh model and the detector.
    ///   - modelsDirectory: a folder holding the model files; nil searches the default folders.
    /// - Throws: `FaceTrackerError.invalidOptions`, `.landmarker` when a model is missing or unusable.
    public convenience init(options: Options = Options(), modelsDirectory: String? = nil) throws(FaceTrackerError) {
        if let problem = options.firstProblem { throw .invalidOptions(problem) }
        let landmarker: FaceLandmarker
        do {
            landmarker = try FaceLandmarker(model: options.model, modelsDirectory: modelsDirectory,
                                            options: options.landmarkerOptions)
        } catch {
            throw .landmarker(error)
        }
        try self.init(landmarker: landmarker, options: options)
    }

    /// A tracker on a landmarker you made (its model, detector and minimum presence are used; `options.model`,
    /// `.detector`, `.minimumDetectionScore`, `.minimumPresence` and `.threadCount` are not).
    /// - Parameters:
    ///   - landmarker: the landmarker to run; it may be shared with other trackers (see the type's thread safety).
    ///   - options: the tracker's options.
    /// - Throws: `FaceTrackerError.invalidOptions`.
    public init(landmarker: FaceLandmarker, options: Options = Options()) throws(FaceTrackerError) {
        if let problem = options.firstProblem { throw .invalidOptions(problem) }
        self.landmarker = landmarker
        self.options = options
        var points: [Landmark] = []
        points.reserveCapacity(478)
        scratch = FaceLandmarks(points: points, presence: 0,
                                region: RotatedRect(center: Point(x: 0, y: 0), width: 1, height: 1))
        let capacity = options.maximumFaces ?? 16
        tracks.reserveCapacity(2 * capacity)
        detections.reserveCapacity(2 * capacity)
        candidates.reserveCapacity(2 * capacity)
        pairs.reserveCapacity(4 * capacity * capacity)
    }

    /// `process(_:timestamp:into:)` into a result the tracker keeps (its faces are copied out, so this form
    /// allocates; use the other in a loop that must not).
    /// - Parameters:
    ///   - frame: the frame; faces are in its upright pixels.
    ///   - timestamp: seconds, increasing from frame to frame (any origin).
    /// - Returns: the frame's faces and events.
    /// - Throws: as `process(_:timestamp:into:)`.
    public func process(frame: ImageView, timestamp: Double) throws(FaceTrackerError) -> FaceTrackingResult {
        try process(frame, timestamp: timestamp, into: &internalResult)
        return internalResult
    }

    /// Processes one frame (or skips it, per `Options.frameInterval`) and writes its faces and events into
    /// `result`, reusing its storage.
    /// - Parameters:
    ///   - frame: the frame; faces are in its upright pixels. A frame of another size than the one before ends
    ///     every track (events `.ended`) and starts over: positions in different frame sizes are not comparable.
    ///   - timestamp: seconds, increasing from frame to frame (any origin).
    ///   - result: receives the frame's index, timestamp, faces and events; pass the same value on every frame.
    /// - Throws: `FaceTrackerError.nonFiniteTimestamp` and `.nonIncreasingTimestamp` (the frame is ignored, the
    ///   tracks are kept); `.landmarker` when a model fails. An `ImageView` is never empty (its initializers
    ///   reject a zero width or height), so there is no empty-frame case here.
    public func process(_ frame: ImageView, timestamp: Double,
                        into result: inout FaceTrackingResult) throws(FaceTrackerError) {
        guard timestamp.isFinite else { throw .nonFiniteTimestamp(timestamp) }
        if let last = lastTimestamp, timestamp <= last {
            throw .nonIncreasingTimestamp(previous: last, given: timestamp)
        }
        let start = Clock.now()
        defer { metrics.totalSeconds += Clock.now() - start }
        lastTimestamp = timestamp
        metrics.framesReceived += 1
        result.frameIndex = frameIndex
        result.timestamp = timestamp
        result.events.removeAll(keepingCapacity: true)
        defer { frameIndex += 1 }

        guard isProcessed(timestamp) else {
            result.processed = false
            fillFaces(&result)
            return
        }
        result.processed = true
        metrics.framesProcessed += 1
        lastProcessedTime = timestamp
        let size = (frame.uprightWidth, frame.uprightHeight)
        if let previous = frameSize, previous != size {
            for index in tracks.indices { endTrack(at: index, &result) }
            tracks.removeAll(keepingCapacity: true)
        }
        frameSize = size

        for index in tracks.indices {
            tracks[index].detectedThisFrame = false
            if tracks[index].missed > 0 { tracks[index].missed += 1 }   // held: one more frame missed
        }
        candidateCount = 0
        try follow(frame, time: timestamp, &result)
        resolveDuplicates(time: timestamp, &result)
        if shouldDetect(timestamp) { try detectNewcomers(frame, time: timestamp) }
        associateCandidates(frame, time: timestamp, &result)
        endExpiredTracks(time: timestamp, &result)
        finish(frame, time: timestamp, &result)
        fillFaces(&result)
    }

    /// Forgets every track (without events) and the stream's timestamps, for a new stream on the same models.
    /// - Parameter asNewTracker: false (the default): IDs and frame indices continue from where they were, so
    ///   that no ID is ever given twice by this tracker; true: the next face gets ID 1 and the next frame index
    ///   0, as with a new tracker (another video), without loading the models again. `metrics` keep counting.
    public func reset(asNewTracker: Bool = false) {
        if asNewTracker {
            nextID = 1
            frameIndex = 0
        }
        tracks.removeAll(keepingCapacity: true)
        lastTimestamp = nil
        lastProcessedTime = nil
        lastDetectionTime = nil
        framesSinceDetection = 0
        frameSize = nil
    }

    /// The IDs of the faces held after a miss (not on the last processed frame, still keeping their IDs).
    public var heldIDs: [Int] { tracks.filter { $0.missed > 0 }.map(\.id) }

    // MARK: - Steps

    private func isProcessed(_ time: Double) -> Bool {
        switch options.frameInterval {
        case .all: return true
        case let .everyNth(n): return frameIndex % n == 0
        case let .maximumRate(rate):
            guard let last = lastProcessedTime else { return true }
            return time - last >= 0.99 / rate
        }
    }

    /// Runs the mesh on each followed face's region from its last points, moved by its velocity. A face whose
    /// presence drops is missed; one whose proportions changed beyond `identityThreshold` is missed and its mesh
    /// waits among the candidates for a new ID.
    private func follow(_ frame: ImageView, time: Double, _ result: inout FaceTrackingResult) throws(FaceTrackerError) {
        let width = frame.uprightWidth, height = frame.uprightHeight
        let start = Clock.now()
        defer { metrics.landmarksSeconds += Clock.now() - start }
        for index in tracks.indices where tracks[index].missed == 0 {
            guard var region = FaceLandmarker.region(for: tracks[index].raw.points, imageWidth: width,
                                                     imageHeight: height), region.isValid else {
                miss(at: index, &result)
                continue
            }
            let predicted = tracks[index].predictedCenter(at: time)
            region.center.x += predicted.x - tracks[index].center.x
            region.center.y += predicted.y - tracks[index].center.y
            metrics.meshRuns += 1
            let found: Bool
            do { found = try landmarker.landmarks(frame, region: region, into: &scratch) } catch {
                throw .landmarker(error)
            }
            guard found else {
                miss(at: index, &result)
                continue
            }
            if isSamePerson(tracks[index], scratch) {
                accept(&scratch, at: index, time: time, detected: false)
            } else {
                miss(at: index, &result)
                keepCandidate(&scratch)
            }
        }
    }

    private func shouldDetect(_ time: Double) -> Bool {
        let live = tracks.reduce(0) { $0 + ($1.missed == 0 ? 1 : 0) }
        if let maximum = options.maximumFaces, live >= maximum { return false }
        if live == 0 || tracks.contains(where: { $0.missed > 0 }) { return true }
        switch options.detectionInterval {
        case .never: return false
        case let .frames(n): return framesSinceDetection >= n
        case let .seconds(t): return lastDetectionTime.map { time - $0 >= t } ?? true
        }
    }

    /// Runs the detector and the mesh on each detection that is not a followed face; the meshes become candidates.
    private func detectNewcomers(_ frame: ImageView, time: Double) throws(FaceTrackerError) {
        let width = frame.uprightWidth, height = frame.uprightHeight
        var start = Clock.now()
        do { try landmarker.detector.detect(frame, into: &detections) } catch {
            throw .landmarker(.detectionFailed(error))
        }
        metrics.detectorRuns += 1
        metrics.detectSeconds += Clock.now() - start
        lastDetectionTime = time
        framesSinceDetection = 0
        start = Clock.now()
        defer { metrics.landmarksSeconds += Clock.now() - start }
        for index in detections.indices {
            let detection = detections[index]
            if coversFollowedFace(detection.boundingBox) { continue }
            let region = FaceLandmarker.region(for: detection, imageWidth: width, imageHeight: height)
            guard region.isValid else { continue }
            metrics.meshRuns += 1
            let found: Bool
            do { found = try landmarker.landmarks(frame, region: region, detection: detection, into: &scratch) } catch {
                throw .landmarker(error)
            }
            if found, !coversFollowedFace(scratch.boundingBox), !coversCandidate(scratch.boundingBox) {
                keepCandidate(&scratch)
            }
        }
    }

    /// Attributes, smoothing and gestures of the faces found on this frame.
    private func finish(_ frame: ImageView, time: Double, _ result: inout FaceTrackingResult) {
        framesSinceDetection += 1
        for index in tracks.indices where tracks[index].missed == 0 {
            var start = Clock.now()
            smooth(at: index, time: time)
            metrics.smoothingSeconds += Clock.now() - start
            start = Clock.now()
            computeAttributes(frame, at: index, time: time, &result)
            metrics.attributesSeconds += Clock.now() - start
        }
    }

    /// The faces found on the last processed frame, in ID order, into `result.faces`.
    private func fillFaces(_ result: inout FaceTrackingResult) {
        var count = 0
        for index in tracks.indices where tracks[index].missed == 0 {
            if count == result.faces.count {
                result.faces.append(TrackedFace(id: 0, box: tracks[index].box, score: 0, firstSeen: 0))
            }
            tracks[index].report(into: &result.faces[count])
            count += 1
        }
        result.faces.removeLast(result.faces.count - count)
    }
}
