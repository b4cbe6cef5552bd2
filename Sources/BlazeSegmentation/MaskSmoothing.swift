/// Temporal smoothing of masks for video: MediaPipe's `SegmentationSmoothingCalculator` (CPU), with its
/// constants (google/mediapipe, mediapipe/calculators/image/segmentation_smoothing_calculator.cc).
///
/// Per pixel, with `p` the new value and `q` the previous smoothed one: `t = p − 0.5`, `x = t²`,
/// `uncertainty = 1 − min(1, x · (c1 + x · (c2 + x · (c3 + x · (c4 + x · c5)))))` (a polynomial for one minus the
/// squared binary entropy of `p`: 1 at p = 0.5, 0.16 at p = 0.92, 0 at p = 0 and 1), and the result is
/// `p + (q − p) · (uncertainty · ratio)`. Confident pixels follow the new frame; uncertain ones keep up to `ratio`
/// of the previous frame. The first frame, and any frame after a size change or `reset`, passes through.
public enum MaskSmoothing {
    @usableFromInline static let c1: Float = 5.68842
    @usableFromInline static let c2: Float = -0.748699
    @usableFromInline static let c3: Float = -57.8051
    @usableFromInline static let c4: Float = 291.309
    @usableFromInline static let c5: Float = -624.717

    /// One pixel: the new value `current` mixed with the previous smoothed value `previous`.
    /// - Parameters:
    ///   - current: the new frame's probability, 0...1.
    ///   - previous: the previous frame's smoothed probability, 0...1.
    ///   - ratio: the largest share of `previous` kept, 0...1 (`PersonSegmenter.Options.smoothing`).
    /// - Returns: the smoothed probability.
    @inlinable
    public static func blend(current: Float, previous: Float, ratio: Float) -> Float {
        let t = current - 0.5
        let x = t * t
        let uncertainty = 1 - min(1, x * (c1 + x * (c2 + x * (c3 + x * (c4 + x * c5)))))
        return current + (previous - current) * (uncertainty * ratio)
    }

    /// Smooths `current` in place against `previous`, then copies the result into `previous` (over the shorter
    /// of the two counts; the segmenter passes equal ones).
    static func apply(_ current: UnsafeMutableBufferPointer<Float>, previous: UnsafeMutableBufferPointer<Float>,
                      ratio: Float) {
        for i in 0..<min(current.count, previous.count) {
            let value = blend(current: current[i], previous: previous[i], ratio: ratio)
            current[i] = value
            previous[i] = value
        }
    }
}
