import BlazeImaging
import Testing

@Suite("CameraFrameOrientation: camera frames to ImageOrientation")
struct CameraFrameOrientationTests {
    typealias Device = CameraFrameOrientation.DeviceOrientation

    // MARK: First principles: simulate the sensor and the connection, then read the frame back upright.

    static func mirror(_ image: [[UInt8]]) -> [[UInt8]] { image.map { Array($0.reversed()) } }

    static func turnClockwise(_ image: [[UInt8]], quarterTurns: Int) -> [[UInt8]] {
        var image = image
        for _ in 0..<(((quarterTurns % 4) + 4) % 4) {
            let h = image.count, w = image[0].count
            image = (0..<w).map { x in (0..<h).map { y in image[h - 1 - y][x] } }
        }
        return image
    }

    /// The frame `ImageView.uprightRGB()` shows for a stored gray image and an orientation (red channel).
    static func shown(_ stored: [[UInt8]], _ orientation: ImageOrientation) throws -> [[UInt8]] {
        let w = stored[0].count, h = stored.count
        let rgb = try ImageView.withPixels(stored.flatMap { $0 }, width: w, height: h, pixelFormat: .gray8,
                                           orientation: orientation) { $0.uprightRGB() }
        return (0..<rgb.height).map { y in (0..<rgb.width).map { x in rgb.pixels[3 * (y * rgb.width + x)] } }
    }

