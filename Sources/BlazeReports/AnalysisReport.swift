import BlazeFaceAnalysis

/// What `blazeface analyze` and `POST /v1/analyze` report of one picture: its upright size, its hints and its
/// faces (`{"width", "height", "hints", "faces": [{"box", "score", "pose": {"pitch", "yaw", "roll"},
/// "leftEyeOpen", "rightEyeOpen", "smiling", "quality", "hints"}]}`; keep these keys: automated checks read them).
public struct AnalysisReport: Codable, Hashable, Sendable {
    /// The upright picture's width in pixels.
    public var width: Int
    /// The upright picture's height in pixels.
    public var height: Int
    /// The picture's hints: its faces' and `noFace` / `multipleFaces`, first things first.
    public var hints: [String]
    /// The faces, highest detection scores first.
    public var faces: [FaceReport]

    /// One face: `box` and `score` are its detection's (the mesh's bounding box and null without one), `pose`
    /// ML Kit's Euler angles in degrees, the probabilities for the subject's own eyes and smile, `quality` the
    /// capture-quality score and `hints` what to fix, first things first.
    public struct FaceReport: Codable, Hashable, Sendable {
        /// The detection's box, or the mesh's bounding box.
        public var box: BoxReport
        /// The detection's score; nil (null in JSON) without one.
        public var score: Float?
        /// The head pose in degrees.
        public var pose: PoseReport
        /// The probability that the subject's own left eye is open.
        public var leftEyeOpen: Float
        /// The probability that the subject's own right eye is open.
        public var rightEyeOpen: Float
        /// The probability that the subject smiles.
        public var smiling: Float
        /// The capture quality, 0...1.
        public var quality: Double
        /// What to fix, first things first (`tooSmall`, `offCentre`, `lookStraight`, `eyesClosed`, ...).
        public var hints: [String]
        /// With `tryRotations` only: the clockwise turn in degrees in which the face was detected upright.
        public var uprightRotation: Int?

        /// The report of an analyzed face.
        /// - Parameters:
        ///   - face: the face.
        ///   - reportsRotation: whether to report its `uprightRotation`.
        public init(_ face: AnalyzedFace, reportsRotation: Bool) {
            box = face.landmarks.reportBox
            score = face.landmarks.detection?.score
            pose = PoseReport(pitch: face.pose.pitch, yaw: face.pose.yaw, roll: face.pose.roll)
            leftEyeOpen = face.expression.leftEyeOpen
            rightEyeOpen = face.expression.rightEyeOpen
            smiling = face.expression.smiling
            quality = face.quality.score
            hints = face.quality.hints.map(\.description)
            uprightRotation = face.landmarks.reportRotation(reportsRotation)
        }

        enum CodingKeys: String, CodingKey {
            case box, score, uprightRotation, pose, leftEyeOpen, rightEyeOpen, smiling, quality, hints
        }

        /// Writes every key, `score` as null when there is no detection, `uprightRotation` only when set.
        /// - Parameter encoder: the encoder.
        /// - Throws: the encoder's errors.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(box, forKey: .box)
            try container.encode(score, forKey: .score)
            try container.encodeIfPresent(uprightRotation, forKey: .uprightRotation)
            try container.encode(pose, forKey: .pose)
            try container.encode(leftEyeOpen, forKey: .leftEyeOpen)
            try container.encode(rightEyeOpen, forKey: .rightEyeOpen)
            try container.encode(smiling, forKey: .smiling)
            try container.encode(quality, forKey: .quality)
            try container.encode(hints, forKey: .hints)
        }
    }

    /// `{"pitch", "yaw", "roll"}`: ML Kit's Euler angles in degrees.
    public struct PoseReport: Codable, Hashable, Sendable {
        /// Up-down rotation (positive: looking up).
        public var pitch: Double
        /// Left-right rotation.
        public var yaw: Double
        /// In-plane rotation.
        public var roll: Double

        /// A pose from its angles.
        /// - Parameters:
        ///   - pitch: degrees.
        ///   - yaw: degrees.
        ///   - roll: degrees.
        public init(pitch: Double, yaw: Double, roll: Double) {
            (self.pitch, self.yaw, self.roll) = (pitch, yaw, roll)
        }
    }

    /// The report of a picture's analysis.
    /// - Parameters:
    ///   - width: the upright picture's width.
    ///   - height: the upright picture's height.
    ///   - analysis: what `FaceAnalyzer.analyze` returned.
    ///   - reportsRotation: whether each face reports its `uprightRotation`.
    public init(width: Int, height: Int, analysis: AnalyzedImage, reportsRotation: Bool = false) {
        self.width = width
        self.height = height
        hints = analysis.hints.map(\.description)
        faces = analysis.faces.map { FaceReport($0, reportsRotation: reportsRotation) }
    }
}
