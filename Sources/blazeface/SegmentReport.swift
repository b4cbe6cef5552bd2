import BlazeSegmentation
import Foundation

/// One image in the JSON document `blazeface segment --json` prints, `{"images": [SegmentResult]}` (keep these
/// keys: automated checks read them): `path`, `width`, `height` (upright), `model` (`general` or `landscape`:
/// the model that ran), `personShare` (the share of the mask's pixels above 0.5, 0...1, rounded to 5 decimals),
/// `mask` and `output` (the files written, null when not asked); or `path` and `error`.
struct SegmentResult: ImageOutcome {
    var path: String
    var width: Int?
    var height: Int?
    var model: String?
    var personShare: Double?
    var mask: String?
    var output: String?
    var error: String?

    init(path: String, width: Int, height: Int, model: PersonSegmenter.Model, personShare: Double,
         mask: String?, output: String?) {
        self.path = path
        self.width = width
        self.height = height
        self.model = model.rawValue
        self.personShare = (personShare * 100_000).rounded() / 100_000
        self.mask = mask
        self.output = output
    }

    init(path: String, error: String) {
        self.path = path
        self.error = error
    }

    enum CodingKeys: String, CodingKey {
        case path, width, height, model, personShare, mask, output, error
    }

    /// A success writes every key but `error` (`mask` and `output` as null when not written); a failure
    /// writes `path` and `error`.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        if let error {
            try container.encode(error, forKey: .error)
            return
        }
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(model, forKey: .model)
        try container.encode(personShare, forKey: .personShare)
        try container.encode(mask, forKey: .mask)
        try container.encode(output, forKey: .output)
    }

    var summary: String? {
        guard error == nil, let personShare else { return nil }
        return "\(fixed(personShare * 100, 1))% person"
    }

    /// One line: the image, its size, the model, the person share and the files written.
    var tableLines: [String] {
        guard let width, let height, let model, let summary else { return ["\(path)  error: \(error ?? "unknown")"] }
        var line = "\(path)  \(width)x\(height)  \(model)  \(summary)"
        if let mask { line += "  mask \(mask)" }
        if let output { line += "  output \(output)" }
        return [line]
    }
}
