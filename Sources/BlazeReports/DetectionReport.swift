import BlazeFace

/// What `blazeface detect` and `POST /v1/detect` report of one picture: its upright size and its faces
/// (`{"width", "height", "faces": [{"box", "score", "keypoints": [{"type", "x", "y"}], "roll"}]}`; keep these
/// keys: automated checks read them).
public struct DetectionReport: Codable, Hashable, Sendable {
    /// The upright picture's width in pixels.
    public var width: Int
    /// The upright picture's height in pixels.
    public var height: Int
    /// The faces, highest scores first.
    public var faces: [FaceReport]

    /// One face: its box, score, six keypoints and roll.
    public struct FaceReport: Codable, Hashable, Sendable {
        /// The face's box, upright pixels.
        public var box: BoxReport
        /// The detector's score, 0...1.
        public var score: Double
        /// The six keypoints (eyes, nose tip, mouth, ear tragions), upright pixels.
        public var keypoints: [KeypointReport]
        /// The face's in-plane rotation in degrees, from its eyes (positive: clockwise in the picture).
        public var roll: Double
        /// With `tryRotations` only: the clockwise turn in degrees (0, 90, 180, 270) that makes the face
        /// upright; absent otherwise.
        public var uprightRotation: Int?

        /// The report of a face the detector found.
        /// - Parameters:
        ///   - face: the face.
        ///   - reportsRotation: whether to report its `uprightRotation` (only with `tryRotations`, so that
        ///     reports without it keep their keys).
        public init(_ face: Face, reportsRotation: Bool) {
            box = BoxReport(face.boundingBox)
            score = Double(face.score)
            keypoints = face.keypoints.all.map { KeypointReport(type: $0.kind.rawValue, x: $0.point.x, y: $0.point.y) }
            roll = face.rollDegrees
            uprightRotation = reportsRotation ? face.uprightRotation : nil
        }
    }

    /// A named keypoint: `{"type", "x", "y"}`.
    public struct KeypointReport: Codable, Hashable, Sendable {
        /// The keypoint's name (`rightEye`, `leftEye`, `noseTip`, `mouthCenter`, `rightEarTragion`,
        /// `leftEarTragion`).
        public var type: String
        /// Upright pixels.
        public var x: Double
        /// Upright pixels.
        public var y: Double

        /// A keypoint from its parts.
        /// - Parameters:
        ///   - type: the keypoint's name.
        ///   - x: upright pixels.
        ///   - y: upright pixels.
        public init(type: String, x: Double, y: Double) {
            (self.type, self.x, self.y) = (type, x, y)
        }
    }

    /// The report of the faces found in a picture.
    /// - Parameters:
    ///   - width: the upright picture's width.
    ///   - height: the upright picture's height.
    ///   - faces: the faces, as `FaceDetector.detect` returns them.
    ///   - reportsRotation: whether each face reports its `uprightRotation`.
    public init(width: Int, height: Int, faces: [Face], reportsRotation: Bool = false) {
        self.width = width
        self.height = height
        self.faces = faces.map { FaceReport($0, reportsRotation: reportsRotation) }
    }
}
