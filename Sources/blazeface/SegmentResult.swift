import BlazeReports
import BlazeSegmentation
import Foundation

/// One image in the JSON document `blazeface segment --json` prints, `{"images": [SegmentResult]}` (keep these
/// keys: automated checks read them): the library's `SegmentationReport` (`width`, `height`, `model`,
/// `personShare`) with `path`, and `mask` and `output` (the files written, null when not asked); or `path` and
/// `error`.
struct SegmentResult: ImageOutcome {
    var entry: ImageEntry<SegmentationReport>
    var mask: String?
    var output: String?

    init(path: String, report: SegmentationReport, mask: String?, output: String?) {
        entry = ImageEntry(path: path, outcome: .report(report))
        self.mask = mask
        self.output = output
    }

    init(path: String, error: String) {
        entry = ImageEntry(path: path, outcome: .failure(error))
    }

    var path: String { entry.path }

    enum CodingKeys: String, CodingKey {
        case mask, output
    }

    /// A success writes the entry's keys and `mask` and `output` (null when not written); a failure writes
    /// `path` and `error`.
    func encode(to encoder: any Encoder) throws {
        try entry.encode(to: encoder)
        guard entry.report != nil else { return }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(mask, forKey: .mask)
        try container.encode(output, forKey: .output)
    }

    init(from decoder: any Decoder) throws {
        entry = try ImageEntry(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        mask = try container.decodeIfPresent(String.self, forKey: .mask)
        output = try container.decodeIfPresent(String.self, forKey: .output)
    }

    var summary: String? {
        entry.report.map { "\(fixed($0.personShare * 100, 1))% person" }
    }

    /// One line: the image, its size, the model, the person share and the files written.
    var tableLines: [String] {
        guard let report = entry.report, let summary else { return ["\(path)  error: \(entry.error ?? "unknown")"] }
        var line = "\(path)  \(report.width)x\(report.height)  \(report.model)  \(summary)"
        if let mask { line += "  mask \(mask)" }
        if let output { line += "  output \(output)" }
        return [line]
    }
}
