/// One detected object: a box, its keypoints and a score, in the model input's normalized coordinates.
public struct Detection: Hashable, Sendable {
    /// The box, normalized to the model input (0...1 inside it); not clipped.
    public var box: Box
    /// The probability (after the sigmoid, when the decoder applies one).
    public var score: Float
    /// The keypoints, normalized like the box.
    public var keypoints: Keypoints
    /// The anchor this detection was decoded from; after weighted NMS, the anchor of the top-scoring
    /// detection of the merged cluster.
    public var anchorIndex: Int

    /// Creates a detection.
    /// - Parameters:
    ///   - box: the box, normalized to the model input.
    ///   - score: the probability, 0...1.
    ///   - keypoints: the keypoints, normalized like the box (none by default).
    ///   - anchorIndex: the anchor it was decoded from.
    public init(box: Box, score: Float, keypoints: Keypoints = Keypoints(), anchorIndex: Int = 0) {
        self.box = box
        self.score = score
        self.keypoints = keypoints
        self.anchorIndex = anchorIndex
    }
}
