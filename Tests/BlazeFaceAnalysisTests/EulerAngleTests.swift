import BlazeFaceAnalysis
import Foundation
import Testing

@Suite("Euler angles: ML Kit's conventions")
struct EulerAngleTests {
    /// Where the posed face's nose tip (canonical vertex 1) and forehead (vertex 10) appear relative to the
    /// head's origin, for a face 60 cm in front of a 640x480 camera.
    func projected(pitch: Double, yaw: Double, roll: Double) -> (nose: SIMD2<Double>, top: SIMD2<Double>) {
        let camera = CameraIntrinsics.mediaPipe(imageWidth: 640, imageHeight: 480)
        let pose = HeadPose(rotation: HeadPose.rotation(pitch: pitch, yaw: yaw, roll: roll),
                            translation: SIMD3(0, 0, -60))
        let origin = camera.project(pose.translation)!
        let nose = camera.project(pose.cameraPoint(CanonicalFaceModel.vertex(1)))!
        let top = camera.project(pose.cameraPoint(CanonicalFaceModel.vertex(10)))!
        return (SIMD2(nose.x - origin.x, nose.y - origin.y), SIMD2(top.x - origin.x, top.y - origin.y))
    }

    @Test("positive pitch: the face looks up (the nose tip moves up in the picture, y decreasing)")
    func pitchUp() {
        let straight = projected(pitch: 0, yaw: 0, roll: 0).nose.y
        #expect(projected(pitch: 20, yaw: 0, roll: 0).nose.y < straight - 5)
        #expect(projected(pitch: -20, yaw: 0, roll: 0).nose.y > straight + 5)
    }

    @Test("positive yaw: the subject turns to their own left, the nose toward the image's right")
    func yawLeft() {
        let straight = projected(pitch: 0, yaw: 0, roll: 0).nose.x
        #expect(abs(straight) < 1e-9)
        #expect(projected(pitch: 0, yaw: 20, roll: 0).nose.x > 5)
        // The subject's left eye (outer corner 263) is on the image's right when the face looks at the camera.
        #expect(CanonicalFaceModel.vertex(263).x > 0 && CanonicalFaceModel.vertex(33).x < 0)
    }

    @Test("positive roll: counter-clockwise as displayed (the top of the head moves to the image's left)")
    func rollCounterClockwise() {
        let top = projected(pitch: 0, yaw: 0, roll: 30).top
        #expect(top.y < 0, "the forehead stays above the centre")
        #expect(top.x < -5, "the forehead moves left: counter-clockwise with y down")
        let angle = atan2(-top.x, -top.y) * 180 / .pi
        #expect(abs(angle - 30) < 0.5, "the forehead turned by the roll: \(angle)°")
    }

    @Test("rotation(pitch:yaw:roll:) and eulerAngles(of:) are inverses, over the angles' whole ranges")
    func roundTrip() {
        for pitch in stride(from: -170.0, through: 170, by: 17) {
            for yaw in stride(from: -85.0, through: 85, by: 8.5) {
                for roll in stride(from: -175.0, through: 175, by: 25) {
                    let r = HeadPose.rotation(pitch: pitch, yaw: yaw, roll: roll)
                    #expect(abs(r.determinant - 1) < 1e-12)
                    let (p, y, z) = HeadPose.eulerAngles(of: r)
                    #expect(abs(p - pitch) < 1e-9 && abs(y - yaw) < 1e-9 && abs(z - roll) < 1e-9,
                            "\(pitch), \(yaw), \(roll) -> \(p), \(y), \(z)")
                }
            }
        }
    }

    @Test("roll is the outermost rotation: turning the camera about its axis only adds to the roll")
    func rollOutermost() {
        let r = HeadPose.rotation(pitch: 12, yaw: -25, roll: 8)
        let turned = HeadPose.rotation(pitch: 0, yaw: 0, roll: 90) * r
        let (p, y, z) = HeadPose.eulerAngles(of: turned)
        #expect(abs(p - 12) < 1e-9 && abs(y + 25) < 1e-9 && abs(z - 98) < 1e-9)
    }

    @Test("side-on (yaw ±90°): a rotation whose pitch and roll are not separable still round-trips")
    func gimbalLock() {
        for yaw in [90.0, -90.0] {
            let r = HeadPose.rotation(pitch: 0, yaw: yaw, roll: 30)
            let (p, y, z) = HeadPose.eulerAngles(of: r)
            #expect(p == 0 && abs(y - yaw) < 1e-6 && abs(z - 30) < 1e-6)
            #expect(axisAngleError(HeadPose.rotation(pitch: p, yaw: y, roll: z), r) < 1e-5)
        }
    }

    @Test("MediaPipe's camera: a 63° vertical field of view, principal point at the centre; project inverts ray")
    func camera() {
        let camera = CameraIntrinsics.mediaPipe(imageWidth: 1280, imageHeight: 720)
        #expect(abs(atan(360 / camera.fy) * 360 / .pi - 63) < 1e-9)
        #expect(camera.fx == camera.fy && camera.cx == 640 && camera.cy == 360)
        let point = camera.project(camera.ray(x: 100, y: 700) * 37)!
        #expect(abs(point.x - 100) < 1e-9 && abs(point.y - 700) < 1e-9)
        #expect(camera.project(SIMD3(0, 0, 1)) == nil)
    }
}
