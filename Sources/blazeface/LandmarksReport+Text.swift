import BlazeReports
import Foundation

extension LandmarksReport: ReportText {
    /// The named points of the text output: MediaPipe's indices.
    static let namedPoints: [(name: String, index: Int)] = [("nose tip", 1), ("right iris", 468), ("left iris", 473)]

    var summary: String { faceCountSummary(faces.count) }

    /// The picture, then one line per face with its named points.
    func tableLines(path: String) -> [String] {
        var lines = ["\(path)  \(width)x\(height)  \(faceCountSummary(faces.count))"]
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
