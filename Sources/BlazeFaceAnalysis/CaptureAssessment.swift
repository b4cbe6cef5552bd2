/// The assessment of a whole picture: one `FaceQuality` per face given, in the same order, and the picture's
/// hints.
public struct CaptureAssessment: Hashable, Sendable {
    /// One assessment per face given, in the same order.
    public var faces: [FaceQuality]
    /// `noFace` when there is none; `multipleFaces` when there are more than the framing allows; and the union
    /// of the faces' hints.
    public var hints: CaptureHints

    /// Creates an assessment; the default is a picture without a face.
    /// - Parameters:
    ///   - faces: one assessment per face.
    ///   - hints: the picture's hints.
    public init(faces: [FaceQuality] = [], hints: CaptureHints = [.noFace]) {
        self.faces = faces
        self.hints = hints
    }

    /// Whether the shutter may fire: no hint at all.
    public var isAcceptable: Bool { hints.isEmpty }

    /// The index of the best-scoring face; nil when there is none.
    public var bestFace: Int? { faces.indices.max { faces[$0].score < faces[$1].score } }
}
