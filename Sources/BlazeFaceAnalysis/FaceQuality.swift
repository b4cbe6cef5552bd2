import BlazeFaceMesh

/// How good one face is for a capture: a score, its components, the measurements they come from, and the hints
/// (`CaptureQualityAssessor`).
///
/// Every component is `falloff(d)` of a deviation `d ≥ 0` that is 1 exactly at its framing limit:
/// `falloff(d) = 1` for d ≤ 3/4 and `1 / (1 + (4d − 3)²)` beyond: flat over the comfortable part of the target,
/// 0.5 at the limit, 0.1 at 1.5 times it, toward 0 far past it (smooth at 3/4). A component's hint is raised
/// when d > 1, that is when the component falls below 0.5.
/// The score is the product of the components: 1 for a face comfortably within every target, below 0.5 for a
/// face with a hint, near 0 when anything is far off. Apple Vision's `faceCaptureQuality` is a score of the same
/// kind (higher is better, to compare frames of one person); the numbers are not comparable.
public struct FaceQuality: Hashable, Sendable {
    /// The product of the components, 0...1 (see `FaceQuality`).
    public var score: Double
    /// The components the score is the product of, each 0...1.
    public var components: Components
    /// What the components were computed from.
    public var measurements: Measurements
    /// What to fix, in priority order; empty when the face meets the framing.
    public var hints: CaptureHints

    /// Creates an assessment of one face.
    /// - Parameters:
    ///   - score: the product of the components, 0...1.
    ///   - components: the components, each 0...1.
    ///   - measurements: what they were computed from.
    ///   - hints: what to fix, in priority order.
    public init(score: Double, components: Components, measurements: Measurements, hints: CaptureHints) {
        self.score = score
        self.components = components
        self.measurements = measurements
        self.hints = hints
    }

    /// The score's factors, each 0...1 (see `FaceQuality` for the shape and the deviations).
    public struct Components: Hashable, Sendable {
        /// d = minimumSharpness / sharpness.
        public var sharpness: Double
        /// d = |luminance − middle of the band| / half the band's width.
        public var exposure: Double
        /// d = the largest of |yaw| / maximumYaw, |pitch| / maximumPitch, |roll| / maximumRoll.
        public var frontality: Double
        /// d = (1 − the lesser eye-open probability) / (1 − minimumEyeOpen); 1 (not judged) when no probability
        /// was given.
        public var eyesOpen: Double
        /// d = |headHeight − middle of the band| / half the band's width.
        public var size: Double
        /// d = the larger of |eyes' x − horizontalCentre| / horizontalTolerance and |eye line − middle of the
        /// band| / half the band's width.
        public var centring: Double

        /// Creates components. Each parameter, 0...1, sets the property of the same name.
        public init(sharpness: Double, exposure: Double, frontality: Double, eyesOpen: Double, size: Double,
                    centring: Double) {
            self.sharpness = sharpness
            self.exposure = exposure
            self.frontality = frontality
            self.eyesOpen = eyesOpen
            self.size = size
            self.centring = centring
        }

        /// Their product.
        public var product: Double { sharpness * exposure * frontality * eyesOpen * size * centring }
    }

    /// What was measured on the face and the picture.
    public struct Measurements: Hashable, Sendable {
        /// Contrast-normalized Laplacian energy of the face region resampled to 64 x 64 luma pixels:
        /// mean(Δ²) / (variance + 1), Δ the 4-neighbour Laplacian, on 0...255 values. Does not depend on the
        /// face's size in pixels (beyond what the resampling loses) nor on its brightness. 0.57 for the sharp
        /// astronaut sample, 0.04 once blurred by σ = 1.4 % of her face's length, 0 for a flat region.
        public var sharpness: Double
        /// Mean luma of the face region, 0...1.
        public var luminance: Double
        /// Degrees, relative to the line of sight (`HeadPose.relativeToLineOfSight`), positive when the face
        /// looks up.
        public var pitch: Double
        /// Degrees, relative to the line of sight, positive when the subject turns to their own left.
        public var yaw: Double
        /// Degrees, relative to the line of sight, positive when the face rolls counter-clockwise as the camera
        /// sees it.
        public var roll: Double
        /// The lesser of the two eye-open probabilities; nil when not given.
        public var eyeOpen: Float?
        /// Chin to crown (estimated, see `Framing`) as a share of the image's height.
        public var headHeight: Double
        /// The eyes' midpoint's x, as a share of the image's width from the left edge (`eyeLine` is its y).
        public var eyeX: Double
        /// The eyes' midpoint's y, as a share of the image's height from the top edge.
        public var eyeLine: Double

        /// Creates measurements. Each parameter sets the property of the same name, in its units.
        public init(sharpness: Double, luminance: Double, pitch: Double, yaw: Double, roll: Double, eyeOpen: Float?,
                    headHeight: Double, eyeX: Double, eyeLine: Double) {
            self.sharpness = sharpness
            self.luminance = luminance
            self.pitch = pitch
            self.yaw = yaw
            self.roll = roll
            self.eyeOpen = eyeOpen
            self.headHeight = headHeight
            self.eyeX = eyeX
            self.eyeLine = eyeLine
        }
    }

    /// The component for a deviation `d` (1 at the limit): 1 up to 3/4, `1 / (1 + (4|d| − 3)²)` beyond;
    /// 0 for an infinite or NaN deviation.
    /// - Parameter d: the deviation, 1 at the framing's limit.
    /// - Returns: the component, 0...1.
    public static func falloff(_ d: Double) -> Double {
        guard d.isFinite else { return 0 }
        let excess = max(4 * abs(d) - 3, 0)
        return 1 / (1 + excess * excess)
    }
}
