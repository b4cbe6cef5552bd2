import BlazeReports
import Foundation

extension DetectionReport: ReportText {
    var summary: String { faceCountSummary(faces.count) }

    /// The picture, then per face its score, box and roll and a line of keypoints (three a line).
    func tableLines(path: String) -> [String] {
        var lines = ["\(path)  \(width)x\(height)  \(faceCountSummary(faces.count))"]
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
