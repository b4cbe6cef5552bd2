import BlazeFaceAnalysis
import BlazeTracking
import Foundation

/// `blazeface track --json-lines`: one JSON object per processed frame on standard output, written (and so
/// flushed) line by line, so that a reader sees each frame at once and a failure later in the stream leaves
/// every line before it complete. Keep these keys: automated checks read them.
struct TrackLines {
    /// Whether faces carry their points, and their pose, eyes and smile.
    var landmarks: Bool
    var attributes: Bool
    private let encoder = JSONEncoder()

    /// Keys are sorted (a stable order for diffs). Non-finite numbers (none is expected) are written as the strings "nan", "inf" and "-inf", so that no
    /// line is ever dropped.
    init(landmarks: Bool, attributes: Bool) {
        self.landmarks = landmarks
        self.attributes = attributes
        encoder.outputFormatting = .sortedKeys
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf",
                                                                      negativeInfinity: "-inf", nan: "nan")
    }

    /// One frame: `{"frame", "time", "faces", "events"}`.
    struct Line: Encodable {
        var frame: Int
        /// The container's presentation time, seconds.
        var time: Double
        var faces: [FaceLine]
        var events: [EventLine]
    }

    /// One face: `id`, `box`, `score` (the mesh's presence), `framesSeen`; `landmarks` with --landmarks;
    /// `pose`, `leftEyeOpen`, `rightEyeOpen`, `smiling` with --attributes (null when they could not be computed).
    struct FaceLine: Encodable {
        var id: Int
        var box: BoxResult
        var score: Float
        var framesSeen: Int
        var landmarks: [[Float]]?
        var attributes: FaceAttributes?

        enum CodingKeys: String, CodingKey {
            case id, box, score, framesSeen, landmarks, pose, leftEyeOpen, rightEyeOpen, smiling
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(box, forKey: .box)
            try container.encode(score, forKey: .score)
            try container.encode(framesSeen, forKey: .framesSeen)
            if let landmarks { try container.encode(landmarks, forKey: .landmarks) }
            guard let attributes else { return }
            try container.encode(attributes.headPose.map(PoseLine.init), forKey: .pose)
            try container.encode(attributes.leftEyeOpen, forKey: .leftEyeOpen)
            try container.encode(attributes.rightEyeOpen, forKey: .rightEyeOpen)
            try container.encode(attributes.smiling, forKey: .smiling)
        }
    }

    /// Head pose in degrees (BlazeFaceAnalysis's `HeadPose`).
    struct PoseLine: Encodable {
        var pitch: Double
        var yaw: Double
        var roll: Double

        init(_ pose: HeadPose) { (pitch, yaw, roll) = (rounded(pose.pitch, 100), rounded(pose.yaw, 100), rounded(pose.roll, 100)) }
    }

    /// A track event: `type` (started, missed, resumed, ended, gesture), `id`, and for a gesture its name
    /// (`gesture`: blink, wink left, head turn right, ...).
    struct EventLine: Encodable {
        var type: String
        var id: Int
        var gesture: String?

        init(_ event: FaceTrackEvent) {
            switch event {
            case let .started(id): (type, self.id) = ("started", id)
            case let .missed(id): (type, self.id) = ("missed", id)
            case let .resumed(id): (type, self.id) = ("resumed", id)
            case let .ended(id): (type, self.id) = ("ended", id)
            case let .gesture(id, gesture): (type, self.id, self.gesture) = ("gesture", id, gesture.description)
            }
        }
    }

    /// The line of a processed frame: the time to the microsecond, boxes to a thousandth of a pixel, angles to
    /// a hundredth of a degree (the rest is noise and bytes).
    func line(_ result: FaceTrackingResult, time: Double) -> Line {
        Line(frame: result.frameIndex, time: rounded(time, 1e6), faces: result.faces.map { face in
            var box = BoxResult(face.box)
            (box.x, box.y) = (rounded(box.x, 1000), rounded(box.y, 1000))
            (box.width, box.height) = (rounded(box.width, 1000), rounded(box.height, 1000))
            return FaceLine(id: face.id, box: box, score: face.score, framesSeen: face.framesSeen,
                     landmarks: landmarks ? face.landmarks.map { [$0.x, $0.y, $0.z] } : nil,
                     attributes: attributes ? face.attributes : nil)
        }, events: result.events.map(EventLine.init))
    }

    /// Writes the frame's line to standard output (one `write`, unbuffered).
    func write(_ result: FaceTrackingResult, time: Double) {
        guard var data = try? encoder.encode(line(result, time: time)) else { return }
        data.append(0x0A)
        FileHandle.standardOutput.write(data)
    }
}

/// `value` rounded to the nearest 1/`scale` (finite values only; others pass unchanged).
private func rounded(_ value: Double, _ scale: Double) -> Double {
    value.isFinite ? (value * scale).rounded() / scale : value
}
