import BlazeFaceAnalysis
import BlazeTracking
import Foundation

/// `blazeface track --json-lines`: one JSON object per processed frame on standard output, written (and so
/// flushed) line by line, so that a reader sees each frame at once and a failure later in the stream leaves
/// every line before it complete. Keep these keys: automated checks read them.
///
/// Keys are sorted (a stable order for diffs). Non-finite numbers (none is expected) are written as the strings
/// "nan", "inf" and "-inf", so that no line is ever dropped. The text is what `JSONEncoder` (`.sortedKeys`) gives
/// for the same values; `JSONLineWriter` builds it in a reused buffer (with --landmarks `JSONEncoder` took about
/// 1 ms a frame, a third of a tracked frame).
final class TrackLines {
    /// Whether faces carry their points, their pose, eyes and smile, and their upright turn (--try-rotations).
    let landmarks: Bool
    let attributes: Bool
    let rotations: Bool
    private var json = JSONLineWriter()

    init(landmarks: Bool, attributes: Bool, rotations: Bool = false) {
        self.landmarks = landmarks
        self.attributes = attributes
        self.rotations = rotations
    }

    /// The line of a processed frame, without its newline: `{"events", "faces", "frame", "time"}`; the time to the
    /// microsecond, boxes to a thousandth of a pixel, angles to a hundredth of a degree (the rest is noise and
    /// bytes).
    func line(_ result: FaceTrackingResult, time: Double) -> [UInt8] {
        json.reset()
        json.beginObject()
        json.key("events")
        json.beginArray()
        for event in result.events { write(event) }
        json.endArray()
        json.key("faces")
        json.beginArray()
        for face in result.faces { write(face) }
        json.endArray()
        json.key("frame")
        json.value(result.frameIndex)
        json.key("time")
        json.value(rounded(time, 1e6))
        json.endObject()
        return json.bytes
    }

    /// Writes the frame's line to `descriptor`, standard output by default (one `write`, unbuffered).
    /// - Returns: false when the write failed.
    @discardableResult
    func write(_ result: FaceTrackingResult, time: Double, to descriptor: Int32 = STDOUT_FILENO) -> Bool {
        _ = line(result, time: time)
        return json.writeLine(to: descriptor)
    }

    /// One face: `box`, `framesSeen`, `id`, `landmarks` (with --landmarks), `leftEyeOpen`, `pose`,
    /// `rightEyeOpen` (with --attributes; null when they could not be computed), `score` (the mesh's presence),
    /// `smiling` (with --attributes), `uprightRotation` (with --try-rotations: 0, 90, 180 or 270).
    private func write(_ face: TrackedFace) {
        json.beginObject()
        json.key("box")
        json.beginObject()
        json.key("height")
        json.value(rounded(face.box.height, 1000))
        json.key("width")
        json.value(rounded(face.box.width, 1000))
        json.key("x")
        json.value(rounded(face.box.x, 1000))
        json.key("y")
        json.value(rounded(face.box.y, 1000))
        json.endObject()
        json.key("framesSeen")
        json.value(face.framesSeen)
        json.key("id")
        json.value(face.id)
        if landmarks {
            json.key("landmarks")
            json.beginArray()
            for point in face.landmarks {
                json.beginArray()
                json.value(point.x)
                json.value(point.y)
                json.value(point.z)
                json.endArray()
            }
            json.endArray()
        }
        let values = attributes ? face.attributes : nil
        if let values {
            json.key("leftEyeOpen")
            optional(values.leftEyeOpen)
            json.key("pose")
            if let pose = values.headPose {
                json.beginObject()
                json.key("pitch")
                json.value(rounded(pose.pitch, 100))
                json.key("roll")
                json.value(rounded(pose.roll, 100))
                json.key("yaw")
                json.value(rounded(pose.yaw, 100))
                json.endObject()
            } else {
                json.null()
            }
            json.key("rightEyeOpen")
            optional(values.rightEyeOpen)
        }
        json.key("score")
        json.value(face.score)
        if let values {
            json.key("smiling")
            optional(values.smiling)
        }
        if rotations {
            json.key("uprightRotation")
            json.value(face.uprightRotation)
        }
        json.endObject()
    }

    /// A track event: `gesture` (for a gesture: its name, blink, wink left, head turn right, ...), `id`, `type`
    /// (started, missed, resumed, ended, gesture).
    private func write(_ event: FaceTrackEvent) {
        json.beginObject()
        let (type, id): (StaticString, Int)
        switch event {
        case let .started(face): (type, id) = ("started", face)
        case let .missed(face): (type, id) = ("missed", face)
        case let .resumed(face): (type, id) = ("resumed", face)
        case let .ended(face): (type, id) = ("ended", face)
        case let .gesture(face, gesture):
            (type, id) = ("gesture", face)
            json.key("gesture")
            json.value(gesture.description)
        }
        json.key("id")
        json.value(id)
        json.key("type")
        json.value(type.description)
        json.endObject()
    }

    private func optional(_ value: Float?) {
        if let value { json.value(value) } else { json.null() }
    }
}

/// `value` rounded to the nearest 1/`scale` (finite values only; others pass unchanged).
private func rounded(_ value: Double, _ scale: Double) -> Double {
    value.isFinite ? (value * scale).rounded() / scale : value
}
