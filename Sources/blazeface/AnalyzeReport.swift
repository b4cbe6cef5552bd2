import BlazeFaceAnalysis
import BlazeFaceMesh
import Foundation

/// One image in the JSON document `blazeface analyze --json` prints, `{"images": [AnalyzeResult]}`
/// (keep these keys: automated checks read them).
struct AnalyzeResult: FaceOutcome {
    var path: String
    var width: Int?
    var height: Int?
    /// The picture's hints: its faces' and noFace / multipleFaces.
    var hints: [String]?
    var faces: [FaceResult]?
    var error: String?

    /// One face: `box` and `score` are its detection's (the mesh's bounding box and null without one), `pose`
    /// ML Kit's Euler angles in degrees, the probabilities for the subject's own eyes and smile, `quality` the
    /// capture-quality score and `hints` what to fix, first things first.
    struct FaceResult: Encodable {
        var box: BoxResult
        var score: Float?
        var pose: PoseResult
        var leftEyeOpen: Float
        var rightEyeOpen: Float
        var smiling: Float
        var quality: Double
        var hints: [String]
        /// With `--try-rotations` only: the clockwise turn in degrees in which the face was detected upright.
        var uprightRotation: Int?

        init(_ face: AnalyzedFace, reportsRotation: Bool) {
            box = BoxResult(face.landmarks.detection?.boundingBox ?? face.landmarks.boundingBox)
            score = face.landmarks.detection?.score
            pose = PoseResult(pitch: face.pose.pitch, yaw: face.pose.yaw, roll: face.pose.roll)
            leftEyeOpen = face.expression.leftEyeOpen
            rightEyeOpen = face.expression.rightEyeOpen
            smiling = face.expression.smiling
            quality = face.quality.score
            hints = face.quality.hints.map(\.description)
            uprightRotation = reportsRotation ? face.landmarks.detection?.uprightRotation ?? 0 : nil
        }

        enum CodingKeys: String, CodingKey {
            case box, score, uprightRotation, pose, leftEyeOpen, rightEyeOpen, smiling, quality, hints
        }

        /// Writes every key, `score` as null when there is no detection.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(box, forKey: .box)
            try container.encode(score, forKey: .score)
            try container.encodeIfPresent(uprightRotation, forKey: .uprightRotation)
            try container.encode(pose, forKey: .pose)
            try container.encode(leftEyeOpen, forKey: .leftEyeOpen)
            try container.encode(rightEyeOpen, forKey: .rightEyeOpen)
            try container.encode(smiling, forKey: .smiling)
            try container.encode(quality, forKey: .quality)
            try container.encode(hints, forKey: .hints)
        }
    }

    /// `{"pitch", "yaw", "roll"}`: degrees.
    struct PoseResult: Encodable {
        var pitch: Double
        var yaw: Double
        var roll: Double
    }

    init(path: String, width: Int, height: Int, faces: AnalyzedImage) {
        self.path = path
        self.width = width
        self.height = height
        self.hints = faces.hints.map(\.description)
        self.faces = faces.faces.map { FaceResult($0, reportsRotation: faces.reportsRotation) }
    }

    init(path: String, error: String) {
        self.path = path
        self.error = error
    }

    var faceCount: Int? { faces?.count }

    /// Lines for the human-readable output: the image with its hints, then one line per face.
    var tableLines: [String] {
        guard let faces, let width, let height else { return ["\(path)  error: \(error ?? "unknown")"] }
        let verdict = hints?.isEmpty ?? true ? "acceptable" : "hints: " + (hints ?? []).joined(separator: ", ")
        var lines = ["\(path)  \(width)x\(height)  \(faces.count) face\(faces.count == 1 ? "" : "s")  \(verdict)"]
        for (i, face) in faces.enumerated() {
            let b = face.box, p = face.pose
            lines.append("  #\(i + 1)  score \(face.score.map { fixed(Double($0), 3) } ?? "-")  box x \(fixed(b.x, 1)) "
                + "y \(fixed(b.y, 1)) w \(fixed(b.width, 1)) h \(fixed(b.height, 1))  pitch \(fixed(p.pitch, 1)) "
                + "yaw \(fixed(p.yaw, 1)) roll \(fixed(p.roll, 1))  eyes open L \(fixed(Double(face.leftEyeOpen), 2)) "
                + "R \(fixed(Double(face.rightEyeOpen), 2))  smiling \(fixed(Double(face.smiling), 2))  quality "
                + "\(fixed(face.quality, 2))  \(face.hints.isEmpty ? "no hints" : face.hints.joined(separator: ", "))"
                + (face.uprightRotation.map { "  upright rotation \($0)°" } ?? ""))
        }
        return lines
    }
}
