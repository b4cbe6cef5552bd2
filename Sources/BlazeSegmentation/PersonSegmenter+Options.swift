import BlazeModels

extension PersonSegmenter {
    /// Which of MediaPipe's two selfie segmentation models runs.
    public enum Model: String, Hashable, Sendable, CaseIterable {
        /// The general model, 256x256 (MediaPipe's `model_selection=0`). The default.
        case general
        /// The landscape model, 256 wide by 144 high, made for video calls (`model_selection=1`); a little faster.
        case landscape
        /// Both models loaded; each image goes to the one whose input shape is closer to its own:
        /// `.landscape` when the upright image is wider than 4:3 (width · 3 > height · 4), else `.general`.
        /// 4:3 is the geometric mean of the two models' aspect ratios, 1 and 16:9.
        case automatic

        /// The catalog model of `.general` and `.landscape`; nil for `.automatic`.
        public var catalogName: ModelName? {
            switch self {
            case .general: return .selfieSegmentation
            case .landscape: return .selfieSegmentationLandscape
            case .automatic: return nil
            }
        }

        /// The model `.automatic` picks for an upright image of this size (`.general` or `.landscape`).
        /// - Parameters:
        ///   - width: the upright image's width, in pixels.
        ///   - height: the upright image's height, in pixels.
        /// - Returns: `.landscape` when the image is wider than 4:3, else `.general`.
        public static func automaticChoice(width: Int, height: Int) -> Model {
            width * 3 > height * 4 ? .landscape : .general
        }
    }

    /// The size of the mask `segment` returns.
    public enum Resolution: String, Hashable, Sendable, CaseIterable {
        /// The upright image's size, upsampled from the model's output as MediaPipe does (OpenCV's
        /// `cv::resize`, bilinear with half-pixel centres; see `MaskResizer`). MediaPipe's mask. The default.
        case image
        /// The model's output size (256x256 or 256x144), as the model wrote it: cheaper, for callers that
        /// resample the mask themselves (a GPU texture, say).
        case model
    }

    /// Segmenter options.
    public struct Options: Hashable, Sendable, PipelineOptions {
        /// Temporal smoothing for video, 0...1 (MediaPipe's `SegmentationSmoothingCalculator`,
        /// `combine_with_previous_ratio`; its pose graph uses 0.7). Each mask is mixed with the previous
        /// smoothed one where the new one is uncertain (values near 0.5); 0 turns it off, the default and
        /// MediaPipe's SelfieSegmentation. See `PersonSegmenter.smooth`.
        public var smoothing: Float
        /// Threads the model's inference uses, the calling thread included (1...`Interpreter.Options.maximumThreadCount`).
        public var threadCount: Int
        /// What each model file may make the segmenter allocate and compute while it loads; past a limit,
        /// `.invalidModel` names it (see `ModelLimits`).
        public var modelLimits: ModelLimits

        /// Options; each parameter sets the property of the same name.
        public init(smoothing: Float = 0, threadCount: Int = 1, modelLimits: ModelLimits = ModelLimits()) {
            self.smoothing = smoothing
            self.threadCount = threadCount
            self.modelLimits = modelLimits
        }

        /// The options' checks (`PipelineOptions`; the thread count is checked by the model session).
        public var problems: [String?] { [OptionCheck.fraction(smoothing, "smoothing")] }
    }
}
