import BlazeAnchors
import BlazeFace
import BlazeFaceAnalysis
import BlazeFaceMesh
import BlazeModels

/// Everything that makes one face job differ from another: the detector and its settings, how the picture is
/// decoded, and the framing `analyze` judges against. The CLI's flags, the server's query parameters and the
/// bench's arguments all become one of these, so that a flag means the same everywhere.
///
/// The detector settings apply to every task: `landmarks` and `analyze` find their faces with the same
/// detector `detect` would use.
public struct FaceJobOptions: Hashable, Sendable {
    /// Where the face detector comes from.
    public enum DetectorSource: Hashable, Sendable {
        /// A detector of the model catalog, found in the models folder.
        case catalog(FaceDetector.Model)
        /// Several catalog detectors run together, their faces merged (`FaceDetector(models:)`).
        case models([FaceDetector.Model])
        /// A `.tflite` detector file you bring. Its anchors and decoding are those of the catalog detector with
        /// the same file name, else of the first catalog detector with the same square input size.
        case file(String)

        /// The still-picture detector (`FaceDetector.stillPictureModels`: full-range, short-range and
        /// full-range-sparse together): the default, which finds close-ups, group photos and old photographs.
        public static let stillPictures = DetectorSource.models(FaceDetector.stillPictureModels)

        /// The name of `stillPictures` on the command line and in the server's query: `photo`.
        public static let stillPicturesName = "photo"

        /// The detectors by name: `photo`, then the catalog's face detectors (`short-range`, `full-range`,
        /// `full-range-sparse`, `back`).
        public static var names: [String] {
            [stillPicturesName] + FaceDetector.Model.allCases.map(\.catalogName.rawValue)
        }

        /// The detector named `name` (one of `names`, or a catalog alias such as `front`); nil for another name.
        /// - Parameter name: a detector's name.
        public init?(name: String) {
            if name == Self.stillPicturesName {
                self = .stillPictures
            } else if let catalogName = ModelName(rawValue: name), let model = FaceDetector.Model(catalogName) {
                self = .catalog(model)
            } else {
                return nil
            }
        }

        /// The detector's name, as `init(name:)` reads it; a file's path; the models' names joined by `+` for
        /// another list of models.
        public var name: String {
            switch self {
            case .catalog(let model): return model.catalogName.rawValue
            case .models(let models) where models == FaceDetector.stillPictureModels: return Self.stillPicturesName
            case .models(let models): return models.map(\.catalogName.rawValue).joined(separator: "+")
            case .file(let path): return path
            }
        }
    }

    /// How the picture is decoded.
    public enum Decode: Hashable, Sendable {
        /// In full.
        case full
        /// A large JPEG at 1/2, 1/4 or 1/8 of its size (libjpeg's DCT scaling), keeping at least
        /// `minimumLongSide` pixels on its longer side (nil: the detector's `shrinkOnLoadLongSide`, 9 times its
        /// input). Other formats, and pictures already that small, decode in full. Used by `detect` only: the
        /// mesh tasks always decode in full, since the mesh samples the face at the picture's resolution.
        case shrinkOnLoad(minimumLongSide: Int?)
    }

