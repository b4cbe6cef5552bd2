/// The target a capture is judged against: where the head should be and how large, how straight it should
/// look, how open the eyes, and how much light and sharpness the face needs. `CaptureQualityAssessor` turns
/// each limit into a hint and a score component (see `FaceQuality`).
///
/// Positions and sizes are shares of the upright image (0...1): `headHeight` of its height, `eyeLine` from its
/// top edge, `horizontalCentre` and `horizontalTolerance` of its width. Angles are degrees relative to the line
/// of sight (`HeadPose.relativeToLineOfSight`), so a face anywhere in the frame that looks into the lens is
/// straight.
///
/// The head's height is chin to crown. The mesh stops at the forehead, so the crown is placed as far above the
/// eye line as the chin is below it (the eyes halfway down the head, the classical proportion; MediaPipe's
/// canonical face has its eyes 12.0 cm above the chin, so a head of 24 cm): headHeight = 2 · |chin − eye line|,
/// with the chin mesh point 152 and the eye line the midpoint of the eye corners 33, 133, 263 and 362.
///
/// Use a preset (`passport`, `selfie`) or your own values; `CaptureQualityAssessor.init(framing:)` checks them
/// (`validate()`).
public struct Framing: Hashable, Sendable {
    /// The head's height (chin to crown) as a share of the image's height.
    public var headHeight: ClosedRange<Double>
    /// Where the eye line may be, as a share of the image's height from the top edge.
    public var eyeLine: ClosedRange<Double>
    /// Where the eyes' midpoint should be, as a share of the image's width from the left edge...
    public var horizontalCentre: Double
    /// ...and how far from there it may be, as a share of the image's width.
    public var horizontalTolerance: Double
    /// The largest yaw, in degrees either way relative to the line of sight, of a face that looks straight.
    public var maximumYaw: Double
    /// The largest pitch, in degrees either way relative to the line of sight, of a face that looks straight.
    public var maximumPitch: Double
    /// The largest roll, in degrees either way relative to the line of sight, of a face that looks straight.
    public var maximumRoll: Double
    /// The lowest open probability (0...1) of either eye that counts as open.
    public var minimumEyeOpen: Float
    /// The acceptable mean luminance of the face region (0 black ... 1 white, on the image's encoded values:
    /// Rec. 601 luma of 8-bit sRGB).
    public var luminance: ClosedRange<Double>
    /// The lowest sharpness of the face region (`FaceQuality.Measurements.sharpness`) that is not blurry.
    public var minimumSharpness: Double
    /// The most faces the picture may hold (1 for a passport photo).
    public var maximumFaces: Int

    /// Creates a framing. Each parameter sets the property of the same name, in its units; the defaults centre
    /// the eyes, take an eye as open at 0.5, accept a mean luminance of 0.15...0.85, the default sharpness and
    /// one face. `CaptureQualityAssessor.init(framing:)` checks the values.
    public init(headHeight: ClosedRange<Double>, eyeLine: ClosedRange<Double>, horizontalCentre: Double = 0.5,
                horizontalTolerance: Double, maximumYaw: Double, maximumPitch: Double, maximumRoll: Double,
                minimumEyeOpen: Float = 0.5, luminance: ClosedRange<Double> = 0.15...0.85,
                minimumSharpness: Double = Framing.defaultMinimumSharpness, maximumFaces: Int = 1) {
        self.headHeight = headHeight
        self.eyeLine = eyeLine
        self.horizontalCentre = horizontalCentre
        self.horizontalTolerance = horizontalTolerance
        self.maximumYaw = maximumYaw
        self.maximumPitch = maximumPitch
        self.maximumRoll = maximumRoll
        self.minimumEyeOpen = minimumEyeOpen
        self.luminance = luminance
        self.minimumSharpness = minimumSharpness
        self.maximumFaces = maximumFaces
    }

