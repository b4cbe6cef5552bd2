import BlazeFaceAnalysis
import BlazeFaceMesh
import BlazeTestSupport
import CAllocationCounter
import Foundation
import Testing

/// Eye-open and smiling probabilities on constructed meshes: the canonical face posed and projected, and a
/// real mesh (the astronaut's) with its eyelids closed and its mouth corners lowered step by step.
@Suite("Expression: synthetic meshes")
struct ExpressionSyntheticTests {
    static let camera = CameraIntrinsics.mediaPipe(imageWidth: 640, imageHeight: 480)

    static func canonical(pitch: Double = 0, yaw: Double = 0, roll: Double = 0, x: Double = 320, y: Double = 240,
                          distance: Double = 50) -> [Landmark] {
        SyntheticFace.landmarks(rotation: HeadPose.rotation(pitch: pitch, yaw: yaw, roll: roll),
                                translation: SyntheticFace.translation(x: x, y: y, distance: distance, camera: camera),
                                camera: camera)
    }

    static let astronautCamera = CameraIntrinsics.mediaPipe(imageWidth: 512, imageHeight: 512)

    /// The astronaut's mesh (attention model, 478 points).
    static func astronaut() throws -> [Landmark] {
        let picture = try Samples.astronaut()
        let image = ImageBuffer(width: picture.width, height: picture.height, pixelFormat: .rgb8, pixels: picture.pixels)
        let faces = try image.withView { try PoseSamples.tracker().detect($0) }
        return try #require(faces.first).points
    }

