import BlazeFace
import Foundation

/// One image in the JSON document `blazeface detect --json` prints, `{"images": [ImageResult]}` (keep these
/// keys: automated checks read them).
struct ImageResult: FaceOutcome {
    var path: String
    var width: Int?
    var height: Int?
    var faces: [FaceResult]?
    var error: String?

    struct FaceResult: Encodable {
        var box: Box
        var score: Double
        var keypoints: [KeypointResult]
        var roll: Double
        /// With `--try-rotations` only: the clockwise turn in degrees that makes the face upright.
        var uprightRotation: Int?
    }

    typealias Box = BoxResult

    struct KeypointResult: Encodable {
        var type: String
        var x: Double
        var y: Double
    }

    init(path: String, width: Int, height: Int, faces found: FacesFound<[Face]>) {
        self.path = path
        self.width = width
        self.height = height
        self.faces = found.faces.map { face in
            FaceResult(
                box: Box(face.boundingBox),
                score: Double(face.score),
                keypoints: face.keypoints.all.map { KeypointResult(type: $0.kind.rawValue, x: $0.point.x, y: $0.point.y) },
                roll: face.rollDegrees,
                uprightRotation: found.reportsRotation ? face.uprightRotation : nil)
        }
    }

    init(path: String, error: String) {
        self.path = path
        self.error = error
    }

    var faceCount: Int? { faces?.count }

    /// Lines for the human-readable table.
    var tableLines: [String] {
        guard let faces, let width, let height else { return ["\(path)  error: \(error ?? "unknown")"] }
        var lines = ["\(path)  \(width)x\(height)  \(faces.count) face\(faces.count == 1 ? "" : "s")"]
        for (i, face) in faces.enumerated() {
            let b = face.box
            lines.append("  #\(i + 1)  score \(fixed(face.score, 3))  box x \(fixed(b.x, 1)) y \(fixed(b.y, 1)) "
                + "w \(fixed(b.width, 1)) h \(fixed(b.height, 1))  roll \(fixed(face.roll, 1))°"
                + (face.uprightRotation.map { "  upright rotation \($0)°" } ?? ""))
            let points = face.keypoints.map { "\($0.type) (\(fixed($0.x, 1)), \(fixed($0.y, 1)))" }
            lines.append("      " + points.prefix(3).joined(separator: "  "))
            lines.append("      " + points.dropFirst(3).joined(separator: "  "))
        }
        return lines
    }
}

/// `value` with `digits` decimals.
func fixed(_ value: Double, _ digits: Int) -> String {
    guard value.isFinite else { return "\(value)" }
    return String(format: "%.\(digits)f", value)
}
