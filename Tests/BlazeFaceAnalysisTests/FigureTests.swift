import BlazeFaceAnalysis
import BlazeFaceMesh
import BlazeImageIO
import BlazeTestSupport
import Foundation
import Testing

/// The head-pose figure of Documentation/Attributes.md: the astronaut upright, mirrored and turned a quarter turn
/// each way, with the face's axes drawn from the nose tip (x red: toward her left; y green: up the face;
/// z blue: out of the face, 6 cm each). Set BLAZEFACE_FIGURES to a folder to write head-pose-astronaut.png there.
@Suite("Head pose figure")
struct FigureTests {
    /// A panel: the picture, its pose and the drawn axes' ends in pixels.
    struct Panel {
        var picture: RGBImage
        var pose: HeadPose
        var origin: Point
        var ends: [Point]
    }

    static func panel(_ picture: RGBImage, _ landmarker: FaceLandmarker) throws -> Panel? {
        let image = ImageBuffer(width: picture.width, height: picture.height, pixelFormat: .rgb8, pixels: picture.pixels)
        var faces = try image.withView { try landmarker.detect($0) }
        for _ in 0..<3 where faces.count == 1 { try image.withView { try landmarker.detect($0, tracking: &faces) } }
        guard faces.count == 1 else { return nil }
        let camera = CameraIntrinsics.mediaPipe(imageWidth: picture.width, imageHeight: picture.height)
        let pose = try faces[0].headPose(camera: camera)
        let nose = pose.cameraPoint(CanonicalFaceModel.vertex(1))
        guard let origin = camera.project(nose) else { return nil }
        let ends = (0..<3).compactMap { camera.project(nose + 6 * pose.rotation.column($0)) }
        guard ends.count == 3 else { return nil }
        return Panel(picture: picture, pose: pose, origin: origin, ends: ends)
    }

    @Test("the drawn axes agree with the angles: the up axis leans by the roll; she looks almost into the lens")
    func figure() throws {
        let landmarker = try PoseSamples.tracker()
        let astronaut = try Samples.astronaut()
        var panels: [Panel] = []
        for picture in [astronaut, astronaut.mirrored(), astronaut.rotated90(1), astronaut.rotated90(3)] {
            panels.append(try #require(try Self.panel(picture, landmarker)))
        }
        for panel in panels {
            let up = (x: panel.ends[1].x - panel.origin.x, y: panel.ends[1].y - panel.origin.y)
            // Counter-clockwise roll turns the up axis to the left: its angle from the image's up is −roll.
            let lean = atan2(up.x, -up.y) * 180 / .pi
            #expect(abs(angleDifference(lean, -panel.pose.roll)) < 3, "lean \(lean) roll \(panel.pose.roll)")
            // Her face is 17° above the optical axis and pitched 14° down: it points nearly at the lens, so the
            // nose axis is seen almost end-on, a few pixels long where the up axis is about 50.
            let z = (x: panel.ends[2].x - panel.origin.x, y: panel.ends[2].y - panel.origin.y)
            let upLength = (up.x * up.x + up.y * up.y).squareRoot(), zLength = (z.x * z.x + z.y * z.y).squareRoot()
            #expect(upLength > 30 && zLength < 0.15 * upLength, "up \(upLength) px, nose \(zLength) px")
        }
        guard let folder = ProcessInfo.processInfo.environment["BLAZEFACE_FIGURES"] else { return }
        let colours: [[UInt8]] = [[230, 40, 30], [40, 190, 60], [30, 110, 240]]
        let crops = panels.map { panel -> RGBImage in
            var picture = panel.picture
            for axis in 0..<3 { picture.drawLine(from: panel.origin, to: panel.ends[axis], colour: colours[axis]) }
            let x = min(max(Int(panel.origin.x) - 128, 0), picture.width - 256)
            let y = min(max(Int(panel.origin.y) - 128, 0), picture.height - 256)
            return picture.cropped(x: x..<(x + 256), y: y..<(y + 256))
        }
        let figure = RGBImage.hconcat(crops)
        let buffer = ImageBuffer(width: figure.width, height: figure.height, pixelFormat: .rgb8, pixels: figure.pixels)
        try PNGEncoder.write(buffer, to: folder + "/head-pose-astronaut.png")
        for panel in panels {
            let seen = panel.pose.relativeToLineOfSight
            print(String(format: "pitch %.1f yaw %.1f roll %.1f; relative to the line of sight %.1f %.1f %.1f",
                         panel.pose.pitch, panel.pose.yaw, panel.pose.roll, seen.pitch, seen.yaw, seen.roll))
        }
    }
}

extension RGBImage {
    /// Draws a 3-pixel-wide segment in `colour` (clipped to the picture).
    mutating func drawLine(from a: Point, to b: Point, colour: [UInt8]) {
        let length = max(abs(b.x - a.x), abs(b.y - a.y))
        let steps = max(1, Int(length * 2))
        for step in 0...steps {
            let t = Double(step) / Double(steps)
            let cx = Int((a.x + (b.x - a.x) * t).rounded(.down)), cy = Int((a.y + (b.y - a.y) * t).rounded(.down))
            for y in (cy - 1)...(cy + 1) where y >= 0 && y < height {
                for x in (cx - 1)...(cx + 1) where x >= 0 && x < width {
                    let o = offset(x, y)
                    (pixels[o], pixels[o + 1], pixels[o + 2]) = (colour[0], colour[1], colour[2])
                }
            }
        }
    }
}