    /// The detector (default: `.stillPictures`, the three models together).
    public var detector: DetectorSource
    /// The minimum detection score, 0...1; nil for the default (the model's for `detect`: 0.5 short-range,
    /// 0.6 full-range and the still-picture detector, 0.65 back camera; 0.5 for the mesh tasks, as MediaPipe's
    /// FaceMesh).
    public var minimumScore: Float?
    /// Non-maximum suppression: MediaPipe's weighted blending (the default) or plain.
    public var nms: NMSAlgorithm
    /// The IoU above which detections are merged or suppressed (default 0.3, MediaPipe's graphs).
    public var iouThreshold: Float
    /// At most this many faces per picture, highest detection scores first; nil for every face.
    public var maximumFaces: Int?
    /// How the picture is fitted into the detector's square input (default `.letterbox`, MediaPipe's).
    public var preprocessing: FaceDetector.Preprocessing
    /// What each model file may make the pipelines allocate and compute while it loads.
    public var modelLimits: ModelLimits
    /// Whether the detector also looks in the picture's other three quarter turns.
    public var tryRotations: Bool
    /// How `detect` decodes the picture (default: shrink-on-load at the detector's rule).
    public var decode: Decode
    /// Threads each model's inference uses, the calling thread included (default 1).
    public var threadCount: Int
    /// The mesh `landmarks` computes (default `.attention`: 478 points). `analyze` always uses `.attention`.
    public var mesh: FaceLandmarker.Model
    /// The target `analyze`'s capture-quality hints judge against (default `.selfie`).
    public var framing: Framing

    /// Options; each parameter sets the property of the same name.
    /// - Parameters:
    ///   - detector: where the face detector comes from.
    ///   - minimumScore: the minimum detection score; nil for the default.
    ///   - nms: the non-maximum suppression.
    ///   - iouThreshold: the IoU above which detections are merged or suppressed.
    ///   - maximumFaces: at most this many faces per picture; nil for every face.
    ///   - preprocessing: how the picture is fitted into the detector's input.
    ///   - modelLimits: what each model file may make the pipelines allocate and compute.
    ///   - tryRotations: whether the detector also looks in the other three quarter turns.
    ///   - decode: how `detect` decodes the picture.
    ///   - threadCount: threads each model's inference uses.
    ///   - mesh: the mesh `landmarks` computes.
    ///   - framing: the target of `analyze`'s hints.
    public init(detector: DetectorSource = .stillPictures, minimumScore: Float? = nil,
                nms: NMSAlgorithm = .weighted, iouThreshold: Float = 0.3, maximumFaces: Int? = nil,
                preprocessing: FaceDetector.Preprocessing = .letterbox, modelLimits: ModelLimits = ModelLimits(),
                tryRotations: Bool = false, decode: Decode = .shrinkOnLoad(minimumLongSide: nil),
                threadCount: Int = 1, mesh: FaceLandmarker.Model = .attention, framing: Framing = .selfie) {
        self.detector = detector
        self.minimumScore = minimumScore
        self.nms = nms
        self.iouThreshold = iouThreshold
        self.maximumFaces = maximumFaces
        self.preprocessing = preprocessing
        self.modelLimits = modelLimits
        self.tryRotations = tryRotations
        self.decode = decode
        self.threadCount = threadCount
        self.mesh = mesh
        self.framing = framing
    }

    /// The detector's options for the detection task.
    public var detectorOptions: FaceDetector.Options {
        FaceDetector.Options(minimumScore: minimumScore, nms: nms, iouThreshold: iouThreshold,
                             maximumFaces: maximumFaces, threadCount: threadCount, preprocessing: preprocessing,
                             modelLimits: modelLimits, tryRotations: tryRotations)
    }

    /// The landmarker's options for the mesh tasks. Its detector is the job's (`detectorOptions`, with the
    /// mesh tasks' default score of 0.5).
    public var landmarkerOptions: FaceLandmarker.Options {
        var options = FaceLandmarker.Options(maximumFaces: maximumFaces, minimumDetectionScore: minimumScore ?? 0.5,
                                             threadCount: threadCount, modelLimits: modelLimits,
                                             tryRotations: tryRotations)
        if case .catalog(let model) = detector { options.detector = model }
        return options
    }

    /// The detector's options for the mesh tasks: `detectorOptions` with the mesh tasks' default score, 0.5 as
    /// MediaPipe's FaceMesh, for one model (an ensemble keeps its own rule, the highest of its models' defaults).
    var meshDetectorOptions: FaceDetector.Options {
        var options = detectorOptions
        if case .models = detector {} else { options.minimumScore = minimumScore ?? 0.5 }
        return options
    }
}
