// AVFoundation's spelling of `CameraFrameOrientation`: reads the connection and calls the plain-Swift initializer.
// Linux CI builds this file compiled out; it has not been compiled on an Apple platform here.

#if canImport(AVFoundation) && (os(iOS) || os(macOS) || os(tvOS))
import AVFoundation

@available(iOS 17.0, macOS 14.0, tvOS 17.0, macCatalyst 17.0, *)
extension CameraFrameOrientation {
    /// The orientation of the frames a capture connection delivers (`captureOutput(_:didOutput:from:)`'s
    /// `connection`): its `videoRotationAngle` and `isVideoMirrored`, with the angle that levels the camera's
    /// native buffer.
    ///
    /// ```swift
    /// let coordinator = AVCaptureDevice.RotationCoordinator(device: device, previewLayer: previewLayer)
    /// // per frame:
    /// let frame = CameraFrameOrientation(connection: connection, position: device.position,
    ///     captureRotation: coordinator.videoRotationAngleForHorizonLevelCapture)
    /// ```
    /// - Parameters:
    ///   - connection: the video data output's connection.
    ///   - position: the camera's position (`.front` counts as the front camera, anything else as the back one).
    ///   - captureRotation: `AVCaptureDevice.RotationCoordinator.videoRotationAngleForHorizonLevelCapture`.
    ///   - previewMirrored: whether the preview shows the mirror image; nil for the front camera only.
    /// - Returns: nil when an angle is not a multiple of 90 degrees.
    public init?(connection: AVCaptureConnection, position: AVCaptureDevice.Position, captureRotation: CGFloat,
                 previewMirrored: Bool? = nil) {
        self.init(camera: position == .front ? .front : .back, captureRotation: Double(captureRotation),
                  bufferRotation: Double(connection.videoRotationAngle), bufferMirrored: connection.isVideoMirrored,
                  previewMirrored: previewMirrored)
    }
}
#endif
