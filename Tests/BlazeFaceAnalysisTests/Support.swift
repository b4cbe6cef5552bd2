import BlazeFaceAnalysis
import BlazeFaceMesh
import BlazeTestSupport
import Foundation

/// Synthetic face meshes: MediaPipe's canonical face posed and projected, as the face mesh would report it.
enum SyntheticFace {
    /// The 468 landmarks of the canonical face at `rotation`, `translation` (cm, camera coordinates) seen by
    /// `camera`: x, y the projection of each vertex; z its depth relative to the mean depth D̄ of the 468
    /// vertices, on the pixel scale of x at that depth, (D − D̄)·fx/D̄ (MediaPipe's relative z).
    static func landmarks(rotation: Matrix3, translation: SIMD3<Double>, camera: CameraIntrinsics) -> [Landmark] {
        let points = (0..<CanonicalFaceModel.vertexCount).map {
            rotation * CanonicalFaceModel.vertex($0) + translation
        }
        let meanDepth = points.reduce(0) { $0 - $1.z } / Double(points.count)
        return points.map { p in
            let depth = -p.z
            return Landmark(x: Float(camera.cx + camera.fx * p.x / depth),
                            y: Float(camera.cy - camera.fy * p.y / depth),
                            z: Float((depth - meanDepth) * camera.fx / meanDepth))
        }
    }

    /// The mirror image of a face mesh in an image `width` wide: x → width − x, and each landmark takes the
    /// place of its mirror twin (the subject's left eye becomes the right eye), as the face mesh would label
    /// the mirrored picture.
    static func mirrored(_ points: [Landmark], width: Double) -> [Landmark] {
        mirrorTwins.map { twin in
            Landmark(x: Float(width) - points[twin].x, y: points[twin].y, z: points[twin].z)
        }
    }

    /// For each landmark, the one whose canonical vertex is nearest to its mirror image (−x, y, z).
    static let mirrorTwins: [Int] = (0..<CanonicalFaceModel.vertexCount).map { index in
        let v = CanonicalFaceModel.vertex(index)
        let image = SIMD3(-v.x, v.y, v.z)
        return (0..<CanonicalFaceModel.vertexCount).min { a, b in
            let da = CanonicalFaceModel.vertex(a) - image, db = CanonicalFaceModel.vertex(b) - image
            return (da * da).sum() < (db * db).sum()
        }!
    }

    /// The translation that puts the head's origin `distance` cm from the camera on the ray through pixel
    /// (x, y).
    static func translation(x: Double, y: Double, distance: Double, camera: CameraIntrinsics) -> SIMD3<Double> {
        let ray = camera.ray(x: x, y: y)
        return ray * (distance / (ray * ray).sum().squareRoot())
    }
}

/// `a − b` in degrees, wrapped into −180...180.
func angleDifference(_ a: Double, _ b: Double) -> Double {
    var d = (a - b).truncatingRemainder(dividingBy: 360)
    if d > 180 { d -= 360 }
    if d < -180 { d += 360 }
    return d
}

/// The largest difference between corresponding elements of two matrices.
func maxDifference(_ a: Matrix3, _ b: Matrix3) -> Double {
    (0..<3).map { i in (0..<3).map { j in abs(a[i, j] - b[i, j]) }.max()! }.max()!
}

/// The largest angle (degrees) between corresponding axes of two rotations.
func axisAngleError(_ a: Matrix3, _ b: Matrix3) -> Double {
    (0..<3).map { i in
        let d = (a.column(i) * b.column(i)).sum()
        return acos(min(1, max(-1, d))) * 180 / .pi
    }.max()!
}

/// The sample pictures and the face landmarker.
enum PoseSamples {
    /// The landmarker in video mode, one face: once it tracks the face the detector does not run.
    static func tracker() throws -> FaceLandmarker {
        try FaceLandmarker(modelsDirectory: TestResources.modelsDirectory.path, options: .init(maximumFaces: 1))
    }

