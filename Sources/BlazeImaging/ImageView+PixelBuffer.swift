// `ImageView.withPixelBuffer`: locks a CoreVideo pixel buffer, reads its format, planes and colour matrix, and calls
// the plain-Swift `ImageView(pixelBufferFormat:...)` (PixelBufferLayout.swift), which chooses and checks everything.
// Linux CI builds this file compiled out; it has not been compiled on an Apple platform here.

#if canImport(CoreVideo)
import CoreVideo
import Foundation

extension ImageView {
    /// Calls `body` with a zero-copy view of a `CVPixelBuffer` (a camera frame, a decoded video frame): BGRA
    /// (`kCVPixelFormatType_32BGRA`), or '420v' / '420f' as an nv12 view with the colour matrix of its
    /// `kCVImageBufferYCbCrMatrixKey` attachment and the range of its format. The buffer is locked read-only for
    /// the call and unlocked after it.
    ///
    /// ```swift
    /// func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer,
    ///                    from connection: AVCaptureConnection) {
    ///     guard let buffer = CMSampleBufferGetImageBuffer(sampleBuffer),
    ///           let frame = CameraFrameOrientation(connection: connection, position: position,
    ///                                              captureRotation: coordinator.videoRotationAngleForHorizonLevelCapture)
    ///     else { return }
    ///     try? ImageView.withPixelBuffer(buffer, orientation: frame.orientation) { view in
    ///         try detector.detect(view, into: &faces)
    ///     }
    /// }
    /// ```
    /// - Parameters:
    ///   - pixelBuffer: the buffer; it must not be written while `body` runs.
    ///   - orientation: how the stored pixels are shown upright (`CameraFrameOrientation.orientation` for camera
    ///     frames).
    ///   - body: reads the view; it is valid only during the call.
    /// - Returns: what `body` returns.
    /// - Throws: `ImagingError.unsupportedPixelBufferFormat` for another pixel format; `.invalidPixelBuffer` when the
    ///   lock fails or a plane is missing or too small; the geometry errors of `ImageView(pixelBufferFormat:...)`;
    ///   or whatever `body` throws.
    public static func withPixelBuffer<R>(_ pixelBuffer: CVPixelBuffer, orientation: ImageOrientation = .up,
                                          _ body: (ImageView) throws -> R) throws -> R {
        let status = CVPixelBufferLockBaseAddress(pixelBuffer, .readOnly)
        guard status == kCVReturnSuccess else {
            throw ImagingError.invalidPixelBuffer("CVPixelBufferLockBaseAddress returned \(status)")
        }
        defer { _ = CVPixelBufferUnlockBaseAddress(pixelBuffer, .readOnly) }
        var planes: [PixelBufferPlane] = []
        if CVPixelBufferIsPlanar(pixelBuffer) {
            for index in 0..<CVPixelBufferGetPlaneCount(pixelBuffer) {
                planes.append(PixelBufferPlane(
                    baseAddress: CVPixelBufferGetBaseAddressOfPlane(pixelBuffer, index).map { UnsafeRawPointer($0) },
                    width: CVPixelBufferGetWidthOfPlane(pixelBuffer, index),
                    height: CVPixelBufferGetHeightOfPlane(pixelBuffer, index),
                    bytesPerRow: CVPixelBufferGetBytesPerRowOfPlane(pixelBuffer, index)))
            }
        } else {
            planes.append(PixelBufferPlane(
                baseAddress: CVPixelBufferGetBaseAddress(pixelBuffer).map { UnsafeRawPointer($0) },
                width: CVPixelBufferGetWidth(pixelBuffer), height: CVPixelBufferGetHeight(pixelBuffer),
                bytesPerRow: CVPixelBufferGetBytesPerRow(pixelBuffer)))
        }
        let matrix = CVBufferCopyAttachment(pixelBuffer, kCVImageBufferYCbCrMatrixKey, nil) as? String
        let view = try ImageView(pixelBufferFormat: CVPixelBufferGetPixelFormatType(pixelBuffer),
                                 width: CVPixelBufferGetWidth(pixelBuffer), height: CVPixelBufferGetHeight(pixelBuffer),
                                 planes: planes, yCbCrMatrix: matrix, orientation: orientation)
        return try body(view)
    }
}
#endif
