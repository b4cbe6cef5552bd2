/// How to turn a model's raw regressors and score logits into detections: the subset of MediaPipe's
/// `TensorsToDetectionsCalculatorOptions` that SSD-style detectors such as BlazeFace use (one class).
///
/// Each anchor has `numCoordinates` regressor values: the box at `boxCoordinateOffset` (x, y, w, h with
/// `reverseOutputOrder`, y, x, h, w without) and `numKeypoints` keypoints of `valuesPerKeypoint` values
/// starting at `keypointCoordinateOffset` (x, y first with `reverseOutputOrder`, y, x without; further
/// values such as z are ignored). Checked by `DetectionDecoder.init`.
public struct DecodingOptions: Hashable, Sendable {
    /// Regressor values per anchor.
    public var numCoordinates: Int
    /// Position of the four box values within an anchor's regressors.
    public var boxCoordinateOffset: Int
    /// Position of the first keypoint value within an anchor's regressors.
    public var keypointCoordinateOffset: Int
    /// Keypoints per anchor, at most `Keypoints.capacity`.
    public var numKeypoints: Int
    /// Values per keypoint (2: x and y; MediaPipe supports only 2).
    public var valuesPerKeypoint: Int
    /// Divisor of the x offsets (box centre and keypoints), in units of the anchor width.
    public var xScale: Float
    /// Divisor of the y offsets (box centre and keypoints), in units of the anchor height.
    public var yScale: Float
    /// Divisor of the box width, in units of the anchor width.
    public var wScale: Float
    /// Divisor of the box height, in units of the anchor height.
    public var hScale: Float
    /// Detections whose score is below this are dropped (a score equal to it is kept, as in MediaPipe).
    /// A probability when `applySigmoid` is on.
    public var minScore: Float
    /// Logits are clamped to ±this before the sigmoid (`.infinity`: no clamping).
    public var scoreClippingThreshold: Float
    /// Turn logits into probabilities with the logistic function.
    public var applySigmoid: Bool
    /// The box is (x, y, w, h) and keypoints (x, y); otherwise (y, x, h, w) and (y, x).
    public var reverseOutputOrder: Bool
    /// Mirror vertically: y → 1 − y for keypoints, and the box's y range likewise.
    public var flipVertically: Bool

    /// Creates options. Each parameter sets the property of the same name; the defaults are BlazeFace's layout
    /// (16 values per anchor: a box, then six keypoints of two values) and MediaPipe's BlazeFace graph settings; the
    /// scales and the minimum score are the model's own.
    public init(
        numCoordinates: Int = 16,
        boxCoordinateOffset: Int = 0,
        keypointCoordinateOffset: Int = 4,
        numKeypoints: Int = 6,
        valuesPerKeypoint: Int = 2,
        xScale: Float,
        yScale: Float,
        wScale: Float,
        hScale: Float,
        minScore: Float,
        scoreClippingThreshold: Float = 100,
        applySigmoid: Bool = true,
        reverseOutputOrder: Bool = true,
        flipVertically: Bool = false
    ) {
        self.numCoordinates = numCoordinates
        self.boxCoordinateOffset = boxCoordinateOffset
        self.keypointCoordinateOffset = keypointCoordinateOffset
        self.numKeypoints = numKeypoints
        self.valuesPerKeypoint = valuesPerKeypoint
        self.xScale = xScale
        self.yScale = yScale
        self.wScale = wScale
        self.hScale = hScale
        self.minScore = minScore
        self.scoreClippingThreshold = scoreClippingThreshold
        self.applySigmoid = applySigmoid
        self.reverseOutputOrder = reverseOutputOrder
        self.flipVertically = flipVertically
    }

    /// BlazeFace's layout (16 values, 6 keypoints, x-first) with the given scale and minimum score.
    /// - Parameters:
    ///   - scale: the model's input side in pixels (128 short-range, 192 full-range, 256 back camera), used for
    ///     every regressor.
    ///   - minScore: the lowest score kept, 0...1.
    /// - Returns: the options.
    public static func blazeFace(scale: Float, minScore: Float) -> DecodingOptions {
        DecodingOptions(xScale: scale, yScale: scale, wScale: scale, hScale: scale, minScore: minScore)
    }
}

// MARK: - Presets

extension DecodingOptions {
    /// The short-range (front-camera) model: scale 128, minimum score 0.5.
    public static let shortRange = blazeFace(scale: 128, minScore: 0.5)
    /// The full-range model (dense and sparse): scale 192, minimum score 0.6.
    public static let fullRange = blazeFace(scale: 192, minScore: 0.6)
    /// The 2020 back-camera model: scale 256, minimum score 0.65.
    public static let backCamera = blazeFace(scale: 256, minScore: 0.65)
}

extension DecodingOptions {
    func validate() throws(AnchorError) {
        func fail(_ message: String) -> AnchorError { .invalidDecodingOptions(message) }
        guard numCoordinates > 0 else { throw fail("numCoordinates \(numCoordinates) must be positive") }
        guard boxCoordinateOffset >= 0, boxCoordinateOffset <= numCoordinates - 4 else {
            throw fail("the box values at \(boxCoordinateOffset)..<\(boxCoordinateOffset + 4) do not fit in \(numCoordinates) coordinates")
        }
        guard numKeypoints >= 0, numKeypoints <= Keypoints.capacity else {
            throw fail("numKeypoints \(numKeypoints) must be in 0...\(Keypoints.capacity)")
        }
        if numKeypoints > 0 {
            guard valuesPerKeypoint >= 2 else {
                throw fail("valuesPerKeypoint \(valuesPerKeypoint) must be at least 2")
            }
            let (span, overflow) = numKeypoints.multipliedReportingOverflow(by: valuesPerKeypoint)
            guard !overflow, keypointCoordinateOffset >= 0, span <= numCoordinates,
                  keypointCoordinateOffset <= numCoordinates - span else {
                throw fail("\(numKeypoints) keypoints of \(valuesPerKeypoint) values at \(keypointCoordinateOffset) do not fit in \(numCoordinates) coordinates")
            }
        }
        for (name, scale) in [("xScale", xScale), ("yScale", yScale), ("wScale", wScale), ("hScale", hScale)]
        where !(scale.isFinite && scale != 0) {
            throw fail("\(name) \(scale) must be finite and non-zero")
        }
        guard !minScore.isNaN else { throw fail("minScore must not be NaN") }
        guard scoreClippingThreshold >= 0 else {
            throw fail("scoreClippingThreshold \(scoreClippingThreshold) must be non-negative")
        }
    }
}