    @Test("the canonical face: eyes open (aspect ratio 0.242), not smiling (measurements 0)")
    func canonicalFace() throws {
        let e = try ExpressionEstimator.estimate(Self.canonical(), camera: Self.camera)
        #expect(abs(e.measurements.leftEyeAspectRatio - 0.242) < 0.002 && abs(e.measurements.rightEyeAspectRatio - 0.242) < 0.002)
        #expect(abs(e.measurements.mouthWidening) < 0.01 && abs(e.measurements.cornerRaise) < 0.01
                && abs(e.measurements.cornerRetraction) < 0.01, "\(e.measurements)")
        #expect(e.leftEyeOpen > 0.99 && e.rightEyeOpen > 0.99 && e.smiling < 0.01, "\(e)")
    }

    @Test("posed anywhere in the frame, up to 40° of yaw, 30° of pitch and any roll, at any size: the same values")
    func poseAndSizeInvariance() throws {
        let reference = try ExpressionEstimator.estimate(Self.canonical(), camera: Self.camera).measurements
        for pitch in [-30.0, 0, 30] { for yaw in [-40.0, 0, 40] { for roll in [-120.0, 0, 45] {
            for (x, y, distance) in [(320.0, 240.0, 50.0), (80, 60, 40), (600, 400, 150), (320, 240, 25)] {
                let m = try ExpressionEstimator.measure(Self.canonical(pitch: pitch, yaw: yaw, roll: roll, x: x, y: y,
                                                                         distance: distance), camera: Self.camera)
                let place = "pitch \(pitch) yaw \(yaw) roll \(roll) at (\(x), \(y)) \(distance) cm: \(m)"
                #expect(abs(m.leftEyeAspectRatio - reference.leftEyeAspectRatio) < 1e-4, "\(place)")
                #expect(abs(m.rightEyeAspectRatio - reference.rightEyeAspectRatio) < 1e-4, "\(place)")
                #expect(abs(m.mouthWidening) < 1e-3 && abs(m.cornerRaise) < 1e-3 && abs(m.cornerRetraction) < 1e-3,
                        "\(place)")
            }
        } } }
    }

    @Test("mirroring the mesh (twins swapped) swaps the eyes exactly and keeps the smile")
    func mirrored() throws {
        var points = Self.canonical(pitch: 10, yaw: 25, roll: -12, x: 400, y: 200)
        for index in [386, 387, 385] { points[index].y += 3 }          // the subject's left eye half closed
        for index in [61, 291] { points[index].y -= 2 }                 // corners raised
        let e = try ExpressionEstimator.estimate(points, camera: Self.camera)
        let m = try ExpressionEstimator.estimate(SyntheticFace.mirrored(points, width: 640), camera: Self.camera)
        #expect(e.measurements.leftEyeAspectRatio < e.measurements.rightEyeAspectRatio - 0.05)
        #expect(abs(m.measurements.leftEyeAspectRatio - e.measurements.rightEyeAspectRatio) < 1e-4)
        #expect(abs(m.measurements.rightEyeAspectRatio - e.measurements.leftEyeAspectRatio) < 1e-4)
        #expect(abs(m.smiling - e.smiling) < 1e-4 && abs(m.leftEyeOpen - e.rightEyeOpen) < 1e-4)
    }

    /// The mesh with the upper lid of one eye moved `t` of the way to the lower lid, in the image.
    static func closing(_ points: [Landmark], upper: [Int], lower: [Int], _ t: Float) -> [Landmark] {
        var points = points
        for (u, l) in zip(upper, lower) {
            points[u].x += t * (points[l].x - points[u].x)
            points[u].y += t * (points[l].y - points[u].y)
            points[u].z += t * (points[l].z - points[u].z)
        }
        return points
    }

    // The whole upper lid line and its lower partners, corners excluded (RefinementIndices' lid lines).
    static let rightUpper = [246, 161, 160, 159, 158, 157, 173], rightLower = [7, 163, 144, 145, 153, 154, 155]
    static let leftUpper = [466, 388, 387, 386, 385, 384, 398], leftLower = [249, 390, 373, 374, 380, 381, 382]

    @Test("a real mesh's eyelids closing step by step: the probability falls monotonically below 0.01; the other eye stays")
    func eyelidsClosing() throws {
        let face = try Self.astronaut()
        for (upper, lower, isLeft) in [(Self.leftUpper, Self.leftLower, true), (Self.rightUpper, Self.rightLower, false)] {
            var previous: (p: Float, ratio: Double) = (2, 2)
            let other = try ExpressionEstimator.estimate(face, camera: Self.astronautCamera)
            for step in 0...10 {
                let e = try ExpressionEstimator.estimate(Self.closing(face, upper: upper, lower: lower, Float(step) / 10), camera: Self.astronautCamera)
                let (p, ratio) = isLeft ? (e.leftEyeOpen, e.measurements.leftEyeAspectRatio)
                                        : (e.rightEyeOpen, e.measurements.rightEyeAspectRatio)
                #expect(ratio < previous.ratio && p <= previous.p, "step \(step): \(ratio), \(p)")
                #expect((isLeft ? e.rightEyeOpen : e.leftEyeOpen) == (isLeft ? other.rightEyeOpen : other.leftEyeOpen))
                previous = (p, ratio)
                if step == 0 { #expect(p > 0.99) }
                if step == 10 { #expect(abs(ratio) < 1e-3 && p < 0.01, "closed: \(ratio), \(p)") }
            }
        }
    }

    @Test("a real smile's mouth corners lowered step by step: the smile probability falls monotonically below 0.5")
    func cornersFalling() throws {
        let face = try Self.astronaut()
        let scale = Float(face[152].y - face[10].y) / 100     // pixels per 1% of the face's height
        var previous: Float = 2
        for step in 0...10 {
            var points = face
            for index in [61, 291, 62, 292, 76, 306, 78, 308] { points[index].y += Float(step) * scale }
            let p = try ExpressionEstimator.estimate(points, camera: Self.astronautCamera).smiling
            #expect(p < previous, "step \(step): \(p)")
            if step == 0 { #expect(p > 0.9) }
            if step == 10 { #expect(p < 0.5) }
            previous = p
        }
    }

    @Test("a real mesh turned in 3-D (unprojected, rotated by yaw and pitch, projected again): the values stay")
    func turnedRealMesh() throws {
        let face = try Self.astronaut()
        let camera = Self.astronautCamera
        let reference = try ExpressionEstimator.estimate(face, camera: camera)
        // Unprojected as the estimator does (depth 1 for the mean z), about the mean point.
        let meanZ = face.prefix(468).reduce(0.0) { $0 + Double($1.z) } / 468
        let points = face.map { p in (1 + (Double(p.z) - meanZ) / camera.fx) * camera.ray(x: Double(p.x), y: Double(p.y)) }
        let centre = points.reduce(SIMD3<Double>.zero, +) / Double(points.count)
        for (pitch, yaw) in [(0.0, 35.0), (0, -35), (25, 0), (-25, 20)] {
            let r = HeadPose.rotation(pitch: pitch, yaw: yaw, roll: 0)
            let turned = points.map { r * ($0 - centre) + centre }
            let meanDepth = turned.prefix(468).reduce(0.0) { $0 - $1.z } / 468
            let projected = turned.map { p in
                Landmark(x: Float(camera.cx + camera.fx * p.x / -p.z), y: Float(camera.cy - camera.fy * p.y / -p.z),
                         z: Float((-p.z - meanDepth) * camera.fx / meanDepth))
            }
            let e = try ExpressionEstimator.estimate(projected, camera: camera)
            #expect(abs(e.leftEyeOpen - reference.leftEyeOpen) < 1e-3 && abs(e.rightEyeOpen - reference.rightEyeOpen) < 1e-3
                    && abs(e.smiling - reference.smiling) < 1e-3, "pitch \(pitch) yaw \(yaw): \(e) vs \(reference)")
            #expect(abs(e.measurements.leftEyeAspectRatio - reference.measurements.leftEyeAspectRatio) < 1e-4)
        }
    }

    @Test("468 points (the plain mesh) and 478 (with irises) give the same values")
    func pointCounts() throws {
        let face = try Self.astronaut()
        #expect(try ExpressionEstimator.estimate(Array(face.prefix(468)), camera: Self.astronautCamera)
                == ExpressionEstimator.estimate(face, camera: Self.astronautCamera))
    }
}

@Suite("Expression: bad input gives typed errors")
struct ExpressionBadInputTests {
    static let face = ExpressionSyntheticTests.canonical(pitch: 10, yaw: -20, roll: 5)

    func error(_ points: [Landmark]) -> ExpressionError? {
        do { _ = try ExpressionEstimator.estimate(points, camera: ExpressionSyntheticTests.camera); return nil } catch {
            return error
        }
    }

    @Test("fewer than 468 points")
    func tooFewPoints() {
        #expect(error([]) == .tooFewPoints(0))
        #expect(error(Array(Self.face.prefix(467))) == .tooFewPoints(467))
        #expect(error(Array(Self.face.prefix(468))) == nil)
    }

    @Test("a NaN or infinite coordinate anywhere in points 0...467; the irises are not looked at")
    func nonFinite() {
        for (index, value) in [(0, Float.nan), (159, .infinity), (291, -.infinity), (467, .nan)] {
            for axis in 0..<3 {
                let points = PoseSamples.replacing(Self.face, index: index, axis: axis, with: value)
                #expect(error(points) == .nonFinitePoint(index: index))
            }
        }
        #expect(error(Self.face + Array(repeating: Landmark(x: .nan, y: .nan, z: .nan), count: 10)) == nil)
    }

    @Test("coinciding points, and eyes with no width")
    func degenerate() {
        #expect(error(Array(repeating: Landmark(x: 100, y: 100, z: 0), count: 478)) == .degenerate)
        var flat = Self.face
        flat[133] = flat[33]
        #expect(error(flat) == .degenerate)
    }

    @Test("invalid image sizes and cameras")
    func invalidCamera() {
        #expect(throws: ExpressionError.invalidImageSize(width: 0, height: 480)) {
            try ExpressionEstimator.estimate(Self.face, imageWidth: 0, imageHeight: 480)
        }
        let camera = CameraIntrinsics(fx: -1, fy: 500, cx: 0, cy: 0)
        #expect(throws: ExpressionError.invalidCamera(camera)) { try ExpressionEstimator.estimate(Self.face, camera: camera) }
        var behind = Self.face
        behind[4].z = -1e6
        #expect(error(behind) == .degenerate)
    }

    @Test("random garbage: probabilities in 0...1 or a typed error, never a crash")
    func garbage() {
        var random = SplitMix64(seed: 7)
        var estimates = 0
        for trial in 0..<300 {
            let spread = Float([1, 1e3, 1e9, 1e30][trial % 4])
            let points = (0..<468).map { _ in
                Landmark(x: (random.nextFloat() - 0.5) * spread, y: (random.nextFloat() - 0.5) * spread,
                         z: (random.nextFloat() - 0.5) * spread)
            }
            if let e = try? ExpressionEstimator.estimate(points, camera: ExpressionSyntheticTests.camera) {
                estimates += 1
                for p in [e.leftEyeOpen, e.rightEyeOpen, e.smiling] { #expect((0...1).contains(p)) }
            }
        }
        #expect(estimates > 0)
    }

    @Test("no heap allocation per estimate", .enabled(if: blaze_allocation_counting_available() == 1))
    func noAllocation() throws {
        let points = Self.face
        let camera = ExpressionSyntheticTests.camera
        _ = try ExpressionEstimator.estimate(points, camera: camera)
        blaze_allocation_counting_begin()
        let e = try ExpressionEstimator.estimate(points, camera: camera)
        let count = blaze_allocation_counting_end()
        #expect(count == 0, "\(count) allocations")
        #expect(e.leftEyeOpen > 0.99)
    }
}