    /// The sharpness below which a face region is blurry, for both presets. The astronaut sample (a face 110 px
    /// from forehead to chin, sharpness 0.57) falls below it under a Gaussian blur of σ = 1.5 px, 1.4 % of that
    /// length (Documentation/Attributes.md, "Capture quality").
    public static let defaultMinimumSharpness = 0.05

    /// A US passport photo (U.S. Department of State, travel.state.gov photo requirements and photo composition
    /// template): a 2 x 2 inch picture with the head, chin to crown, 1 to 1 3/8 inch (50 % to 69 % of the
    /// height), the eyes 1 1/8 to 1 3/8 inch above the bottom edge (31 % to 44 % of the height from the top),
    /// the head centred (no figure given: we allow 5 % of the width), both eyes open, one person. The angles are
    /// ISO/IEC 19794-5:2011 §7.2.2's frontal pose, which ICAO Doc 9303 photos follow: at most 5° of yaw and
    /// pitch and 8° of roll. Crop the camera frame to a square first: the shares are of the picture judged.
    public static let passport = Framing(
        headHeight: 0.50...0.69, eyeLine: 0.31...0.44, horizontalCentre: 0.5, horizontalTolerance: 0.05,
        maximumYaw: 5, maximumPitch: 5, maximumRoll: 8, minimumEyeOpen: 0.5, luminance: 0.15...0.85,
        minimumSharpness: defaultMinimumSharpness, maximumFaces: 1)

    /// A selfie or video-call frame (our choice, no standard): the head 20 % to 80 % of the height, the eye
    /// line 15 % to 60 % of the height from the top, the eyes' midpoint within 15 % of the width from the centre, within 15°
    /// of looking straight, one person.
    public static let selfie = Framing(
        headHeight: 0.20...0.80, eyeLine: 0.15...0.60, horizontalCentre: 0.5, horizontalTolerance: 0.15,
        maximumYaw: 15, maximumPitch: 15, maximumRoll: 15, minimumEyeOpen: 0.5, luminance: 0.15...0.85,
        minimumSharpness: defaultMinimumSharpness, maximumFaces: 1)

    /// Checks every limit: shares finite, positive where they are sizes, ranges inside 0...1 (`headHeight`'s
    /// upper bound may exceed 1: a close-up), angles finite and positive, `minimumEyeOpen` in 0...1,
    /// `luminance` inside 0...1 and not a single point, `minimumSharpness` finite and positive,
    /// `maximumFaces` at least 1.
    /// - Throws: `CaptureQualityError.invalidFraming(field:)` naming the first bad field.
    public func validate() throws(CaptureQualityError) {
        func check(_ ok: Bool, _ field: String) throws(CaptureQualityError) {
            if !ok { throw .invalidFraming(field: field) }
        }
        try check(headHeight.lowerBound > 0 && headHeight.upperBound.isFinite, "headHeight")
        try check(Self.isShare(eyeLine) && eyeLine.lowerBound < eyeLine.upperBound, "eyeLine")
        try check((0...1).contains(horizontalCentre), "horizontalCentre")
        try check(horizontalTolerance > 0 && horizontalTolerance <= 1, "horizontalTolerance")
        try check(maximumYaw > 0 && maximumYaw.isFinite, "maximumYaw")
        try check(maximumPitch > 0 && maximumPitch.isFinite, "maximumPitch")
        try check(maximumRoll > 0 && maximumRoll.isFinite, "maximumRoll")
        try check(minimumEyeOpen >= 0 && minimumEyeOpen < 1, "minimumEyeOpen")
        try check(Self.isShare(luminance) && luminance.lowerBound < luminance.upperBound, "luminance")
        try check(minimumSharpness > 0 && minimumSharpness.isFinite, "minimumSharpness")
        try check(maximumFaces >= 1, "maximumFaces")
    }

    /// A range of finite bounds inside 0...1 (NaN fails every comparison).
    private static func isShare(_ range: ClosedRange<Double>) -> Bool {
        range.lowerBound >= 0 && range.upperBound <= 1
    }
}
