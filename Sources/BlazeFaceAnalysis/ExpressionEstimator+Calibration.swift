import Foundation

extension ExpressionEstimator {
    /// The logistic mappings from `ExpressionMeasurements` to probabilities, fitted on the labelled pictures of
    /// Tests/Goldens/labels/expressions.json (how they were labelled, and the results per picture:
    /// Documentation/Attributes.md).
    ///
    /// - Eyes: p = σ((aspect ratio − `eyeMidpoint`) / `eyeWidth`). With the attention mesh the labelled open
    ///   eyes measure 0.155...0.42 (narrowed by a smile or a grimace at the low end), the closed ones (a wink,
    ///   lids shut over an eye looking down) 0.01...0.08, and eyelids that meet measure 0. 0.5 is placed
    ///   between the two groups, at half the canonical face's 0.242, and the slope makes the narrowest open
    ///   eye 0.85 and the widest closed one 0.14.
    /// - Smile: p = σ(`widening`·w + `raise`·r + `retraction`·d + `smileBias`), with w, r, d the mouth's
    ///   widening, its corners' raise and their retraction in cm (a logistic regression on 22 labelled faces,
    ///   rounded). A neutral face (the canonical one) gets 0.0005; a broad smile, 0.99 and more.
    public enum Calibration {
        /// The eye aspect ratio at which an eye is open with probability 0.5.
        public static let eyeMidpoint = 0.12
        /// The change of aspect ratio that multiplies the odds of "open" by e.
        public static let eyeWidth = 0.02
        /// Weight of the mouth's widening (per cm).
        public static let widening = 2.0
        /// Weight of the corners' raise (per cm).
        public static let raise = 3.2
        /// Weight of the corners' retraction (per cm).
        public static let retraction = 5.3
        /// The smile's log-odds for a face whose mouth is the canonical face's.
        public static let smileBias = -7.6

        /// σ(z) = 1 / (1 + e^−z): 0...1 for any z, infinite ones included.
        @inline(__always)
        static func logistic(_ z: Double) -> Double {
            1 / (1 + exp(-z))
        }
    }
}
