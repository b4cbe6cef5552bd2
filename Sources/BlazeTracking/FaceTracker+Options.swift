import BlazeFaceMesh
import BlazeModels

extension FaceTracker {
    /// When the detector runs to find faces that are not tracked yet, besides the frames where fewer faces than
    /// `maximumFaces` are tracked or a lost face is being looked for.
    public enum DetectionInterval: Hashable, Sendable {
        /// Never on a schedule: MediaPipe's video mode.
        case never
        /// Every N processed frames (N ≥ 1).
        case frames(Int)
        /// At least every T seconds of stream time (T > 0).
        case seconds(Double)
    }

    /// Which frames are processed; the others get the last processed frame's faces (`FaceTrackingResult.processed`
    /// false).
    public enum FrameInterval: Hashable, Sendable {
        /// Every frame.
        case all
        /// Every Nth frame given to `process` (the first, the (N+1)th, ...; N ≥ 1).
        case everyNth(Int)
        /// At most F frames per second of stream time (F > 0): a frame is processed when at least 1/F seconds
        /// passed since the last processed one (with a 1 % tolerance for jittery timestamps).
        case maximumRate(Double)
    }

    /// What the tracker computes for each face besides its box and ID.
    public struct Attributes: OptionSet, Hashable, Sendable {
        /// The set's bits (`OptionSet`).
        public let rawValue: Int
        /// The set of the attributes whose bits are set in `rawValue`.
        /// - Parameter rawValue: the bits: 1 landmarks, 2 head pose, 4 gestures, 8 expression.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// `TrackedFace.landmarks`: the mesh's points (smoothed when smoothing is on).
        public static let landmarks = Attributes(rawValue: 1)
        /// `TrackedFace.attributes.headPose` (BlazeFaceAnalysis's `HeadPoseEstimator`).
        public static let headPose = Attributes(rawValue: 2)
        /// Gesture events (`FaceTrackEvent.gesture`), from the head pose and, when `.expression` or the attribute
        /// hook (`FaceTracker.attributeHook`) gives them, the eyes' open probabilities. Implies `headPose`.
        public static let gestures = Attributes(rawValue: 4)
        /// `TrackedFace.attributes.leftEyeOpen`, `.rightEyeOpen` and `.smiling` from BlazeFaceAnalysis's
        /// `ExpressionEstimator` on the raw (unsmoothed) mesh, so that a blink is not smoothed away; with
        /// `.gestures`, blinks and winks come from them. The hook runs after and may replace them.
        public static let expression = Attributes(rawValue: 8)
    }

    /// Tracker options. The defaults follow MediaPipe's video mode for the loop and its Tasks smoothing.
    public struct Options: Hashable, Sendable, PipelineOptions {
        /// The mesh model (`FaceLandmarker.Model`).
        public var model: FaceLandmarker.Model
        /// The detector that finds faces (`FaceDetector.Model`; full-range by default, short-range is MediaPipe's).
        public var detector: FaceDetector.Model
        /// At most this many faces are tracked; nil for no limit (the detector then runs on every processed frame,
        /// as in `FaceLandmarker.detect(_:tracking:)`).
        public var maximumFaces: Int?
        /// The detector also runs on this schedule to find newcomers while fewer than `maximumFaces` are tracked.
        public var detectionInterval: DetectionInterval
        /// Minimum detection score, 0...1.
        public var minimumDetectionScore: Float
        /// A face is followed while its mesh presence is above this, 0...1; below it the track is missed.
        public var minimumPresence: Float
        /// A missed track keeps its ID for this many processed frames (K); found again within them (by the
        /// detector, near where it was and with the same proportions) it continues with the same ID.
        public var holdFrames: Int
        /// And at most this many seconds of stream time, when set.
        public var holdSeconds: Double?
        /// How far from its last position (predicted with its last velocity) a missed face may be found again, in
        /// face sizes (the mean of the box's width and height), growing by the same amount per missed frame.
        public var reassociationRadius: Double
        /// The largest `FaceDescriptor` distance between a track's running descriptor and a face it continues
        /// with; above it the face is another person and gets a new ID (see `FaceDescriptor`). nil disables the
        /// check (IDs then change only on position jumps and on the detector's new faces).
        public var identityThreshold: Float?
        /// One-Euro smoothing of the points and the box (MediaPipe's constants by default); nil turns it off.
        public var smoothing: OneEuroFilter.Parameters?
        /// Which frames are processed.
        public var frameInterval: FrameInterval
        /// What is computed per face (landmarks, head pose, gestures, eyes and smile).
        public var attributes: Attributes
        /// Threads each model's inference uses (see `FaceLandmarker.Options.threadCount`).
        public var threadCount: Int
        /// What each model file may make the tracker's landmarker and detector allocate and compute while they
        /// load (see `FaceLandmarker.Options.modelLimits` and `ModelLimits`).
        public var modelLimits: ModelLimits
        /// The detector also looks for faces in the frame turned by 90°, 180° and 270° (default false;
        /// `FaceDetector.Options.tryRotations`), for sideways videos without rotation metadata. It applies each
        /// time the detector runs (the first frame, and frames where fewer than `maximumFaces` faces are
        /// followed, on `detectionInterval`): up to four times the detector's cost there, nothing on the
        /// frames the tracker only follows. A face found turned is followed from its own landmarks like any
        /// other, in the frame's coordinates.
        public var tryRotations: Bool

