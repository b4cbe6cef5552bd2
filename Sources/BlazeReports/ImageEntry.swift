/// One picture's entry in a batch document: its path with its report, or with the reason it failed
/// (`{"path", ...the report's keys}` or `{"path", "error"}`), as `blazeface detect|landmarks|analyze --json`
/// prints each element of `"images"`.
public struct ImageEntry<Report: Codable & Sendable>: Codable, Sendable {
    /// The picture's path, as given.
    public var path: String
    /// The report, or the error message.
    public var outcome: Outcome

    /// What became of the picture.
    public enum Outcome: Sendable {
        /// The picture was read and analysed.
        case report(Report)
        /// The picture failed: why, in words.
        case failure(String)
    }

    /// An entry from its parts.
    /// - Parameters:
    ///   - path: the picture's path.
    ///   - outcome: the report or the error message.
    public init(path: String, outcome: Outcome) {
        self.path = path
        self.outcome = outcome
    }

    /// The report, nil for a picture that failed.
    public var report: Report? {
        if case .report(let report) = outcome { return report }
        return nil
    }

    /// The error message, nil for a picture that was read.
    public var error: String? {
        if case .failure(let message) = outcome { return message }
        return nil
    }

    private enum CodingKeys: String, CodingKey {
        case path, error
    }

    /// Writes `path` and the report's keys beside it, or `path` and `error`.
    /// - Parameter encoder: the encoder.
    /// - Throws: the encoder's errors.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        switch outcome {
        case .report(let report): try report.encode(to: encoder)
        case .failure(let message): try container.encode(message, forKey: .error)
        }
    }

    /// Reads an entry: a failure when it has an `error` key, otherwise the report from the same object.
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` when `path` is missing or the report's keys do not decode.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        path = try container.decode(String.self, forKey: .path)
        if let message = try container.decodeIfPresent(String.self, forKey: .error) {
            outcome = .failure(message)
        } else {
            outcome = .report(try Report(from: decoder))
        }
    }
}

/// The JSON document of a batch command: `{"images": [...]}` (keep this key: automated checks read it).
public struct BatchReport<Entry: Codable & Sendable>: Codable, Sendable {
    /// One entry per picture, in the order of the inputs.
    public var images: [Entry]

    /// A document of entries.
    /// - Parameter images: one entry per picture.
    public init(images: [Entry]) {
        self.images = images
    }
}
