/// How non-maximum suppression treats detections that overlap a better one.
public enum NMSAlgorithm: String, Sendable, CaseIterable {
    /// MediaPipe's `WEIGHTED` ("blending"): the overlapping detections are merged into the best one, their
    /// box corners and keypoints averaged with their scores as weights; the score stays the best one's.
    /// What the BlazeFace graphs use.
    case weighted
    /// MediaPipe's `DEFAULT` (greedy, hard): the overlapping detections are dropped.
    case hard
}
