/// The `ImageOrientation` to give a camera frame, from how the camera is held and what the capture connection
/// did to the buffer, and whether faces must be mirrored to be drawn over the preview.
///
/// The geometry, in plain Swift (the AVFoundation spelling, `init(connection:position:captureRotation:...)`,
/// is a thin wrapper over it on Apple platforms):
///
/// - The sensor's native buffer `N` is shown level by turning it `captureRotation` degrees clockwise (what
///   `AVCaptureDevice.RotationCoordinator.videoRotationAngleForHorizonLevelCapture` gives; on a classic
///   landscape-sensor iPhone 90 in portrait for both cameras, see `captureRotation(camera:deviceOrientation:)`).
/// - The connection turns the buffer `bufferRotation` degrees clockwise (`AVCaptureConnection.videoRotationAngle`,
///   0 unless set) and then, when `bufferMirrored` (`isVideoMirrored`), mirrors the turned buffer left-right.
/// - So the frame's stored image is `mirror?(turn(N, R))`, and the upright true (unmirrored) view is `turn(N, C)`
///   = `turn(mirror?(stored), C − R)`: `orientation` is `ImageOrientation(quarterTurns: (C − R) / 90,
///   mirrored: bufferMirrored)`.
///
/// Pass `orientation`: faces then come in the upright true view, their keypoints named for the subject (the
/// subject's right eye is `rightEye`). A front-camera preview (`AVCaptureVideoPreviewLayer`) is mirrored by
/// default: map the faces with `Face.mapped(toViewWidth:height:imageWidth:imageHeight:contentMode:mirrored:)`
/// and `mirrored: mirrorsPreview`. `mirroredViewOrientation` is the orientation that shows the mirror image
/// instead (what Google's ML Kit and Apple's Vision samples pass for the front camera).
///
/// Whether `isVideoMirrored` mirrors before or after the connection's own rotation is not documented; this
/// type assumes after (the delivered buffer is mirrored about its own vertical axis), which MediaPipe's face
/// detector sample relies on (rotation 90, mirrored, passing `.up` for the mirror view). With `bufferRotation`
/// 0 or 180 the order makes no difference.
public struct CameraFrameOrientation: Hashable, Sendable {
    /// Which camera delivers the frames.
    public enum Camera: String, Hashable, Sendable, CaseIterable {
        /// The camera on the back (`AVCaptureDevice.Position.back`).
        case back
        /// The camera on the screen side (`AVCaptureDevice.Position.front`).
        case front
    }

    /// How the device is held, named as `UIDeviceOrientation` names it.
    public enum DeviceOrientation: String, Hashable, Sendable, CaseIterable {
        /// Upright, the home button (or the bottom edge) at the bottom.
        case portrait
        /// Upside down, the home button at the top.
        case portraitUpsideDown
        /// Landscape, the home button on the right (the device turned counter-clockwise from portrait).
        case landscapeLeft
        /// Landscape, the home button on the left (the device turned clockwise from portrait).
        case landscapeRight
    }

    /// The orientation to give the frame (`ImageView`'s `orientation`): the upright, unmirrored view.
    public let orientation: ImageOrientation
    /// Whether to mirror the faces to draw them over the preview (`Face.mapped(...mirrored:)`): the faces come in
    /// the unmirrored view, so this is whether the preview shows the mirror image.
    public let mirrorsPreview: Bool

    /// The orientation that shows the frame's mirror image, upright (the "selfie" view that Google's ML Kit and
    /// Apple's face-tracking samples give Vision for the front camera). Faces found through it are in the
    /// mirrored view's coordinates, with left and right keypoints swapped.
    public var mirroredViewOrientation: ImageOrientation { orientation.flippedHorizontally }

