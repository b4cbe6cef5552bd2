import BlazeFaceMesh

/// What `blazeface landmarks` and `POST /v1/landmarks` report of one picture: its upright size and its faces'
/// meshes (`{"width", "height", "faces": [{"box", "score", "presence", "landmarks": [[x, y, z], ...]}]}`; keep
/// these keys: automated checks read them).
public struct LandmarksReport: Codable, Hashable, Sendable {
    /// The upright picture's width in pixels.
    public var width: Int
    /// The upright picture's height in pixels.
    public var height: Int
    /// The faces, highest detection scores first.
    public var faces: [FaceReport]

    /// One face: `box` is its detection's box (the landmarks' bounding box for a face without one), `score`
    /// the detection's score (null without one), `presence` the mesh model's face presence, and `landmarks`
    /// the 478 or 468 points as `[x, y, z]`, upright pixels.
    public struct FaceReport: Codable, Hashable, Sendable {
        /// The detection's box, or the landmarks' bounding box.
        public var box: BoxReport
        /// The detection's score; nil (null in JSON) for a face followed without a detection.
        public var score: Float?
        /// The mesh model's face presence, 0...1.
        public var presence: Float
        /// The points as `[x, y, z]`: upright pixels, z in the units of x (smaller: nearer the camera).
        public var landmarks: [[Float]]
        /// With `tryRotations` only: the clockwise turn in degrees in which the face was detected upright.
        public var uprightRotation: Int?

        /// The report of a face the landmarker found.
        /// - Parameters:
        ///   - face: the face.
        ///   - reportsRotation: whether to report its `uprightRotation`.
        public init(_ face: FaceLandmarks, reportsRotation: Bool) {
            box = face.reportBox
            score = face.detection?.score
            presence = face.presence
            landmarks = face.points.map { [$0.x, $0.y, $0.z] }
            uprightRotation = face.reportRotation(reportsRotation)
        }

        enum CodingKeys: String, CodingKey {
            case box, score, presence, uprightRotation, landmarks
        }

        /// Writes every key, `score` as null when there is no detection, `uprightRotation` only when set.
        /// - Parameter encoder: the encoder.
        /// - Throws: the encoder's errors.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(box, forKey: .box)
            try container.encode(score, forKey: .score)
            try container.encode(presence, forKey: .presence)
            try container.encodeIfPresent(uprightRotation, forKey: .uprightRotation)
            try container.encode(landmarks, forKey: .landmarks)
        }
    }

    /// The report of the faces found in a picture.
    /// - Parameters:
    ///   - width: the upright picture's width.
    ///   - height: the upright picture's height.
    ///   - faces: the faces, as `FaceLandmarker.detect` returns them.
    ///   - reportsRotation: whether each face reports its `uprightRotation`.
    public init(width: Int, height: Int, faces: [FaceLandmarks], reportsRotation: Bool = false) {
        self.width = width
        self.height = height
        self.faces = faces.map { FaceReport($0, reportsRotation: reportsRotation) }
    }
}