    /// The head pose of the one face of `picture`, tracked on the same picture: starting from the detector
    /// (`start` nil) or from the region `start`, three tracking steps to settle, then the mean pose of the
    /// next five (roll averaged as an angle); nil when no face is found or kept.
    ///
    /// Tracking takes each region from the previous mesh's eye corners, which level the face in the model's
    /// input far better than the detector's keypoints do on a turned picture (up to 30° off at a quarter
    /// turn): the mesh, and so the pose, then depends on the face and not on how the detector saw it. The
    /// mesh still wavers from step to step (about ±0.5° of pitch), hence the mean.
    static func trackedPose(_ picture: RGBImage, from start: RotatedRect? = nil, camera: CameraIntrinsics,
                            _ landmarker: FaceLandmarker) throws -> (pitch: Double, yaw: Double, roll: Double)? {
        guard let meshes = try settledMeshes(picture, from: start, landmarker) else { return nil }
        let poses = try meshes.map { try $0.headPose(camera: camera) }
        let n = Double(poses.count)
        let roll0 = poses[0].roll
        let roll = roll0 + poses.reduce(0) { $0 + angleDifference($1.roll, roll0) } / n
        return (poses.reduce(0) { $0 + $1.pitch } / n, poses.reduce(0) { $0 + $1.yaw } / n, roll)
    }

    /// The one face of `picture` tracked on the same picture, from the detector (`start` nil) or the region
    /// `start`: the meshes of tracking steps 4 to 8 (three steps to settle); nil when no face is found or kept.
    static func settledMeshes(_ picture: RGBImage, from start: RotatedRect? = nil,
                              _ landmarker: FaceLandmarker) throws -> [FaceLandmarks]? {
        let image = ImageBuffer(width: picture.width, height: picture.height, pixelFormat: .rgb8, pixels: picture.pixels)
        return try image.withView { view in
            var faces: [FaceLandmarks]
            if let start {
                faces = try landmarker.landmarks(view, region: start).map { [$0] } ?? []
            } else {
                faces = try landmarker.detect(view)
            }
            var meshes: [FaceLandmarks] = []
            for step in 0..<8 {
                try landmarker.detect(view, tracking: &faces)
                guard faces.count == 1 else { return nil }
                if step >= 3 { meshes.append(faces[0]) }
            }
            return meshes
        }
    }

    /// `points` with coordinate `axis` (0 x, 1 y, 2 z) of point `index` set to `value`.
    static func replacing(_ points: [Landmark], index: Int, axis: Int, with value: Float) -> [Landmark] {
        var points = points
        switch axis {
        case 0: points[index].x = value
        case 1: points[index].y = value
        default: points[index].z = value
        }
        return points
    }

    typealias Reference = (region: RotatedRect, pose: (pitch: Double, yaw: Double, roll: Double))?
    private static let references = Cache<Int, Reference>()

    /// The astronaut's region after tracking, and its mean pose with MediaPipe's camera (computed once).
    static func reference(_ landmarker: FaceLandmarker) throws -> Reference {
        try references.value(0) { try computeReference(landmarker) }
    }

    private static func computeReference(_ landmarker: FaceLandmarker) throws -> Reference {
        let picture = try Samples.astronaut()
        let camera = CameraIntrinsics.mediaPipe(imageWidth: 512, imageHeight: 512)
        guard let pose = try trackedPose(picture, camera: camera, landmarker) else { return nil }
        let image = ImageBuffer(width: 512, height: 512, pixelFormat: .rgb8, pixels: picture.pixels)
        var faces = try image.withView { try landmarker.detect($0) }
        for _ in 0..<3 where faces.count == 1 { try image.withView { try landmarker.detect($0, tracking: &faces) } }
        guard faces.count == 1 else { return nil }
        return (faces[0].region, pose)
    }
}
