import BlazeFaceAnalysis
import BlazeFaceMesh

/// One face the tracker follows (internal state; `TrackedFace` is what callers see).
struct Track {
    let id: Int
    let firstSeen: Double
    /// The last mesh found, as the model gave it (its points make the next frame's region).
    var raw: FaceLandmarks
    /// Centre and size (mean of width and height) of the raw points' box, and when they were found.
    var center: Point
    var size: Double
    var lastSeen: Double
    /// Centre velocity in pixels per second (0 after a miss).
    var velocity = (x: 0.0, y: 0.0)
    /// Consecutive processed frames missed (0: found on the last processed frame).
    var missed = 0
    /// The running proportions of the face (nil until a mesh gave one).
    var descriptor: FaceDescriptor?
    /// Sightings averaged into `descriptor`.
    var descriptorSamples = 0
    var smoother: FaceSmoother?
    /// What callers see: the reported box, presence, points and attributes.
    var box: Rect
    var score: Float
    var points: [Landmark] = []
    var attributes = FaceAttributes()
    var framesSeen = 1
    var detectedThisFrame = true
    var gestures: GestureRecognizer

    init(id: Int, mesh: FaceLandmarks, time: Double, smoothing: OneEuroFilter.Parameters?) {
        self.id = id
        firstSeen = time
        raw = mesh
        let box = mesh.boundingBox
        center = box.center
        size = (box.width + box.height) / 2
        lastSeen = time
        descriptor = FaceDescriptor(mesh.points)
        descriptorSamples = descriptor == nil ? 0 : 1
        smoother = smoothing.map { FaceSmoother(parameters: $0) }
        self.box = box
        score = mesh.presence
        gestures = GestureRecognizer()
    }

    /// Where the face should be at `time`, from its last centre and velocity (at most a quarter second ahead).
    func predictedCenter(at time: Double) -> Point {
        let elapsed = min(max(time - lastSeen, 0), 0.25)
        return Point(x: center.x + velocity.x * elapsed, y: center.y + velocity.y * elapsed)
    }

    /// The face as `TrackedFace` (points copied into `face`'s storage, no allocation once it is large enough).
    func report(into face: inout TrackedFace) {
        face.id = id
        face.box = box
        face.score = score
        face.attributes = attributes
        face.firstSeen = firstSeen
        face.framesSeen = framesSeen
        face.detectedThisFrame = detectedThisFrame
        face.uprightRotation = Self.uprightRotation(regionRotation: raw.region.rotation)
        face.landmarks.removeAll(keepingCapacity: true)
        face.landmarks.append(contentsOf: points)
    }

    /// The clockwise quarter turn (0, 90, 180, 270) that makes upright a face whose region is turned by
    /// `regionRotation` radians (clockwise on screen): the nearest quarter turn the other way.
    static func uprightRotation(regionRotation: Double) -> Int {
        guard regionRotation.isFinite else { return 0 }
        let quarters = Int((-regionRotation / (Double.pi / 2)).rounded())
        return ((quarters % 4 + 4) % 4) * 90
    }
}
