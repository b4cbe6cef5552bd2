import BlazeReports
import Foundation

extension AnalysisReport: ReportText {
    var summary: String { faceCountSummary(faces.count) }

    /// The picture with its hints, then one line per face.
    func tableLines(path: String) -> [String] {
        let verdict = hints.isEmpty ? "acceptable" : "hints: " + hints.joined(separator: ", ")
        var lines = ["\(path)  \(width)x\(height)  \(faceCountSummary(faces.count))  \(verdict)"]
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
