import BlazeFaceMesh
import BlazeImageIO
import BlazeTestSupport
import Foundation

/// Sample pictures and landmarkers shared by the face-mesh tests.
enum MeshSamples {
    static var modelsDirectory: String { TestResources.modelsDirectory.path }

    /// A sample picture of Models/samples/, decoded and upright, as rgb8.
    static func picture(_ file: String) throws -> ImageBuffer {
        try ImageDecoder.decode(contentsOf: TestResources.modelsDirectory.appendingPathComponent("samples/" + file).path)
            .uprightRGB()
    }

    static func astronaut() throws -> ImageBuffer { try picture("astronaut.png") }

    /// A new landmarker (tests that count allocations or share nothing use their own).
    static func landmarker(_ model: FaceLandmarker.Model = .attention,
                           options: FaceLandmarker.Options = .init()) throws -> FaceLandmarker {
        try FaceLandmarker(model: model, modelsDirectory: modelsDirectory, options: options)
    }

    /// The mean 2-D distance between corresponding points, divided by the inter-ocular distance of `reference`
    /// (points 33 and 263): the normalized mean error of the parity tests.
    /// `scale` defaults to the reference's inter-ocular distance.
    static func nme(_ points: [Landmark], _ reference: [Landmark], scale: Double? = nil) -> Double {
        let scale = scale ?? FaceLandmarks(points: reference, presence: 1,
                                           region: RotatedRect(center: Point(x: 0, y: 0), width: 1, height: 1))
            .interocularDistance
        var sum = 0.0
        for (p, q) in zip(points, reference) {
            let dx = Double(p.x - q.x), dy = Double(p.y - q.y)
            sum += (dx * dx + dy * dy).squareRoot()
        }
        return sum / Double(reference.count) / scale
    }
}
