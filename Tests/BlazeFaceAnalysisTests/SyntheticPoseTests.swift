import BlazeFaceAnalysis
import BlazeFaceMesh
import BlazeTestSupport
import Foundation
import Testing

@Suite("Head pose of the canonical face, posed and projected")
struct SyntheticPoseTests {
    static let pitches: [Double] = [-30, 0, 30]
    static let yaws: [Double] = [-40, 0, 40]
    static let rolls: [Double] = [-45, 0, 45]
    /// Where the head is put: fractions of the image's width and height (centre, corners, edges).
    static let places: [(Double, Double)] = [(0.5, 0.5), (0.05, 0.05), (0.95, 0.05), (0.05, 0.95), (0.95, 0.95),
                                             (0.5, 0.05), (0.95, 0.5), (0.3, 0.8)]

    /// Poses the canonical face at every angle of the grid, every place and `distances`, projects it with
    /// `camera` and estimates its pose with `estimate`; returns the largest errors.
    func sweep(camera: CameraIntrinsics, width: Double, height: Double, distances: [Double],
               estimate: ([Landmark]) throws -> HeadPose) throws -> (angle: Double, translation: Double) {
        var worst = (angle: 0.0, translation: 0.0)
        for pitch in Self.pitches { for yaw in Self.yaws { for roll in Self.rolls {
            let rotation = HeadPose.rotation(pitch: pitch, yaw: yaw, roll: roll)
            for (fx, fy) in Self.places { for distance in distances {
                let t = SyntheticFace.translation(x: fx * width, y: fy * height, distance: distance, camera: camera)
                let points = SyntheticFace.landmarks(rotation: rotation, translation: t, camera: camera)
                let pose = try estimate(points)
                let errors = [angleDifference(pose.pitch, pitch), angleDifference(pose.yaw, yaw),
                              angleDifference(pose.roll, roll)].map(abs)
                let place = "pitch \(pitch) yaw \(yaw) roll \(roll) at (\(fx), \(fy)) \(distance) cm"
                #expect(errors.max()! < 0.5, "\(place): \(pose.pitch), \(pose.yaw), \(pose.roll)")
                let dt = ((pose.translation - t) * (pose.translation - t)).sum().squareRoot()
                #expect(dt < 0.01 * distance, "\(place): translation \(pose.translation) vs \(t)")
                #expect(pose.fitError < 0.01)
                worst.angle = max(worst.angle, errors.max()!)
                worst.translation = max(worst.translation, dt / distance)
            } }
        } } }
        return worst
    }

    @Test("MediaPipe's camera: angles within 0.5° (in fact ~1e-4°) anywhere in the frustum, corners included")
    func mediaPipeCamera() throws {
        for (width, height) in [(640, 480), (480, 640), (1920, 1080)] {
            let camera = CameraIntrinsics.mediaPipe(imageWidth: width, imageHeight: height)
            let worst = try sweep(camera: camera, width: Double(width), height: Double(height),
                                  distances: [25, 60, 300]) { points in
                try HeadPoseEstimator.estimate(points, imageWidth: width, imageHeight: height)
            }
            #expect(worst.angle < 1e-3, "\(width)x\(height): worst angle error \(worst.angle)°")
            #expect(worst.translation < 1e-4, "\(width)x\(height): worst relative translation error \(worst.translation)")
        }
    }

    @Test("caller intrinsics: off-centre principal point, unequal focal lengths, a wide and a narrow lens")
    func callerIntrinsics() throws {
        for camera in [CameraIntrinsics(fx: 900, fy: 910, cx: 700, cy: 330),
                       CameraIntrinsics(fx: 350, fy: 350, cx: 610, cy: 380),
                       CameraIntrinsics(fx: 4000, fy: 4000, cx: 640, cy: 360)] {
            let worst = try sweep(camera: camera, width: 1280, height: 720, distances: [30, 80]) { points in
                try HeadPoseEstimator.estimate(points, camera: camera)
            }
            #expect(worst.angle < 1e-3, "\(camera): worst angle error \(worst.angle)°")
        }
    }

