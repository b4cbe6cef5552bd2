import BlazeFaceMesh

/// Head pose from a face mesh: MediaPipe's canonical face fitted to the mesh's points by a weighted
/// similarity fit (Procrustes) under a perspective camera.
///
/// ```swift
/// let faces = try landmarker.detect(image)
/// let pose = try faces[0].headPose(imageWidth: image.width, imageHeight: image.height)
/// print(pose.pitch, pose.yaw, pose.roll)      // degrees, ML Kit's conventions (see HeadPose)
/// ```
///
/// The method is MediaPipe's face-geometry pipeline's (mediapipe/modules/face_geometry/libs/
/// geometry_pipeline.cc), with its canonical face and its 33 landmark weights, made exact for a pinhole
/// camera and any principal point:
/// 1. Each landmark (x, y) is a ray from the camera, `camera.ray(x:y:)`; its depth along −z is
///    d·(1 + (z − z̄)/fx), where z̄ is the mean z of the 468 mesh points and d the (unknown) depth of the face:
///    the mesh's z is relative depth on the pixel scale of x (MediaPipe's convention), so depth differences
///    are z differences times d/fx. This unprojects the mesh, up to the one factor d, along each point's own
///    ray, wherever the face is in the picture.
/// 2. The canonical face's 33 weighted landmarks are fitted to the unprojected points (taking d = 1) by the
///    weighted least-squares similarity transform: rotation R, scale s, translation t. The rotation does not
///    depend on d, since d only scales the points.
/// 3. Assuming the face has the canonical face's size, d = 1/s: the pose is R and t/s.
///
/// The camera is MediaPipe's (`CameraIntrinsics.mediaPipe`: vertical field of view 63°, principal point at
/// the image's centre) unless given. With the right intrinsics the angles of a face anywhere in the frame
/// are right, relative to the camera's axes (MediaPipe's own pose is not, for off-centre faces: its issue
/// #4759). With the wrong focal length the angles of off-centre faces are off by a little.
///
/// The iris points (468...477), when present, are not used. No heap allocation; a few microseconds.
/// Thread-safe: pure functions of their arguments, callable from any thread at once.
public enum HeadPoseEstimator: FaceMeshEstimator {
    /// The head pose of a face mesh seen by `camera`. `points` holds the face mesh's 468 points in the
    /// image's pixels (any further points, such as the irises, are ignored).
    /// - Parameters:
    ///   - points: at least the 468 mesh points, in the image's pixels.
    ///   - camera: the camera that saw the face, in the same pixels.
    /// - Returns: the pose: rotation, translation in centimetres, Euler angles in degrees, and the fit's error.
    /// - Throws: `HeadPoseError`.
    public static func estimate(_ points: [Landmark], camera: CameraIntrinsics) throws(HeadPoseError) -> HeadPose {
        let fit = try MeshFit(points, camera: camera)
        let (rotation, scale, centroid) = (fit.rotation, fit.scale, fit.centroid)
        let basis = FitBasis.shared
        let weights = CanonicalFaceModel.weights
        let translation = centroid - scale * (rotation * basis.centroid)
        var squaredError = 0.0
        for k in 0..<weights.count {
            let e = scale * (rotation * basis.centred[k]) - (fit.unprojected(points[weights[k].index]) - centroid)
            squaredError += weights[k].weight * (e * e).sum()
        }
        let fitError = (squaredError / basis.totalWeight).squareRoot() / scale
        let pose = HeadPose(rotation: rotation, translation: translation / scale, fitError: fitError)
        guard pose.translation.z < 0, pose.fitError.isFinite else { throw .degenerate }
        return pose
    }
}
