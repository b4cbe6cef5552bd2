import BlazeFaceMesh

/// An estimator that reads something from a face mesh and the camera that saw it: `HeadPoseEstimator` (the
/// head's pose) and `ExpressionEstimator` (eyes open, smiling).
///
/// Each estimator gives `estimate(_:camera:)`; this protocol adds the same estimate with MediaPipe's camera for
/// an image's size, `estimate(_:imageWidth:imageHeight:)`, for when the real camera is unknown.
/// Thread-safe: the estimators are pure functions of their arguments, callable from any thread at once.
public protocol FaceMeshEstimator {
    /// What the estimator reads from the mesh.
    associatedtype Estimate
    /// Why it could not.
    associatedtype Failure: FaceMeshEstimationError

    /// The estimate for a face mesh seen by `camera`.
    /// - Parameters:
    ///   - points: at least the 468 mesh points, in the image's pixels (any further points, such as the irises,
    ///     are ignored).
    ///   - camera: the camera that saw the face, in the same pixels.
    /// - Returns: the estimate.
    /// - Throws: `Failure`.
    static func estimate(_ points: [Landmark], camera: CameraIntrinsics) throws(Failure) -> Estimate
}

/// The failures of a `FaceMeshEstimator` that do not depend on the estimator: `HeadPoseError` and
/// `ExpressionError`, whose cases of the same names satisfy these requirements.
public protocol FaceMeshEstimationError: Error {
    /// The image size is not positive.
    /// - Parameters:
    ///   - width: the size given, in pixels.
    ///   - height: the size given, in pixels.
    /// - Returns: the error.
    static func invalidImageSize(width: Int, height: Int) -> Self
}

extension FaceMeshEstimator {
    /// The estimate for a face mesh with MediaPipe's camera (`CameraIntrinsics.mediaPipe`) for an `imageWidth` x
    /// `imageHeight` image.
    /// - Parameters:
    ///   - points: at least the 468 mesh points, in the upright image's pixels.
    ///   - imageWidth: the upright image's width, in pixels.
    ///   - imageHeight: the upright image's height, in pixels.
    /// - Returns: the estimate, as `estimate(_:camera:)` gives it with that camera.
    /// - Throws: `Failure.invalidImageSize` unless both sides are positive, and what `estimate(_:camera:)` throws.
    public static func estimate(_ points: [Landmark], imageWidth: Int, imageHeight: Int) throws(Failure) -> Estimate {
        guard imageWidth > 0, imageHeight > 0 else { throw .invalidImageSize(width: imageWidth, height: imageHeight) }
        return try estimate(points, camera: .mediaPipe(imageWidth: imageWidth, imageHeight: imageHeight))
    }
}

/// Each estimator on this face: `HeadPoseEstimator` and `ExpressionEstimator` given the face's points.
extension FaceLandmarks {
    /// This face's head pose with MediaPipe's camera for an `imageWidth` x `imageHeight` image
    /// (`HeadPoseEstimator`).
    /// - Parameters:
    ///   - imageWidth: the upright image's width, in pixels.
    ///   - imageHeight: the upright image's height, in pixels.
    /// - Returns: the pose, as `HeadPoseEstimator.estimate(_:imageWidth:imageHeight:)` gives it.
    /// - Throws: `HeadPoseError`.
    public func headPose(imageWidth: Int, imageHeight: Int) throws(HeadPoseError) -> HeadPose {
        try HeadPoseEstimator.estimate(points, imageWidth: imageWidth, imageHeight: imageHeight)
    }

    /// This face's head pose seen by `camera` (`HeadPoseEstimator`).
    /// - Parameter camera: the camera that saw the face, in the upright image's pixels.
    /// - Returns: the pose, as `HeadPoseEstimator.estimate(_:camera:)` gives it.
    /// - Throws: `HeadPoseError`.
    public func headPose(camera: CameraIntrinsics) throws(HeadPoseError) -> HeadPose {
        try HeadPoseEstimator.estimate(points, camera: camera)
    }

    /// This face's eye-open and smiling probabilities with MediaPipe's camera for an `imageWidth` x
    /// `imageHeight` image (`ExpressionEstimator`).
    /// - Parameters:
    ///   - imageWidth: the upright image's width, in pixels.
    ///   - imageHeight: the upright image's height, in pixels.
    /// - Returns: the probabilities that each eye is open and that the face smiles, each 0...1.
    /// - Throws: `ExpressionError`.
    public func expression(imageWidth: Int, imageHeight: Int) throws(ExpressionError) -> FaceExpression {
        try ExpressionEstimator.estimate(points, imageWidth: imageWidth, imageHeight: imageHeight)
    }

    /// This face's eye-open and smiling probabilities seen by `camera` (`ExpressionEstimator`).
    /// - Parameter camera: the camera that saw the face, in the upright image's pixels.
    /// - Returns: the probabilities that each eye is open and that the face smiles, each 0...1.
    /// - Throws: `ExpressionError`.
    public func expression(camera: CameraIntrinsics) throws(ExpressionError) -> FaceExpression {
        try ExpressionEstimator.estimate(points, camera: camera)
    }
}
