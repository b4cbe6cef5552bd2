import Foundation

/// The One-Euro filter (Casiez, Roussel and Vogel, CHI 2012): an exponential smoothing whose cut-off frequency
/// rises with the signal's speed, so that a still value is smoothed hard (little jitter) and a moving one
/// lightly (little lag).
///
/// Per sample: the speed is the difference from the previous raw value times `valueScale` times the sampling
/// frequency (taken from the timestamps), smoothed with the cut-off `derivativeCutoff`; the value is then
/// smoothed with the cut-off `minimumCutoff + beta · |speed|`. A smoothing factor for cut-off `f` at sampling
/// period `T` is `1 / (1 + 1 / (2π f T))`.
///
/// The behaviour at the edges follows MediaPipe's `OneEuroFilter` (mediapipe/util/filtering/one_euro_filter.cc):
/// the first value passes unchanged, a timestamp that does not increase returns the value unchanged and leaves
/// the state alone, and `valueScale` (MediaPipe: the inverse of the object's size) makes the speed, hence the
/// cut-off, independent of how large the face is. A value type: 40 bytes, no allocation.
public struct OneEuroFilter: Hashable, Sendable {
    /// The filter's constants.
    public struct Parameters: Hashable, Sendable {
        /// The cut-off frequency of a still signal, in hertz.
        public var minimumCutoff: Double
        /// How fast the cut-off rises with the speed (hertz per unit of scaled speed).
        public var beta: Double
        /// The cut-off frequency of the speed estimate, in hertz.
        public var derivativeCutoff: Double

        /// Constants; each parameter sets the property of the same name.
        public init(minimumCutoff: Double, beta: Double, derivativeCutoff: Double) {
            self.minimumCutoff = minimumCutoff
            self.beta = beta
            self.derivativeCutoff = derivativeCutoff
        }

        /// MediaPipe Tasks' face-landmark smoothing (`face_landmarks_detector_graph.cc`): minimum cut-off 0.05 Hz,
        /// beta 80, derivative cut-off 1 Hz, the speed measured in face sizes per second.
        public static let mediaPipeFace = Parameters(minimumCutoff: 0.05, beta: 80, derivativeCutoff: 1)

        /// Whether every constant is finite and the cut-offs are positive.
        public var isValid: Bool {
            minimumCutoff.isFinite && minimumCutoff > 0 && derivativeCutoff.isFinite && derivativeCutoff > 0
                && beta.isFinite && beta >= 0
        }
    }

    /// The filter's constants; changing them takes effect at the next sample.
    public var parameters: Parameters
    private var lastTime = 0.0
    private var lastRaw = 0.0
    private var lastValue = 0.0
    private var lastSpeed = 0.0
    private var started = false

    /// A filter that has seen no value yet; each parameter sets the property of the same name.
    public init(parameters: Parameters = .mediaPipeFace) {
        self.parameters = parameters
    }

    /// Whether the filter has seen a value since it was made or reset.
    public var hasValue: Bool { started }

    /// Forgets the signal: the next value passes unchanged.
    public mutating func reset() {
        started = false
    }

    /// The smoothed value of `value` at `time` (seconds, increasing). `valueScale` multiplies the speed before it
    /// raises the cut-off: pass the inverse of the object's size to measure speed in sizes per second.
    /// - Parameters:
    ///   - value: the raw sample.
    ///   - time: the sample's time, in seconds; not after the previous one's, the value is returned unchanged.
    ///   - valueScale: multiplies the speed before it raises the cut-off (default 1).
    /// - Returns: the smoothed value (the value itself for the first sample).
    public mutating func filter(_ value: Double, time: Double, valueScale: Double = 1) -> Double {
        guard started else {
            started = true
            lastTime = time
            lastRaw = value
            lastValue = value
            lastSpeed = 0
            return value
        }
        let period = time - lastTime
        guard period > 0, period.isFinite else { return value }
        let speed = (value - lastRaw) * valueScale / period
        lastSpeed += Self.alpha(cutoff: parameters.derivativeCutoff, period: period) * (speed - lastSpeed)
        let cutoff = parameters.minimumCutoff + parameters.beta * abs(lastSpeed)
        lastValue += Self.alpha(cutoff: cutoff, period: period) * (value - lastValue)
        lastRaw = value
        lastTime = time
        return lastValue
    }

    /// The exponential smoothing factor of a first-order low-pass filter with cut-off `cutoff` (Hz) sampled every
    /// `period` seconds.
    @inline(__always)
    static func alpha(cutoff: Double, period: Double) -> Double {
        let tau = 1 / (2 * Double.pi * cutoff)
        return 1 / (1 + tau / period)
    }
}
