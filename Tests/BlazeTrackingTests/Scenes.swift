import BlazeTestSupport
import Foundation

/// The synthetic videos of the tracking tests, as frame lists (480x270, 30 frames per second).
enum Scenes {
    /// The astronaut's face and hair, 180x200 from the 512x512 sample, scaled (0.6: 108x120, a 60 px face).
    static func astronautFace(scale: Double = 0.6) throws -> RGBImage {
        let crop = try SyntheticFrames.astronaut().cropped(x: 136..<316, y: 30..<230)
        return SyntheticFrames.window(crop, x: 0, y: 0, windowWidth: 180, width: Int(180 * scale), height: Int(200 * scale))
    }

    /// The cameraman's head, 120x130 from camera.png, scaled (0.9: 108x117, a 60 px face).
    static func cameramanFace(scale: Double = 0.9) throws -> RGBImage {
        let crop = try SyntheticFrames.cameraman().cropped(x: 172..<292, y: 100..<230)
        return SyntheticFrames.window(crop, x: 0, y: 0, windowWidth: 120, width: Int(120 * scale), height: Int(130 * scale))
    }

    /// The cameraman with his shoulders and camera, 180x200 from camera.png, scaled (1: a 70 px face; the tight
    /// crop of `cameramanFace` is hardly detected on its own, this one is, with scores of 0.7 to 0.8).
    static func cameramanPortrait(scale: Double = 1) throws -> RGBImage {
        let crop = try SyntheticFrames.cameraman().cropped(x: 140..<320, y: 70..<270)
        return SyntheticFrames.window(crop, x: 0, y: 0, windowWidth: 180, width: Int(180 * scale), height: Int(200 * scale))
    }

    /// A camera window over the astronaut picture: `frames` frames from window (x0, y0, width w0) to (x1, y1, w1),
    /// linearly (a pan, a zoom, or both).
    static func pan(frames: Int, from start: (Double, Double, Double), to end: (Double, Double, Double)) throws -> [RGBImage] {
        let picture = try SyntheticFrames.astronaut()
        return (0..<frames).map { index in
            let t = frames > 1 ? Double(index) / Double(frames - 1) : 0
            return SyntheticFrames.window(picture, x: start.0 + (end.0 - start.0) * t, y: start.1 + (end.1 - start.1) * t,
                                          windowWidth: start.2 + (end.2 - start.2) * t)
        }
    }

    /// `face` pasted at each of `positions` (top-left corners) on a gray frame, one frame per position; nil is a
    /// frame without the face.
    static func moving(_ face: RGBImage, _ positions: [(Int, Int)?]) -> [RGBImage] {
        positions.map { position in
            guard let (x, y) = position else { return SyntheticFrames.composed([]) }
            return SyntheticFrames.composed([(face, x, y)])
        }
    }
}
