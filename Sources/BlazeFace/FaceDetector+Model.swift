import BlazeAnchors
import BlazeModels

extension FaceDetector {
    /// The BlazeFace detectors of the model catalog (`ModelCatalog`), which `Models/fetch.sh` provides.
    public enum Model: String, Hashable, Sendable, CaseIterable {
        /// 128x128, faces within about 2 m of a front camera (selfies, video calls). The fastest.
        case shortRange
        /// 192x192, faces within about 5 m (group photos, back camera).
        case fullRange
        /// The full-range model with sparse weights: the same task, a smaller file.
        case fullRangeSparse
        /// The 2020 256x256 back-camera model.
        case backCamera

        /// The detector for a catalog model; nil if `name` is not a face detector. An alias (`.front`, the
        /// short-range model's older file name) gives the model it stands for.
        /// - Parameter name: a catalog model name.
        public init?(_ name: ModelName) {
            let canonical = name.entry.canonicalName
            guard let model = Self.allCases.first(where: { $0.catalogName == canonical }) else { return nil }
            self = model
        }

        /// The model's name in the catalog (`short-range`, ...), which is also its command-line name.
        public var catalogName: ModelName {
            switch self {
            case .shortRange: return .shortRange
            case .fullRange: return .fullRange
            case .fullRangeSparse: return .fullRangeSparse
            case .backCamera: return .back
            }
        }

        /// The model's catalog entry: file, sha256, source, tensors.
        public var catalogEntry: ModelEntry { catalogName.entry }

        /// The model's file name (in `Models/`, or wherever you ship it).
        public var fileName: String { catalogEntry.fileName }

        /// Anchors and decoding as in MediaPipe's graph for this model, and the catalog's input range and
        /// output names (regressors first, then scores).
        public var configuration: Configuration {
            let entry = catalogEntry
            let (anchors, decoding): (AnchorOptions, DecodingOptions)
            switch self {
            case .shortRange: (anchors, decoding) = (.shortRange, .shortRange)
            case .fullRange, .fullRangeSparse: (anchors, decoding) = (.fullRange, .fullRange)
            case .backCamera: (anchors, decoding) = (.backCamera, .backCamera)
            }
            return Configuration(anchors: anchors, decoding: decoding, inputRange: entry.inputRange,
                                 regressorsOutput: entry.outputs.first?.name, scoresOutput: entry.outputs.last?.name)
        }
    }

    /// How to read a detector model's outputs: its SSD anchors and the decoding of boxes, keypoints and scores.
    ///
    /// The model must take one `1 x S x S x 3` float input (RGB in `inputRange`) and give two outputs:
    /// regressors `1 x anchors x numCoordinates` and score logits `1 x anchors x 1`.
    public struct Configuration: Hashable, Sendable {
        /// The SSD anchor grid the regressors are relative to.
        public var anchors: AnchorOptions
        /// How regressors and score logits become boxes, keypoints and scores.
        public var decoding: DecodingOptions
        /// The range pixel values 0...255 are mapped to (BlazeFace: -1...1).
        public var inputRange: ClosedRange<Float>
        /// The names of the regressor and score outputs; nil finds them by shape.
        public var regressorsOutput: String?
        /// The name of the score-logit output; nil finds it by shape.
        public var scoresOutput: String?

        /// A configuration; each parameter sets the property of the same name.
        public init(anchors: AnchorOptions, decoding: DecodingOptions, inputRange: ClosedRange<Float> = -1...1,
                    regressorsOutput: String? = nil, scoresOutput: String? = nil) {
            self.anchors = anchors
            self.decoding = decoding
            self.inputRange = inputRange
            self.regressorsOutput = regressorsOutput
            self.scoresOutput = scoresOutput
        }
    }

