import BlazeFaceAnalysis
import BlazeFaceMesh
import BlazeTestSupport
import Foundation

/// The astronaut's face mesh and helpers to assess transformed copies of her picture.
enum CaptureSamples {
    private static let meshes = Cache<Int, [Landmark]>()

    /// The astronaut's mesh (detected, then three tracking steps on the same picture), computed once.
    static func astronautMesh() throws -> [Landmark] {
        try meshes.value(0) {
            let landmarker = try PoseSamples.tracker()
            let picture = try Samples.astronaut()
            var faces = try view(picture) { try landmarker.detect($0) }
            for _ in 0..<3 where faces.count == 1 { try view(picture) { try landmarker.detect($0, tracking: &faces) } }
            guard faces.count == 1 else { throw TestResources.Missing(description: "no face on the astronaut") }
            return faces[0].points
        }
    }

    /// Calls `body` with an rgb8 view of `picture`.
    static func view<R>(_ picture: RGBImage, _ body: (ImageView) throws -> R) throws -> R {
        try ImageView.withPixels(picture.pixels, width: picture.width, height: picture.height, pixelFormat: .rgb8, body)
    }

    /// The quality of the face with mesh `points` in `picture`.
    static func quality(_ picture: RGBImage, _ points: [Landmark], _ assessor: CaptureQualityAssessor,
                        eyes: Float? = nil) throws -> FaceQuality {
        try view(picture) { try assessor.assess($0, face: CaptureFace(points: points, leftEyeOpen: eyes, rightEyeOpen: eyes)) }
    }

    /// Each point scaled by `scale` about the origin, then moved by (dx, dy) (pixels; z scaled too).
    static func moved(_ points: [Landmark], scale: Float = 1, dx: Float = 0, dy: Float = 0) -> [Landmark] {
        points.map { Landmark(x: $0.x * scale + dx, y: $0.y * scale + dy, z: $0.z * scale) }
    }

    /// The picture reduced `k` times (box average) and placed at the centre of a canvas of its own size
    /// filled with `fill`, with the mesh moved alike.
    static func downscaled(_ picture: RGBImage, _ points: [Landmark], by k: Int,
                           fill: UInt8 = 128) -> (RGBImage, [Landmark]) {
        let small = picture.boxDownscaled(k)
        var canvas = RGBImage(width: picture.width, height: picture.height, fill: fill)
        let x = (picture.width - small.width) / 2, y = (picture.height - small.height) / 2
        canvas.place(small, x: x, y: y)
        return (canvas, moved(points, scale: 1 / Float(k), dx: Float(x), dy: Float(y)))
    }
}