    @Test("Every capture angle, connection rotation and mirroring gives back the scene upright and unmirrored")
    func simulated() throws {
        // The scene as the user sees it (4x3, asymmetric), and for each angle C the sensor's native buffer: the
        // scene turned back by C (turning the buffer C clockwise levels it).
        let scene: [[UInt8]] = (0..<3).map { y in (0..<4).map { x in UInt8(1 + 10 * y + x) } }
        for c in stride(from: 0, to: 360, by: 90) {
            let native = Self.turnClockwise(scene, quarterTurns: -c / 90)
            for r in stride(from: 0, to: 360, by: 90) {
                for mirrored in [false, true] {
                    // The connection turns the buffer by R, then mirrors the turned buffer.
                    let turned = Self.turnClockwise(native, quarterTurns: r / 90)
                    let buffer = mirrored ? Self.mirror(turned) : turned
                    for camera in CameraFrameOrientation.Camera.allCases {
                        let frame = try #require(CameraFrameOrientation(
                            camera: camera, captureRotation: Double(c), bufferRotation: Double(r), bufferMirrored: mirrored))
                        #expect(try Self.shown(buffer, frame.orientation) == scene, "C \(c) R \(r) mirrored \(mirrored)")
                        #expect(try Self.shown(buffer, frame.mirroredViewOrientation) == Self.mirror(scene))
                        #expect(frame.mirrorsPreview == (camera == .front))
                    }
                }
            }
        }
    }

    @Test("Angles: multiples of 90 only, wrapped; the preview default follows the camera")
    func angles() {
        #expect(CameraFrameOrientation.quarterTurns(degrees: 0) == 0)
        #expect(CameraFrameOrientation.quarterTurns(degrees: 90) == 1)
        #expect(CameraFrameOrientation.quarterTurns(degrees: 270) == 3)
        #expect(CameraFrameOrientation.quarterTurns(degrees: -90) == 3)
        #expect(CameraFrameOrientation.quarterTurns(degrees: 450) == 1)
        #expect(CameraFrameOrientation.quarterTurns(degrees: 89.995) == 1)
        #expect(CameraFrameOrientation.quarterTurns(degrees: 45) == nil)
        #expect(CameraFrameOrientation.quarterTurns(degrees: .nan) == nil)
        #expect(CameraFrameOrientation.quarterTurns(degrees: .infinity) == nil)
        #expect(CameraFrameOrientation(camera: .back, captureRotation: 90, bufferRotation: 30) == nil)
        #expect(CameraFrameOrientation(camera: .back, deviceOrientation: .portrait, bufferRotation: 1) == nil)
        #expect(CameraFrameOrientation(camera: .front, captureRotation: 90, previewMirrored: false)?.mirrorsPreview == false)
        #expect(CameraFrameOrientation(camera: .back, captureRotation: 90, previewMirrored: true)?.mirrorsPreview == true)
        // Spring 2024 iPads: the front connection's default rotation is 180; passing it keeps the answer right.
        #expect(CameraFrameOrientation(camera: .front, captureRotation: 90, bufferRotation: 180)?.orientation == .left)
        // iPhone 17 front camera: its coordinator gives 0 in portrait (a portrait-native sensor).
        #expect(CameraFrameOrientation(camera: .front, captureRotation: 0)?.orientation == .up)
    }

    /// The angle that levels a landscape sensor's buffer, by device orientation: back camera (AVFoundation's default
    /// `videoOrientation` `.landscapeRight`, the home button on the right), front camera (`.landscapeLeft`).
    @Test("Capture rotation of a landscape sensor")
    func captureRotation() {
        let back: [Device: Double] = [.portrait: 90, .portraitUpsideDown: 270, .landscapeLeft: 0, .landscapeRight: 180]
        let front: [Device: Double] = [.portrait: 90, .portraitUpsideDown: 270, .landscapeLeft: 180, .landscapeRight: 0]
        for device in Device.allCases {
            #expect(CameraFrameOrientation.captureRotation(camera: .back, deviceOrientation: device) == back[device])
            #expect(CameraFrameOrientation.captureRotation(camera: .front, deviceOrientation: device) == front[device])
        }
    }

    // MARK: Published tables: each row must come out of the mapping.

    static func orientations(_ camera: CameraFrameOrientation.Camera, bufferRotation: Double = 0,
                             bufferMirrored: Bool = false, mirroredView: Bool = false) -> [Device: ImageOrientation] {
        var table: [Device: ImageOrientation] = [:]
        for device in Device.allCases {
            guard let frame = CameraFrameOrientation(camera: camera, deviceOrientation: device,
                                                     bufferRotation: bufferRotation, bufferMirrored: bufferMirrored)
            else { continue }
            table[device] = mirroredView ? frame.mirroredViewOrientation : frame.orientation
        }
        return table
    }

    @Test("Google ML Kit's imageOrientation(fromDevicePosition:): back camera, and front camera in the mirror view")
    func mlKit() {
        // googlesamples/mlkit, ios/quickstarts/vision/VisionExample/UIUtilities.swift: an untouched connection
        // (no rotation, no mirroring). For the front camera it gives the mirrored (selfie) view, which lines up
        // with the mirrored preview directly: our mirroredViewOrientation. Our orientation is its flip, and
        // faces found through it map onto that preview with mapped(mirrored: true).
        #expect(Self.orientations(.back) == [.portrait: .right, .portraitUpsideDown: .left,
                                             .landscapeLeft: .up, .landscapeRight: .down])
        #expect(Self.orientations(.front, mirroredView: true)
                == [.portrait: .leftMirrored, .portraitUpsideDown: .rightMirrored,
                    .landscapeLeft: .downMirrored, .landscapeRight: .upMirrored])
    }

    @Test("Apple's VisionFaceTrack sample: front camera, mirror view")
    func visionFaceTrack() {
        // "Tracking the User's Face in Real Time", exifOrientationForDeviceOrientation: the same table as ML Kit's
        // front camera (untouched connection, mirrored view).
        #expect(Self.orientations(.front, mirroredView: true)
                == [.portrait: .leftMirrored, .portraitUpsideDown: .rightMirrored,
                    .landscapeLeft: .downMirrored, .landscapeRight: .upMirrored])
    }

    @Test("SquareCam-style tables: both cameras, true view")
    func squareCam() {
        #expect(Self.orientations(.back) == [.portrait: .right, .portraitUpsideDown: .left,
                                             .landscapeLeft: .up, .landscapeRight: .down])
        #expect(Self.orientations(.front) == [.portrait: .right, .portraitUpsideDown: .left,
                                              .landscapeLeft: .down, .landscapeRight: .up])
    }

    @Test("MediaPipe's face detector sample: connection turned to portrait, front camera mirrored")
    func mediaPipe() {
        // google-ai-edge/mediapipe-samples, face_detector CameraFeedService.swift: videoOrientation = .portrait
        // (90 degrees for both cameras), isVideoMirrored for the front camera, then portrait .up,
        // landscapeLeft .left, landscapeRight .right. The front buffer is the mirror image, and MediaPipe works in
        // it: our mirroredViewOrientation. (It gives no upside-down row.)
        let expected: [Device: ImageOrientation] = [.portrait: .up, .landscapeLeft: .left, .landscapeRight: .right]
        let back = Self.orientations(.back, bufferRotation: 90).filter { $0.key != .portraitUpsideDown }
        let front = Self.orientations(.front, bufferRotation: 90, bufferMirrored: true, mirroredView: true)
            .filter { $0.key != .portraitUpsideDown }
        #expect(back == expected)
        #expect(front == expected)
        // The other order (mirror, then turn) would give .down in portrait: the sample shows it is not that.
        #expect(CameraFrameOrientation(camera: .front, deviceOrientation: .portrait, bufferRotation: 90,
                                       bufferMirrored: true)?.orientation == .upMirrored)
    }

    @Test("A mirrored front connection without rotation (iPad report): the true view by capture angle")
    func mirroredFront() {
        // nacho4d's 2025 iPad (A16) front camera, isVideoMirrored: capture angle 0 .upMirrored, 90 .rightMirrored,
        // 180 .downMirrored, 270 .leftMirrored (a third-party observation).
        let expected: [Double: ImageOrientation] = [0: .upMirrored, 90: .rightMirrored, 180: .downMirrored,
                                                    270: .leftMirrored]
        for (angle, orientation) in expected {
            #expect(CameraFrameOrientation(camera: .front, captureRotation: angle, bufferMirrored: true)?.orientation
                    == orientation)
        }
        // The research notes' table for a mirrored front connection, by device orientation: true view and
        // mirror view.
        #expect(Self.orientations(.front, bufferMirrored: true)
                == [.portrait: .rightMirrored, .portraitUpsideDown: .leftMirrored,
                    .landscapeLeft: .downMirrored, .landscapeRight: .upMirrored])
        #expect(Self.orientations(.front, bufferMirrored: true, mirroredView: true)
                == [.portrait: .left, .portraitUpsideDown: .right, .landscapeLeft: .down, .landscapeRight: .up])
    }
}