    /// How the image is fitted into the model's square input.
    public enum Preprocessing: String, Hashable, Sendable, CaseIterable {
        /// MediaPipe's: the whole image, scaled to fit, centred, with the border padded (the default).
        case letterbox
        /// The square centre of the image (the iOS apps this project started from); faces outside it are missed.
        case centerCrop
    }

    /// Detector options.
    public struct Options: Hashable, Sendable, PipelineOptions {
        /// Minimum score (0...1) of a reported face; nil uses the model's graph default (0.5 short-range,
        /// 0.6 full-range, 0.65 back camera).
        public var minimumScore: Float?
        /// Non-maximum suppression: MediaPipe's weighted blending (the default) or plain.
        public var nms: NMSAlgorithm
        /// IoU above which detections are merged or suppressed (MediaPipe's graphs: 0.3; MediaPipe Tasks: 0.5).
        public var iouThreshold: Float
        /// At most this many faces, the highest scores first; nil for no limit.
        public var maximumFaces: Int?
        /// Threads each `detect` call's inference uses, the calling thread included (1 to
        /// `Interpreter.Options.maximumThreadCount`; default 1). Above 1 the detector keeps worker threads
        /// that split its large layers; results are identical for any count. For many images at once, one
        /// single-threaded detector per thread usually gives more throughput.
        public var threadCount: Int
        /// How the image is fitted into the model's square input (default `.letterbox`).
        public var preprocessing: Preprocessing
        /// What the model file may make the detector allocate and compute while it loads (the interpreter's
        /// defaults unless lowered); past a limit, `.invalidModel` names it (see `ModelLimits`).
        public var modelLimits: ModelLimits
        /// Also look for faces in the image turned by 90°, 180° and 270° (default false): BlazeFace models only
        /// find upright faces, so a sideways or upside-down picture without an orientation tag gives none.
        /// When set, `detect` runs the model on the four quarter turns of the image (views of the same
        /// pixels, no copy), maps every face back into the upright image's pixels, and keeps one face per
        /// person: across turns, a face whose box overlaps (IoU above `iouThreshold`) a higher-scoring face
        /// of another turn is dropped. Each face's `uprightRotation` says in which turn it was upright. It
        /// costs up to four detections per call (Documentation/FaceDetector.md, "Sideways pictures"), and
        /// `detect(_:into:)` then allocates. When false, results are exactly those of a plain detection.
        public var tryRotations: Bool

        /// Options; each parameter sets the property of the same name.
        /// - Parameters:
        ///   - minimumScore: the minimum score of a reported face; nil for the model's default.
        ///   - nms: the non-maximum suppression.
        ///   - iouThreshold: the IoU above which detections are merged or suppressed.
        ///   - maximumFaces: at most this many faces; nil for no limit.
        ///   - threadCount: threads each inference uses.
        ///   - preprocessing: how the image is fitted into the model's input.
        ///   - modelLimits: what the model file may make the detector allocate and compute.
        ///   - tryRotations: whether to also detect in the image turned by 90°, 180° and 270°.
        public init(minimumScore: Float? = nil, nms: NMSAlgorithm = .weighted, iouThreshold: Float = 0.3,
                    maximumFaces: Int? = nil, threadCount: Int = 1, preprocessing: Preprocessing = .letterbox,
                    modelLimits: ModelLimits = ModelLimits(), tryRotations: Bool = false) {
            self.minimumScore = minimumScore
            self.nms = nms
            self.iouThreshold = iouThreshold
            self.maximumFaces = maximumFaces
            self.threadCount = threadCount
            self.preprocessing = preprocessing
            self.modelLimits = modelLimits
            self.tryRotations = tryRotations
        }

        /// The options' checks (`PipelineOptions`; the thread count and limits are checked when the model loads).
        public var problems: [String?] {
            [OptionCheck.fraction(iouThreshold, "iouThreshold"), OptionCheck.fraction(minimumScore, "minimumScore"),
             OptionCheck.atLeastOne(maximumFaces, "maximumFaces")]
        }
    }
}
