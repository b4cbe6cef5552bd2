import BlazeFace
import BlazeModels

extension FaceLandmarker {
    /// Which mesh the landmarker computes.
    public enum Model: String, Hashable, Sendable, CaseIterable {
        /// 478 points from MediaPipe's attention mesh: lips, eyes and irises refined in one model
        /// (`face_landmark_with_attention.tflite`; MediaPipe's `refine_landmarks=True`). The default.
        case attention
        /// 468 points from MediaPipe 0.10.21's mesh model alone (`face_landmark.tflite` of that wheel;
        /// `refine_landmarks=False`). The fastest; no irises.
        case mesh
        /// 478 points from the 468-point mesh and MediaPipe's separate iris model run on each eye (the legacy
        /// iris pipeline): eye contours refined by the iris model, irises from it.
        case meshWithIris = "mesh-iris"

        /// The catalog model of the mesh.
        public var meshModel: ModelName {
            self == .attention ? .faceMeshAttention : .faceMeshMediaPipe
        }

        /// The number of points each face gets.
        public var pointCount: Int { self == .mesh ? 468 : 478 }
    }

    /// Landmarker options.
    public struct Options: Hashable, Sendable, PipelineOptions {
        /// The detector `detect` runs to find faces. Full-range by default: it finds the small faces of group
        /// photos and faces a few metres away, which MediaPipe's FaceMesh (short-range only) misses, at about
        /// 1.8 ms more per 1280x720 frame (2.4 against 0.64 ms); `.shortRange` gives MediaPipe's FaceMesh
        /// pipeline exactly.
        public var detector: FaceDetector.Model
        /// At most this many faces per image, the highest detection scores first (MediaPipe's `max_num_faces`);
        /// nil for every face found. In `detect(_:tracking:)` the detector runs only while fewer faces than
        /// this are tracked; with nil it runs on every frame.
        public var maximumFaces: Int?
        /// Minimum detection score, 0...1 (MediaPipe's `min_detection_confidence`, default 0.5).
        public var minimumDetectionScore: Float
        /// A face is kept when its presence (`FaceLandmarks.presence`) is above this, 0...1 (MediaPipe: 0.5).
        public var minimumPresence: Float
        /// Threads each model's inference uses, the calling thread included (see `FaceDetector.Options`).
        public var threadCount: Int
        /// What each model file (the mesh, the detector `init(model:modelsDirectory:options:)` loads, the iris
        /// model) may make the landmarker allocate and compute while it loads; past a limit, `.invalidModel`
        /// (or `.detectionFailed(.invalidModel)` for the detector) names it (see `ModelLimits`).
        public var modelLimits: ModelLimits
        /// Run the detector on the image turned by 90°, 180° and 270° too (`FaceDetector.Options.tryRotations`;
        /// default false), for sideways and upside-down pictures: each face's `detection.uprightRotation` says
        /// in which turn it was found, and its mesh region takes its rotation from the detection's eyes, so the
        /// points come out on the face whatever the turn. Costs up to four detector runs per detection.
        public var tryRotations: Bool

        /// Options; each parameter sets the property of the same name.
        /// - Parameters:
        ///   - detector: the detector `detect` runs.
        ///   - maximumFaces: at most this many faces per image; nil for every face found.
        ///   - minimumDetectionScore: the minimum detection score, 0...1.
        ///   - minimumPresence: the presence a face must exceed to be kept, 0...1.
        ///   - threadCount: threads each model's inference uses.
        ///   - modelLimits: what each model file may make the landmarker allocate and compute.
        ///   - tryRotations: whether the detector also looks in the image's other three quarter turns.
        public init(detector: FaceDetector.Model = .fullRange, maximumFaces: Int? = nil,
                    minimumDetectionScore: Float = 0.5, minimumPresence: Float = 0.5, threadCount: Int = 1,
                    modelLimits: ModelLimits = ModelLimits(), tryRotations: Bool = false) {
            self.detector = detector
            self.maximumFaces = maximumFaces
            self.minimumDetectionScore = minimumDetectionScore
            self.minimumPresence = minimumPresence
            self.threadCount = threadCount
            self.modelLimits = modelLimits
            self.tryRotations = tryRotations
        }

        /// MediaPipe 0.10.21's legacy `FaceMesh` settings: short-range detector, one face by default.
        /// - Parameter maximumFaces: at most this many faces per image.
        /// - Returns: options with the short-range detector and the other defaults.
        public static func mediaPipe(maximumFaces: Int = 1) -> Options {
            Options(detector: .shortRange, maximumFaces: maximumFaces)
        }

        /// The detector options of MediaPipe's face-mesh graphs: weighted NMS at IoU 0.3.
        var detectorOptions: FaceDetector.Options {
            FaceDetector.Options(minimumScore: minimumDetectionScore, iouThreshold: 0.3, maximumFaces: maximumFaces,
                                 threadCount: threadCount, modelLimits: modelLimits, tryRotations: tryRotations)
        }
    }
}

extension FaceLandmarker.Options {
    /// The options' checks (`PipelineOptions`); the detector's options are checked by the detector.
    public var problems: [String?] {
        [OptionCheck.atLeastOne(maximumFaces, "maximumFaces"),
         OptionCheck.fraction(minimumDetectionScore, "minimumDetectionScore"),
         OptionCheck.fraction(minimumPresence, "minimumPresence")]
    }
}