        /// Options; each parameter sets the property of the same name.
        public init(model: FaceLandmarker.Model = .attention, detector: FaceDetector.Model = .fullRange,
                    maximumFaces: Int? = 4, detectionInterval: DetectionInterval = .frames(10),
                    minimumDetectionScore: Float = 0.5, minimumPresence: Float = 0.5, holdFrames: Int = 10,
                    holdSeconds: Double? = nil, reassociationRadius: Double = 1.0, identityThreshold: Float? = 0.08,
                    smoothing: OneEuroFilter.Parameters? = .mediaPipeFace, frameInterval: FrameInterval = .all,
                    attributes: Attributes = [.landmarks], threadCount: Int = 1,
                    modelLimits: ModelLimits = ModelLimits(), tryRotations: Bool = false) {
            self.model = model
            self.detector = detector
            self.maximumFaces = maximumFaces
            self.detectionInterval = detectionInterval
            self.minimumDetectionScore = minimumDetectionScore
            self.minimumPresence = minimumPresence
            self.holdFrames = holdFrames
            self.holdSeconds = holdSeconds
            self.reassociationRadius = reassociationRadius
            self.identityThreshold = identityThreshold
            self.smoothing = smoothing
            self.frameInterval = frameInterval
            self.attributes = attributes
            self.threadCount = threadCount
            self.modelLimits = modelLimits
            self.tryRotations = tryRotations
        }

        /// The landmarker these options run on.
        public var landmarkerOptions: FaceLandmarker.Options {
            FaceLandmarker.Options(detector: detector, maximumFaces: maximumFaces,
                                   minimumDetectionScore: minimumDetectionScore, minimumPresence: minimumPresence,
                                   threadCount: threadCount, modelLimits: modelLimits, tryRotations: tryRotations)
        }

        /// The options' checks (`PipelineOptions`), in the order they are reported.
        public var problems: [String?] {
            [OptionCheck.atLeastOne(maximumFaces, "maximumFaces"), detectionIntervalProblem, frameIntervalProblem,
             holdFrames < 0 ? "holdFrames \(holdFrames) must not be negative" : nil,
             holdSeconds.flatMap { $0.isFinite && $0 >= 0 ? nil : "holdSeconds \($0) must be finite and not negative" },
             reassociationRadius.isFinite && reassociationRadius > 0
                ? nil : "reassociationRadius \(reassociationRadius) must be positive",
             identityThreshold.flatMap { $0.isFinite && $0 > 0 ? nil : "identityThreshold \($0) must be positive" },
             smoothing.flatMap { $0.isValid ? nil : "smoothing \($0) needs positive cut-offs and a beta of at least 0" },
             OptionCheck.fraction(minimumDetectionScore, "minimumDetectionScore"),
             OptionCheck.fraction(minimumPresence, "minimumPresence"),
             OptionCheck.atLeastOne(threadCount, "threadCount")]
        }

        private var detectionIntervalProblem: String? {
            switch detectionInterval {
            case let .frames(n) where n < 1: return "detectionInterval .frames(\(n)) must be at least 1"
            case let .seconds(t) where !(t.isFinite && t > 0): return "detectionInterval .seconds(\(t)) must be positive"
            default: return nil
            }
        }

        private var frameIntervalProblem: String? {
            switch frameInterval {
            case let .everyNth(n) where n < 1: return "frameInterval .everyNth(\(n)) must be at least 1"
            case let .maximumRate(f) where !(f.isFinite && f > 0): return "frameInterval .maximumRate(\(f)) must be positive"
            default: return nil
            }
        }
    }
}
