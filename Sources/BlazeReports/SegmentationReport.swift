import BlazeSegmentation

/// What `blazeface segment --json` reports of one picture: its upright size, the model that ran and the share
/// of the picture the person covers (`{"width", "height", "model", "personShare"}`; keep these keys).
public struct SegmentationReport: Codable, Hashable, Sendable {
    /// The upright picture's width in pixels.
    public var width: Int
    /// The upright picture's height in pixels.
    public var height: Int
    /// The model that ran: `general` or `landscape`.
    public var model: String
    /// The share of the mask's pixels above 0.5, 0...1, rounded to 5 decimals.
    public var personShare: Double

    /// The report of a mask.
    /// - Parameters:
    ///   - width: the upright picture's width.
    ///   - height: the upright picture's height.
    ///   - model: the model that made the mask.
    ///   - personShare: the share of the mask's pixels above 0.5 (rounded here to 5 decimals).
    public init(width: Int, height: Int, model: PersonSegmenter.Model, personShare: Double) {
        self.width = width
        self.height = height
        self.model = model.rawValue
        self.personShare = (personShare * 100_000).rounded() / 100_000
    }
}
