import BlazeFaceAnalysis
import BlazeFaceMesh
import BlazeTestSupport
import CAllocationCounter
import Foundation
import Testing

@Suite("Head pose: bad input gives typed errors")
struct BadInputTests {
    static let camera = CameraIntrinsics.mediaPipe(imageWidth: 640, imageHeight: 480)
    static let face = SyntheticFace.landmarks(rotation: HeadPose.rotation(pitch: 10, yaw: -20, roll: 5),
                                              translation: SIMD3(3, -2, -50), camera: camera)

    func error(_ points: [Landmark], camera: CameraIntrinsics = BadInputTests.camera) -> HeadPoseError? {
        do { _ = try HeadPoseEstimator.estimate(points, camera: camera); return nil } catch { return error }
    }

    @Test("fewer than 468 points")
    func tooFewPoints() {
        #expect(error([]) == .tooFewPoints(0))
        #expect(error(Array(Self.face.prefix(467))) == .tooFewPoints(467))
        #expect(error(Array(Self.face.prefix(468))) == nil)
    }

    @Test("a NaN or infinite coordinate, anywhere in the mesh, even outside the fit's 33 points")
    func nonFinite() {
        for (index, value) in [(0, Float.nan), (4, .infinity), (100, -.infinity), (467, .nan)] {
            for axis in 0..<3 {
                let points = PoseSamples.replacing(Self.face, index: index, axis: axis, with: value)
                #expect(error(points) == .nonFinitePoint(index: index))
            }
        }
    }

    @Test("all points equal, all on one point of the image, or pushed behind the camera by their depths")
    func degenerate() {
        #expect(error(Array(repeating: Landmark(x: 100, y: 100, z: 0), count: 478)) == .degenerate)
        #expect(error(Array(repeating: Landmark(x: 0, y: 0, z: 0), count: 468)) == .degenerate)
        var behind = Self.face
        behind[4].z = -1e6
        #expect(error(behind) == .degenerate)
    }

    @Test("invalid image sizes and cameras")
    func invalidCamera() {
        #expect(throws: HeadPoseError.invalidImageSize(width: 0, height: 480)) {
            try HeadPoseEstimator.estimate(Self.face, imageWidth: 0, imageHeight: 480)
        }
        #expect(throws: HeadPoseError.invalidImageSize(width: 640, height: -1)) {
            try HeadPoseEstimator.estimate(Self.face, imageWidth: 640, imageHeight: -1)
        }
        for camera in [CameraIntrinsics(fx: 0, fy: 500, cx: 0, cy: 0), CameraIntrinsics(fx: 500, fy: -1, cx: 0, cy: 0),
                       CameraIntrinsics(fx: .nan, fy: 500, cx: 0, cy: 0),
                       CameraIntrinsics(fx: 500, fy: 500, cx: .infinity, cy: 0)] {
            guard case let .invalidCamera(reported) = error(Self.face, camera: camera) else {
                Issue.record("\(camera) accepted")
                continue
            }
            #expect(reported.fx.bitPattern == camera.fx.bitPattern && reported.cx.bitPattern == camera.cx.bitPattern)
        }
    }

    @Test("random garbage: a pose with finite angles or a typed error, never a crash")
    func garbage() {
        var random = SplitMix64(seed: 3)
        var poses = 0
        for trial in 0..<500 {
            let spread = Float([1, 1e3, 1e9, 1e30][trial % 4])
            let points = (0..<468).map { _ in
                Landmark(x: (random.nextFloat() - 0.5) * spread, y: (random.nextFloat() - 0.5) * spread,
                         z: (random.nextFloat() - 0.5) * spread)
            }
            if let pose = try? HeadPoseEstimator.estimate(points, camera: Self.camera) {
                poses += 1
                #expect(pose.pitch.isFinite && pose.yaw.isFinite && pose.roll.isFinite && pose.fitError.isFinite)
                #expect(abs(pose.rotation.determinant - 1) < 1e-9)
            }
        }
        #expect(poses > 0)
    }

    @Test("no heap allocation per estimate", .enabled(if: blaze_allocation_counting_available() == 1))
    func noAllocation() throws {
        let points = Self.face
        _ = try HeadPoseEstimator.estimate(points, camera: Self.camera)
        blaze_allocation_counting_begin()
        let pose = try HeadPoseEstimator.estimate(points, camera: Self.camera)
        let count = blaze_allocation_counting_end()
        #expect(count == 0, "\(count) allocations")
        #expect(abs(pose.yaw + 20) < 1e-3)
    }
}