    /// The orientation of a frame from the angle that levels the native buffer and what the connection did.
    ///
    /// ```swift
    /// // In captureOutput(_:didOutput:from:), with a RotationCoordinator for the device:
    /// let frame = CameraFrameOrientation(camera: .front,
    ///     captureRotation: coordinator.videoRotationAngleForHorizonLevelCapture,
    ///     bufferRotation: connection.videoRotationAngle, bufferMirrored: connection.isVideoMirrored)
    /// ```
    /// - Parameters:
    ///   - camera: which camera delivers the frames (for the default of `previewMirrored`).
    ///   - captureRotation: degrees clockwise that level the camera's native buffer (the rotation coordinator's
    ///     `videoRotationAngleForHorizonLevelCapture`); a multiple of 90.
    ///   - bufferRotation: degrees clockwise the connection turned the buffer (`videoRotationAngle`; pass its current
    ///     value, whatever its default on the device); a multiple of 90.
    ///   - bufferMirrored: whether the connection mirrored the buffer (`isVideoMirrored`).
    ///   - previewMirrored: whether the preview shows the mirror image; nil for AVFoundation's default, mirrored
    ///     for the front camera only.
    /// - Returns: nil when an angle is not a multiple of 90 degrees (AVFoundation supports 0, 90, 180, 270 only).
    public init?(camera: Camera, captureRotation: Double, bufferRotation: Double = 0, bufferMirrored: Bool = false,
                 previewMirrored: Bool? = nil) {
        guard let c = Self.quarterTurns(degrees: captureRotation),
              let r = Self.quarterTurns(degrees: bufferRotation) else { return nil }
        orientation = ImageOrientation(quarterTurns: c - r, mirrored: bufferMirrored)
        mirrorsPreview = previewMirrored ?? (camera == .front)
    }

    /// The orientation of a frame from how the device is held, for a camera whose native buffer is landscape (every
    /// iPhone and iPad camera before the iPhone 17 front camera; see `captureRotation(camera:deviceOrientation:)`).
    /// Prefer the rotation coordinator's angle (`init(camera:captureRotation:...)`) on iOS 17 and later.
    /// - Parameters:
    ///   - camera: which camera delivers the frames.
    ///   - deviceOrientation: how the device is held (`UIDevice.current.orientation`; face up and face down are
    ///     not an orientation: keep the last one).
    ///   - bufferRotation: degrees clockwise the connection turned the buffer (`videoRotationAngle`); a multiple of 90.
    ///   - bufferMirrored: whether the connection mirrored the buffer (`isVideoMirrored`).
    ///   - previewMirrored: whether the preview shows the mirror image; nil for AVFoundation's default, mirrored
    ///     for the front camera only.
    /// - Returns: nil when `bufferRotation` is not a multiple of 90 degrees.
    public init?(camera: Camera, deviceOrientation: DeviceOrientation, bufferRotation: Double = 0,
                 bufferMirrored: Bool = false, previewMirrored: Bool? = nil) {
        self.init(camera: camera,
                  captureRotation: Self.captureRotation(camera: camera, deviceOrientation: deviceOrientation),
                  bufferRotation: bufferRotation, bufferMirrored: bufferMirrored, previewMirrored: previewMirrored)
    }

    /// The degrees clockwise that level a landscape sensor's native buffer: the back camera's buffer is upright
    /// with the home button on the right (`landscapeLeft`), the front camera's with it on the left
    /// (`landscapeRight`), and in portrait both need 90.
    ///
    /// This is the classic iPhone and iPad layout (the connections' default `videoOrientation`: `.landscapeRight` for
    /// the back camera, `.landscapeLeft` for the front). The iPhone 17's square front sensor is portrait-native
    /// (its rotation coordinator reports 0 in portrait), so use the coordinator's angle where it exists.
    /// - Parameters:
    ///   - camera: which camera.
    ///   - deviceOrientation: how the device is held.
    /// - Returns: 0, 90, 180 or 270.
    public static func captureRotation(camera: Camera, deviceOrientation: DeviceOrientation) -> Double {
        switch (camera, deviceOrientation) {
        case (_, .portrait): return 90
        case (_, .portraitUpsideDown): return 270
        case (.back, .landscapeLeft), (.front, .landscapeRight): return 0
        case (.back, .landscapeRight), (.front, .landscapeLeft): return 180
        }
    }

    /// Clockwise quarter turns (0...3) of an angle in degrees that is a multiple of 90 (within 0.01°; negative and
    /// larger angles wrap).
    /// - Parameter degrees: the angle, clockwise.
    /// - Returns: nil for an angle that is not finite or not a multiple of 90.
    public static func quarterTurns(degrees: Double) -> Int? {
        guard degrees.isFinite, abs(degrees) < 1e9 else { return nil }
        let turns = (degrees / 90).rounded()
        guard abs(degrees - turns * 90) <= 0.01 else { return nil }
        return ((Int(turns) % 4) + 4) % 4
    }
}
