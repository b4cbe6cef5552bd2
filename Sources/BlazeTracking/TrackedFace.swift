import BlazeFaceAnalysis
import BlazeFaceMesh

/// What the tracker knows about a face besides where it is: the head pose and, with `.expression`, the eyes'
/// open probabilities and the smile it computes itself, and the values an attribute hook
/// (`FaceTracker.attributeHook`) supplies or replaces.
public struct FaceAttributes: Hashable, Sendable {
    /// The head pose from the reported (smoothed) points, when `.headPose` or `.gestures` is asked for.
    public var headPose: HeadPose?
    /// The probability that the subject's own left eye is open, 0...1 (`.expression`, or the hook).
    public var leftEyeOpen: Float?
    /// The probability that the subject's own right eye is open, 0...1 (`.expression`, or the hook).
    public var rightEyeOpen: Float?
    /// The probability of a smile, 0...1 (`.expression`, or the hook).
    public var smiling: Float?

    /// Attributes; each parameter sets the property of the same name.
    public init(headPose: HeadPose? = nil, leftEyeOpen: Float? = nil, rightEyeOpen: Float? = nil,
                smiling: Float? = nil) {
        self.headPose = headPose
        self.leftEyeOpen = leftEyeOpen
        self.rightEyeOpen = rightEyeOpen
        self.smiling = smiling
    }
}

/// One face on one frame, with the ID that follows it from frame to frame.
public struct TrackedFace: Hashable, Sendable {
    /// The track's ID: 1, 2, 3, ... in order of appearance, never reused by one tracker.
    public var id: Int
    /// The face's box in upright image pixels: the bounding box of its mesh points, smoothed when smoothing is on.
    public var box: Rect
    /// The mesh model's confidence that the face is there (its presence), 0...1.
    public var score: Float
    /// The mesh's points (smoothed when smoothing is on); empty unless `.landmarks` is asked for.
    public var landmarks: [Landmark]
    /// Head pose and the hook's values.
    public var attributes: FaceAttributes
    /// The stream time (seconds) the track started.
    public var firstSeen: Double
    /// Processed frames on which the face was found, this one included.
    public var framesSeen: Int
    /// Whether the detector's region started or restored the track on this frame (false: the region came from
    /// the previous frame's points).
    public var detectedThisFrame: Bool
    /// The clockwise quarter turn, in degrees (0, 90, 180 or 270), that makes the face upright, as
    /// `Face.uprightRotation` means it: the quarter turn nearest to the rotation of the region the mesh ran on
    /// this frame. 0 for a face within 45° of upright; 90 for a face lying with the top of its head toward the
    /// image's left edge.
    public var uprightRotation: Int

    /// A tracked face; each parameter sets the property of the same name.
    public init(id: Int, box: Rect, score: Float, landmarks: [Landmark] = [], attributes: FaceAttributes = .init(),
                firstSeen: Double, framesSeen: Int = 1, detectedThisFrame: Bool = false, uprightRotation: Int = 0) {
        self.id = id
        self.box = box
        self.score = score
        self.landmarks = landmarks
        self.attributes = attributes
        self.firstSeen = firstSeen
        self.framesSeen = framesSeen
        self.detectedThisFrame = detectedThisFrame
        self.uprightRotation = uprightRotation
    }
}

/// Something that happened to a track on a frame.
public enum FaceTrackEvent: Hashable, Sendable, CustomStringConvertible {
    /// A new ID: a face appeared (or another person took a face's place).
    case started(id: Int)
    /// A track missed a frame and is held (its ID kept for `holdFrames`).
    case missed(id: Int)
    /// A held track was found again with its ID.
    case resumed(id: Int)
    /// A track ended: missed for longer than the hold, replaced by another person, or the frame size changed. Its
    /// ID is never given again.
    case ended(id: Int)
    /// A gesture of face `id` (`.gestures`).
    case gesture(id: Int, FaceGesture)

    /// A short line for people: `face 3 started`, `face 1 ended`, ...
    public var description: String {
        switch self {
        case let .started(id): return "face \(id) started"
        case let .missed(id): return "face \(id) missed"
        case let .resumed(id): return "face \(id) resumed"
        case let .ended(id): return "face \(id) ended"
        case let .gesture(id, gesture): return "face \(id) \(gesture)"
        }
    }
}

/// The tracker's answer for one frame.
public struct FaceTrackingResult: Hashable, Sendable {
    /// The index of the frame among those given to `process` (0 for the first).
    public var frameIndex: Int
    /// The frame's timestamp, seconds.
    public var timestamp: Double
    /// False when the frame was skipped by `Options.frameInterval`: `faces` are then the last processed frame's,
    /// unchanged (boxes and points not moved), and `events` is empty.
    public var processed: Bool
    /// The faces found on this frame (held tracks, which missed it, are not listed), in ID order.
    public var faces: [TrackedFace]
    /// What happened on this frame, in order.
    public var events: [FaceTrackEvent]

    /// A result; each parameter sets the property of the same name (the defaults: an empty result to pass to
    /// `FaceTracker.process(_:timestamp:into:)`).
    public init(frameIndex: Int = 0, timestamp: Double = 0, processed: Bool = false, faces: [TrackedFace] = [],
                events: [FaceTrackEvent] = []) {
        self.frameIndex = frameIndex
        self.timestamp = timestamp
        self.processed = processed
        self.faces = faces
        self.events = events
    }
}
