import BlazeReports
import Foundation

/// A library report as the commands print it without `--json`.
protocol ReportText: Codable, Sendable {
    /// What the progress line says of the picture ("2 faces", "41.3% person").
    var summary: String { get }
    /// The picture's lines in the human-readable output, starting with its path.
    func tableLines(path: String) -> [String]
}

extension ImageEntry: ImageOutcome where Report: ReportText {
    init(path: String, error: String) {
        self.init(path: path, outcome: .failure(error))
    }

    var summary: String? { report?.summary }

    var tableLines: [String] {
        switch outcome {
        case .report(let report): return report.tableLines(path: path)
        case .failure(let message): return ["\(path)  error: \(message)"]
        }
    }
}

/// "1 face", "3 faces".
func faceCountSummary(_ count: Int) -> String {
    "\(count) face\(count == 1 ? "" : "s")"
}

/// `value` with `digits` decimals.
func fixed(_ value: Double, _ digits: Int) -> String {
    guard value.isFinite else { return "\(value)" }
    return String(format: "%.\(digits)f", value)
}
