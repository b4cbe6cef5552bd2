/// One edge between two landmarks of the face mesh, by their indices in the landmark list: 0..<468 for the
/// mesh, 468..<478 for the iris points that the refined (attention) model adds.
///
/// `start` and `end` keep the direction MediaPipe writes the edge in; for drawing, the direction does not
/// matter. Lists of connections in this module are sorted by `start`, then `end`.
public struct LandmarkConnection: Hashable, Sendable {
    /// The index of the landmark the edge starts at.
    public let start: Int
    /// The index of the landmark the edge ends at.
    public let end: Int

    /// An edge; each parameter sets the property of the same name.
    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }
}
