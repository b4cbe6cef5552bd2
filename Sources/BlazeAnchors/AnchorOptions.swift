/// How to lay out SSD anchors: MediaPipe's `SsdAnchorsCalculatorOptions` (without the multiscale mode).
///
/// Use one of the presets for the BlazeFace models, or build your own for other SSD models. The options
/// are checked by `generateAnchors()`, not here.
public struct AnchorOptions: Hashable, Sendable {
    /// Model input width in pixels.
    public var inputWidth: Int
    /// Model input height in pixels.
    public var inputHeight: Int
    /// Number of output layers; `strides` (and the feature-map sizes, when given) have one entry per layer.
    public var numLayers: Int
    /// Anchor scale of the first layer (unused with `fixedAnchorSize`).
    public var minScale: Float
    /// Anchor scale of the last layer (unused with `fixedAnchorSize`).
    public var maxScale: Float
    /// Anchor centre within its feature-map cell, in cells (0.5: the cell's centre).
    public var anchorOffsetX: Float
    /// Anchor centre within its feature-map cell, in cells (0.5: the cell's centre).
    public var anchorOffsetY: Float
    /// Stride of each layer in input pixels. Consecutive layers with the same stride share one grid: their
    /// anchors are interleaved cell by cell.
    public var strides: [Int]
    /// Aspect ratios (width / height) of the anchors in each cell, per layer.
    public var aspectRatios: [Float]
    /// Feature-map widths per layer; empty: `ceil(inputWidth / stride)`.
    public var featureMapWidths: [Int]
    /// Feature-map heights per layer; empty: `ceil(inputHeight / stride)`.
    public var featureMapHeights: [Int]
    /// Use three predefined anchors (scales 0.1, s, s; ratios 1, 2, 0.5) in the first layer.
    public var reduceBoxesInLowestLayer: Bool
    /// When positive, each layer gets one more anchor of this aspect ratio with the scale
    /// `sqrt(scale × nextScale)` (`nextScale` is 1 for the last layer).
    public var interpolatedScaleAspectRatio: Float
    /// Every anchor has width and height 1 (the regressors then carry the whole box size).
    public var fixedAnchorSize: Bool

    /// The largest number of anchors `generateAnchors()` agrees to produce.
    public static let maximumAnchorCount = 1_000_000

    /// Creates options. Each parameter sets the property of the same name; the defaults are those of MediaPipe's
    /// `SsdAnchorsCalculatorOptions`, and the parameters without one (input size, layers, scales, strides) are the
    /// model's own.
    public init(
        inputWidth: Int,
        inputHeight: Int,
        numLayers: Int,
        minScale: Float,
        maxScale: Float,
        anchorOffsetX: Float = 0.5,
        anchorOffsetY: Float = 0.5,
        strides: [Int],
        aspectRatios: [Float] = [1.0],
        featureMapWidths: [Int] = [],
        featureMapHeights: [Int] = [],
        reduceBoxesInLowestLayer: Bool = false,
        interpolatedScaleAspectRatio: Float = 1.0,
        fixedAnchorSize: Bool = false
    ) {
        self.inputWidth = inputWidth
        self.inputHeight = inputHeight
        self.numLayers = numLayers
        self.minScale = minScale
        self.maxScale = maxScale
        self.anchorOffsetX = anchorOffsetX
        self.anchorOffsetY = anchorOffsetY
        self.strides = strides
        self.aspectRatios = aspectRatios
        self.featureMapWidths = featureMapWidths
        self.featureMapHeights = featureMapHeights
        self.reduceBoxesInLowestLayer = reduceBoxesInLowestLayer
        self.interpolatedScaleAspectRatio = interpolatedScaleAspectRatio
        self.fixedAnchorSize = fixedAnchorSize
    }
}

// MARK: - Presets

extension AnchorOptions {
    /// The short-range (front-camera) model, 128x128: 16·16·2 + 8·8·6 = 896 anchors.
    public static let shortRange = AnchorOptions(
        inputWidth: 128, inputHeight: 128, numLayers: 4,
        minScale: 0.1484375, maxScale: 0.75,
        strides: [8, 16, 16, 16],
        interpolatedScaleAspectRatio: 1.0, fixedAnchorSize: true
    )

    /// The full-range model (dense and sparse), 192x192: 48·48 = 2304 anchors.
    public static let fullRange = AnchorOptions(
        inputWidth: 192, inputHeight: 192, numLayers: 1,
        minScale: 0.1484375, maxScale: 0.75,
        strides: [4],
        interpolatedScaleAspectRatio: 0.0, fixedAnchorSize: true
    )

    /// The 2020 back-camera model, 256x256: 16·16·2 + 8·8·6 = 896 anchors.
    public static let backCamera = AnchorOptions(
        inputWidth: 256, inputHeight: 256, numLayers: 4,
        minScale: 0.15625, maxScale: 0.75,
        strides: [16, 32, 32, 32],
        interpolatedScaleAspectRatio: 1.0, fixedAnchorSize: true
    )
}
