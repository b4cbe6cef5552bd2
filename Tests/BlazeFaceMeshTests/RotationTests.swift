import BlazeFaceAnalysis
import BlazeFaceMesh
import BlazeImageIO
import BlazeTestSupport
import Foundation
import Testing

/// `FaceLandmarker.Options.tryRotations`: the mesh of a face found in a quarter turn of the picture.
@Suite("Rotations")
struct RotationTests {
    static func turned(_ image: ImageBuffer, quarterTurns: Int) throws -> ImageBuffer {
        try QuarterTurns.turned(image, quarterTurns: quarterTurns)
    }

    static func landmark(_ p: Landmark, turned quarterTurns: Int, width: Double, height: Double) -> Landmark {
        let q = QuarterTurns.point(x: Double(p.x), y: Double(p.y), turned: quarterTurns, width: width, height: height)
        return Landmark(x: Float(q.x), y: Float(q.y), z: p.z)
    }

    @Test("the astronaut turned: the mesh lands where the upright mesh turns to, roll differs by the turn",
          arguments: [1, 2, 3])
    func astronautTurned(quarterTurns: Int) throws {
        let upright = try MeshSamples.astronaut()
        let plain = try MeshSamples.landmarker()
        let rotating = try MeshSamples.landmarker(options: .init(tryRotations: true))
        let reference = try #require(try upright.withView { try plain.detect($0) }.first)
        let picture = try Self.turned(upright, quarterTurns: quarterTurns)
        // Without the option, the sideways face is not found (upside down it may be, poorly): with it, once.
        let meshes = try picture.withView { try rotating.detect($0) }
        try #require(meshes.count == 1)
        let mesh = meshes[0]
        #expect(mesh.detection?.uprightRotation == (360 - 90 * quarterTurns) % 360)
        let w = Double(upright.uprightWidth), h = Double(upright.uprightHeight)
        let expected = reference.points.map { Self.landmark($0, turned: quarterTurns, width: w, height: h) }
        let error = MeshSamples.nme(mesh.points, expected)
        #expect(error < 0.05, "normalized mean error \(error)")
        // The pose's roll turns with the picture; pitch and yaw barely change.
        let pose = try reference.headPose(imageWidth: upright.uprightWidth, imageHeight: upright.uprightHeight)
        let turnedPose = try mesh.headPose(imageWidth: picture.uprightWidth, imageHeight: picture.uprightHeight)
        var rollChange = turnedPose.roll - pose.roll
        while rollChange > 180 { rollChange -= 360 }
        while rollChange <= -180 { rollChange += 360 }
        let expectedChange = quarterTurns == 2 ? 180.0 : (quarterTurns == 1 ? -90.0 : 90.0)
        #expect(abs(abs(rollChange) - abs(expectedChange)) < 8, "roll \(pose.roll) -> \(turnedPose.roll)")
        if quarterTurns != 2 { #expect(abs(rollChange - expectedChange) < 8, "roll \(pose.roll) -> \(turnedPose.roll)") }
    }
}
