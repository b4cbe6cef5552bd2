import BlazeFace

/// One face-mesh point in the pixels of the upright image: x to the right, y down, and z the depth on the
/// same pixel scale as x, relative to the face's centre of mass, smaller values nearer the camera (MediaPipe's
/// convention, with its normalized z multiplied by the image width).
public struct Landmark: Hashable, Sendable, CustomStringConvertible {
    /// The horizontal position, in pixels of the upright image, to the right.
    public var x: Float
    /// The vertical position, in pixels of the upright image, down.
    public var y: Float
    /// The depth, on the pixel scale of `x`, relative to the face; smaller is nearer the camera.
    public var z: Float

    /// A point; each parameter sets the property of the same name.
    public init(x: Float, y: Float, z: Float) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The point in the image plane.
    public var point: Point { Point(x: Double(x), y: Double(y)) }

    /// Whether all three coordinates are finite.
    public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }

    /// The three coordinates, `(x, y, z)`.
    public var description: String { "(\(x), \(y), \(z))" }
}

/// The face mesh of one face: 478 points (mesh and irises) or 468 (mesh only), in the upright image's pixels.
///
/// Point numbering is MediaPipe's: 0...467 the mesh (its canonical-face topology, `FaceMeshConnections`),
/// 468...472 the iris around mesh points 33 and 133 and 473...477 the iris around 263 and 362. Regions
/// (`FaceRegion`) are named from the subject's own point of view: `leftEye` is the subject's left eye,
/// which appears on the image's right in an unmirrored photo (points 263, 362 and iris 473...477).
public struct FaceLandmarks: Hashable, Sendable {
    /// The points, in the upright image's pixels (see `Landmark`).
    public var points: [Landmark]
    /// The model's confidence that the region holds a face: the sigmoid of its face-flag output, 0...1.
    public var presence: Float
    /// The region of the image the mesh model saw (MediaPipe's ROI): from a detection, or from the previous
    /// frame's points when tracking.
    public var region: RotatedRect
    /// The detection the region was made from; nil when it came from earlier landmarks or was given.
    public var detection: Face?

    /// A face mesh; each parameter sets the property of the same name.
    public init(points: [Landmark], presence: Float, region: RotatedRect, detection: Face? = nil) {
        self.points = points
        self.presence = presence
        self.region = region
        self.detection = detection
    }

    /// Whether the irises are included (478 points).
    public var hasIrises: Bool { points.count >= 478 }

    /// The points of `region`, in the order of `region.indices`; empty for the irises of a 468-point mesh.
    /// - Parameter region: a named set of mesh points.
    /// - Returns: its points, in the upright image's pixels.
    public subscript(region: FaceRegion) -> [Landmark] {
        region.indices.compactMap { $0 < points.count ? points[$0] : nil }
    }

    /// The smallest axis-aligned rectangle holding every point (not clipped to the image).
    public var boundingBox: Rect {
        guard var minX = points.first?.x else { return Rect(x: 0, y: 0, width: 0, height: 0) }
        var maxX = minX, minY = points[0].y, maxY = minY
        for index in points.indices {
            let p = points[index]
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        return Rect(x: Double(minX), y: Double(minY), width: Double(maxX - minX), height: Double(maxY - minY))
    }

    /// The distance between the outer eye corners (points 33 and 263), in pixels: the scale MediaPipe's
    /// accuracy figures and our parity tests divide by (the inter-ocular distance).
    public var interocularDistance: Double {
        guard points.count > 263 else { return .nan }
        let a = points[33], b = points[263]
        let dx = Double(a.x - b.x), dy = Double(a.y - b.y)
        return (dx * dx + dy * dy).squareRoot()
    }
}