    @Test("a face at the edge of a wide picture looking into the lens: turned toward the camera, 0 to the line of sight")
    func lookingIntoTheLens() throws {
        let camera = CameraIntrinsics.mediaPipe(imageWidth: 1920, imageHeight: 1080)
        let t = SyntheticFace.translation(x: 1800, y: 200, distance: 50, camera: camera)
        // The face's forward axis (column 2) points back along the ray, its x axis stays horizontal.
        let forward = -t / (t * t).sum().squareRoot()
        let side = SIMD3(forward.z, 0, -forward.x) / (forward.z * forward.z + forward.x * forward.x).squareRoot()
        let up = SIMD3(forward.y * side.z - forward.z * side.y, forward.z * side.x - forward.x * side.z,
                       forward.x * side.y - forward.y * side.x)
        let rotation = Matrix3(columns: side, up, forward)
        let pose = try HeadPoseEstimator.estimate(
            SyntheticFace.landmarks(rotation: rotation, translation: t, camera: camera), camera: camera)
        // Yaw is the azimuth and pitch the elevation of the line of sight; no roll.
        let azimuth = atan2(forward.x, forward.z) * 180 / .pi
        let elevation = asin(forward.y) * 180 / .pi
        #expect(azimuth < -30 && elevation < -10, "to the right and above: looks left and down at the camera")
        #expect(abs(pose.yaw - azimuth) < 1e-3 && abs(pose.pitch - elevation) < 1e-3 && abs(pose.roll) < 1e-3,
                "\(pose.pitch), \(pose.yaw), \(pose.roll) vs \(elevation), \(azimuth)")
        // Relative to the line of sight it looks straight ahead; the distance is kept.
        let seen = pose.relativeToLineOfSight
        #expect(abs(seen.pitch) < 1e-3 && abs(seen.yaw) < 1e-3 && abs(seen.roll) < 1e-3,
                "\(seen.pitch), \(seen.yaw), \(seen.roll)")
        #expect(abs(seen.translation.z + 50) < 1e-3 && abs(seen.translation.x) < 1e-9 && abs(seen.translation.y) < 1e-9)
        // Turning the face 20° to its left from there adds 20° of yaw relative to the line of sight.
        let turned = Matrix3(columns: side, up, forward) * HeadPose.rotation(pitch: 0, yaw: 20, roll: 0)
        let turnedPose = try HeadPoseEstimator.estimate(
            SyntheticFace.landmarks(rotation: turned, translation: t, camera: camera), camera: camera)
        #expect(abs(turnedPose.relativeToLineOfSight.yaw - 20) < 1e-3 && abs(turnedPose.relativeToLineOfSight.pitch) < 1e-3)
        // On the optical axis the two agree.
        let centred = HeadPose(rotation: HeadPose.rotation(pitch: 10, yaw: -30, roll: 5), translation: SIMD3(0, 0, -40))
        #expect(maxDifference(centred.relativeToLineOfSight.rotation, centred.rotation) < 1e-12)
    }

    @Test("mirroring the mesh (x → width − x, twins swapped): yaw and roll change sign, pitch stays, exactly")
    func mirrored() throws {
        let camera = CameraIntrinsics.mediaPipe(imageWidth: 640, imageHeight: 480)
        #expect(SyntheticFace.mirrorTwins[33] == 263 && SyntheticFace.mirrorTwins[1] == 1)
        for (pitch, yaw, roll) in [(10.0, 25.0, -12.0), (-20, -35, 40), (5, 60, 170)] {
            let t = SyntheticFace.translation(x: 500, y: 100, distance: 45, camera: camera)
            let points = SyntheticFace.landmarks(rotation: HeadPose.rotation(pitch: pitch, yaw: yaw, roll: roll),
                                                 translation: t, camera: camera)
            let pose = try HeadPoseEstimator.estimate(points, camera: camera)
            let mirror = try HeadPoseEstimator.estimate(SyntheticFace.mirrored(points, width: 640), camera: camera)
            #expect(abs(mirror.pitch - pose.pitch) < 1e-3 && abs(mirror.yaw + pose.yaw) < 1e-3
                    && abs(angleDifference(mirror.roll, -pose.roll)) < 1e-3,
                    "\(pose.pitch), \(pose.yaw), \(pose.roll) mirrored: \(mirror.pitch), \(mirror.yaw), \(mirror.roll)")
        }
    }

    @Test("random poses with the iris points appended, and noise of 0.5 px: within 2°")
    func randomWithNoise() throws {
        var random = SplitMix64(seed: 42)
        func uniform() -> Double { Double(random.nextFloat()) }
        let camera = CameraIntrinsics.mediaPipe(imageWidth: 1280, imageHeight: 720)
        for _ in 0..<200 {
            let (pitch, yaw, roll) = (35 * uniform(), 50 * uniform(), 180 * uniform())
            let t = SyntheticFace.translation(x: 640 + 600 * uniform(), y: 360 + 340 * uniform(),
                                              distance: 40 + 40 * abs(uniform()), camera: camera)
            var points = SyntheticFace.landmarks(rotation: HeadPose.rotation(pitch: pitch, yaw: yaw, roll: roll),
                                                 translation: t, camera: camera)
            for i in points.indices {
                points[i].x += Float(0.5 * uniform())
                points[i].y += Float(0.5 * uniform())
                points[i].z += Float(0.5 * uniform())
            }
            points += Array(repeating: Landmark(x: .nan, y: .nan, z: .nan), count: 10)
            let pose = try HeadPoseEstimator.estimate(points, camera: camera)
            #expect(abs(angleDifference(pose.pitch, pitch)) < 2 && abs(angleDifference(pose.yaw, yaw)) < 2
                    && abs(angleDifference(pose.roll, roll)) < 2,
                    "\(pitch), \(yaw), \(roll) -> \(pose.pitch), \(pose.yaw), \(pose.roll)")
        }
    }
}
