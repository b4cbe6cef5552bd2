import BlazeFaceMesh
import Foundation

/// One image in the JSON document `blazeface landmarks --json` prints, `{"images": [LandmarksResult]}`
/// (keep these keys: automated checks read them).
struct LandmarksResult: FaceOutcome {
    var path: String
    var width: Int?
    var height: Int?
    var faces: [FaceResult]?
    var error: String?

    /// One face: `box` is its detection's box (the landmarks' bounding box for a face without one), `score`
    /// the detection's score (null without one), `presence` the mesh model's face presence, and `landmarks`
    /// the 478 or 468 points as `[x, y, z]`, upright pixels.
    struct FaceResult: Encodable {
        var box: BoxResult
        var score: Float?
        var presence: Float
        var landmarks: [[Float]]
        /// With `--try-rotations` only: the clockwise turn in degrees in which the face was detected upright.
        var uprightRotation: Int?

        init(_ face: FaceLandmarks, reportsRotation: Bool) {
            box = BoxResult(face.detection?.boundingBox ?? face.boundingBox)
            score = face.detection?.score
            presence = face.presence
            landmarks = face.points.map { [$0.x, $0.y, $0.z] }
            uprightRotation = reportsRotation ? face.detection?.uprightRotation ?? 0 : nil
        }

        enum CodingKeys: String, CodingKey {
            case box, score, presence, uprightRotation, landmarks
        }

        /// Writes every key, `score` as null when there is no detection.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(box, forKey: .box)
            try container.encode(score, forKey: .score)
            try container.encode(presence, forKey: .presence)
            try container.encodeIfPresent(uprightRotation, forKey: .uprightRotation)
            try container.encode(landmarks, forKey: .landmarks)
        }
    }

    init(path: String, width: Int, height: Int, faces found: FacesFound<[FaceLandmarks]>) {
        self.path = path
        self.width = width
        self.height = height
        self.faces = found.faces.map { FaceResult($0, reportsRotation: found.reportsRotation) }
    }

    init(path: String, error: String) {
        self.path = path
        self.error = error
    }

    var faceCount: Int? { faces?.count }

    /// The named points of the text output: MediaPipe's indices.
    static let namedPoints: [(name: String, index: Int)] = [("nose tip", 1), ("right iris", 468), ("left iris", 473)]

    /// Lines for the human-readable output: the image, then one line per face.
    var tableLines: [String] {
        guard let faces, let width, let height else { return ["\(path)  error: \(error ?? "unknown")"] }
        var lines = ["\(path)  \(width)x\(height)  \(faces.count) face\(faces.count == 1 ? "" : "s")"]
        for (i, face) in faces.enumerated() {
            let b = face.box
            var line = "  #\(i + 1)  score \(face.score.map { fixed(Double($0), 3) } ?? "-")  presence "
                + "\(fixed(Double(face.presence), 3))  box x \(fixed(b.x, 1)) y \(fixed(b.y, 1)) w \(fixed(b.width, 1)) "
                + "h \(fixed(b.height, 1))  \(face.landmarks.count) points"
                + (face.uprightRotation.map { "  upright rotation \($0)°" } ?? "")
            for (name, index) in Self.namedPoints where index < face.landmarks.count {
                let p = face.landmarks[index]
                line += "  \(name) (\(fixed(Double(p[0]), 1)), \(fixed(Double(p[1]), 1)))"
            }
            lines.append(line)
        }
        return lines
    }
}
