import Foundation

/// Tests/Goldens/mediapipe/face_mesh.json: what MediaPipe 0.10.21's legacy Face Mesh solution
/// (`FaceMesh(static_image_mode=True, max_num_faces=10, refine_landmarks=R, min_detection_confidence=0.5)`)
/// finds on the goldens' pictures, written by Tests/Goldens/face_mesh_parity.py. Every float is rounded to
/// 7 significant digits. Coordinates are normalized to the picture (x / width, y / height).
public struct FaceMeshGoldens: Decodable, Sendable {
    /// `refine_landmarks`: true (`refined`, the attention model, 478 landmarks) or false (`plain`, 468).
    public enum Mode: String, CaseIterable, Sendable {
        case refined
        case plain

        /// The number of landmarks per face.
        public var landmarkCount: Int { self == .refined ? 478 : 468 }
    }

    /// A NormalizedRect: centre, size (normalized) and rotation in radians.
    public struct Rect: Decodable, Sendable, Equatable {
        public var xCenter: Double
        public var yCenter: Double
        public var width: Double
        public var height: Double
        public var rotation: Double
    }

    /// One face detection of the graph's short-range detector.
    public struct Detection: Decodable, Sendable {
        public struct Box: Decodable, Sendable {
            public var xmin: Double
            public var ymin: Double
            public var width: Double
            public var height: Double
        }
        public var score: Double
        /// MediaPipe's `relative_bounding_box`.
        public var box: Box
        /// Six `[x, y]`: right eye, left eye, nose tip, mouth centre, right ear tragion, left ear tragion.
        public var keypoints: [[Double]]
    }

    /// The landmark model's input for one face (1x192x192x3 float32, range 0...1).
    public struct InputTensor: Decodable, Sendable {
        /// sha256 of the float32 values' bytes (little-endian, HWC order).
        public var sha256Float32: String
        /// Whether every value is `Float(u8) * (Float(1) / Float(255))` for some byte u8.
        public var u8Exact: Bool
        /// For a few faces: the bytes u8 as a uint8 .npy of shape (192, 192, 3) in Tests/Goldens/mediapipe/.
        public var npy: String?
    }

    /// One detected face, in the graph's order (detections by score).
    public struct Face: Decodable, Sendable {
        public var detection: Detection
        /// The crop the landmark model sees (`face_rects_from_detections`).
        public var roi: Rect
        /// The face-presence score, sigmoid(`faceFlagLogit`); landmarks are kept when it is above 0.5.
        public var presence: Double
        public var faceFlagLogit: Double
        public var inputTensor: InputTensor
        /// `[x, y, z]` per landmark, as FaceMesh returns them; nil when the face was dropped (low presence).
        public var landmarks: [[Double]]?
        /// The ROI MediaPipe derives from the landmarks (what it would track next frame); nil with `landmarks`.
        public var roiFromLandmarks: Rect?
    }

    public struct PictureResult: Decodable, Sendable {
        public var faces: [Face]
    }

    /// Picture name → size, recipe and sha256.
    public var images: [String: GoldenPicture]
    /// `Mode.rawValue` → picture name → result.
    public var results: [String: [String: PictureResult]]

    /// The result of one picture in one mode; throws `TestResources.Missing` if the goldens lack it.
    public func result(_ mode: Mode, _ picture: String) throws -> PictureResult {
        guard let result = results[mode.rawValue]?[picture] else {
            throw TestResources.Missing(description: "face_mesh.json has no \(mode.rawValue) result for \(picture)")
        }
        return result
    }

    /// The folder of face_mesh.json and its .npy files.
    public static let directory = TestResources.goldensDirectory.appendingPathComponent("mediapipe")

    private static let cache = Cache<Int, FaceMeshGoldens>()

    /// Reads and decodes the file once per process.
    public static func load() throws -> FaceMeshGoldens {
        try cache.value(0) {
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            let url = directory.appendingPathComponent("face_mesh.json")
            return try decoder.decode(FaceMeshGoldens.self, from: Data(contentsOf: url))
        }
    }

    private static let pictures = Cache<String, RGBImage>()

    /// A picture of `images`, rebuilt from its recipe (once per process).
    public static func picture(_ name: String) throws -> RGBImage {
        try pictures.value(name) {
            guard let spec = try load().images[name] else {
                throw TestResources.Missing(description: "face_mesh.json has no picture \(name)")
            }
            return try spec.build(name: name)
        }
    }
}
