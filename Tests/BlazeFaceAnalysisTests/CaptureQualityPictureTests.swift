import BlazeFaceAnalysis
import BlazeFaceMesh
import BlazeTestSupport
import Foundation
import Testing

/// The capture score on real pictures: the astronaut (a sharp, frontal, well-lit face) degraded step by step.
/// Blur and exposure keep her mesh; downscaling and shifting move it with the pixels.
@Suite("Capture quality on real pictures")
struct CaptureQualityPictureTests {
    static let framing = Framing.selfie

    /// Expects the scores not to rise (beyond `slack`) along the steps and to fall by at least `drop` overall.
    func expectFalling(_ scores: [Double], drop: Double, slack: Double = 1e-9, _ what: String) {
        for k in 1..<scores.count {
            #expect(scores[k] <= scores[k - 1] + slack, "\(what): step \(k) \(scores)")
        }
        #expect(scores.first! - scores.last! >= drop, "\(what): \(scores)")
    }

    @Test("the sharp original passes the selfie framing with a high score")
    func original() throws {
        let assessor = try CaptureQualityAssessor(framing: Self.framing)
        let quality = try CaptureSamples.quality(try Samples.astronaut(), try CaptureSamples.astronautMesh(), assessor)
        print("astronaut:", quality.measurements, quality.components, quality.score)
        #expect(quality.hints.isEmpty, "\(quality.hints)")
        #expect(quality.score > 0.5)
    }

    @Test("a YUV frame of the picture is assessed from its luma plane: the RGB picture's measurements and score",
          arguments: [YUVColorSpace.bt601Limited, .bt601Full])
    func yuv(_ space: YUVColorSpace) throws {
        let assessor = try CaptureQualityAssessor(framing: Self.framing)
        let picture = try Samples.astronaut(), mesh = try CaptureSamples.astronautMesh()
        let rgb = try CaptureSamples.quality(picture, mesh, assessor)
        let face = CaptureFace(points: mesh)
        let yuv = try picture.withYUVView(.nv12, colorSpace: space) { try assessor.assess($0, face: face) }
        // BT.601 luma is the Y plane up to its 8-bit rounding (half a level, 0.2% of the range).
        #expect(abs(yuv.measurements.luminance - rgb.measurements.luminance) < 0.005,
                "\(yuv.measurements.luminance) vs \(rgb.measurements.luminance)")
        #expect(abs(yuv.measurements.sharpness - rgb.measurements.sharpness) < 0.03 * rgb.measurements.sharpness,
                "\(yuv.measurements.sharpness) vs \(rgb.measurements.sharpness)")
        #expect(abs(yuv.score - rgb.score) < 0.02 && yuv.hints == rgb.hints)
    }

    @Test("Gaussian blur: the score falls with sigma, and blurry appears")
    func blur() throws {
        let assessor = try CaptureQualityAssessor(framing: Self.framing)
        let picture = try Samples.astronaut(), mesh = try CaptureSamples.astronautMesh()
        var scores: [Double] = []
        for sigma in [0.0, 0.5, 1, 1.5, 2, 3, 4, 8] {
            let quality = try CaptureSamples.quality(picture.gaussianBlurred(sigma: sigma), mesh, assessor)
            print("blur", sigma, quality.measurements.sharpness, quality.score, quality.hints)
            scores.append(quality.score)
            #expect(quality.hints == (sigma >= 1.5 ? [.blurry] : []), "sigma \(sigma): \(quality.hints)")
        }
        expectFalling(scores, drop: 0.5, "blur")
    }

    @Test("darkening and brightening: the score falls, and tooDark / tooBright appear")
    func exposure() throws {
        let assessor = try CaptureQualityAssessor(framing: Self.framing)
        let picture = try Samples.astronaut(), mesh = try CaptureSamples.astronautMesh()
        // Each series starts from the original; the hint appears from `threshold` on.
        for (name, factors, hint, threshold) in [("darkening", [1.0, 0.8, 0.6, 0.45, 0.3, 0.2, 0.1], CaptureHint.tooDark, 0.2),
                                                  ("brightening", [1.0, 1.2, 1.4, 1.7, 2.0, 2.5, 3.0], .tooBright, 1.4)] {
            var scores: [Double] = []
            for factor in factors {
                let quality = try CaptureSamples.quality(picture.exposureScaled(factor), mesh, assessor)
                print(name, factor, quality.measurements.luminance, quality.measurements.sharpness, quality.score, quality.hints)
                scores.append(quality.score)
                let past = hint == .tooDark ? factor <= threshold : factor >= threshold
                #expect(quality.hints == (past ? [hint] : []), "\(name) \(factor): \(quality.hints)")
            }
            expectFalling(scores, drop: 0.5, name)
        }
    }

    @Test("downscaling the face: the score falls, and tooSmall appears")
    func downscaling() throws {
        let assessor = try CaptureQualityAssessor(framing: Self.framing)
        let picture = try Samples.astronaut(), mesh = try CaptureSamples.astronautMesh()
        var scores: [Double] = []
        for k in [1, 2, 3, 4, 6, 8] {
            let (small, points) = CaptureSamples.downscaled(picture, mesh, by: k)
            let quality = try CaptureSamples.quality(small, points, assessor)
            print("down", k, quality.measurements.headHeight, quality.measurements.sharpness, quality.score, quality.hints)
            scores.append(quality.score)
            #expect(quality.hints.contains(.tooSmall) == (k >= 2), "k \(k): \(quality.hints)")
            #expect(quality.hints.contains(.blurry) == (k >= 4), "k \(k): \(quality.hints)")
        }
        expectFalling(scores, drop: 0.5, "downscaling")
    }

    @Test("shifting the face off centre: the score falls, and offCentre appears")
    func shifting() throws {
        let assessor = try CaptureQualityAssessor(framing: Self.framing)
        let picture = try Samples.astronaut(), mesh = try CaptureSamples.astronautMesh()
        var scores: [Double] = []
        for dx in [0, -40, -80, -120, -160, -200] {   // her eyes are left of the centre: further left
            let quality = try CaptureSamples.quality(picture.shifted(dx: dx, dy: 0, fill: 128),
                                                     CaptureSamples.moved(mesh, dx: Float(dx)), assessor)
            print("shift", dx, quality.measurements.eyeX, quality.measurements.yaw, quality.score, quality.hints)
            scores.append(quality.score)
            // Moved sideways in the frame without turning, the face no longer looks into the lens: past 15° of
            // yaw relative to the line of sight (dx −120 and beyond) lookStraight joins offCentre.
            #expect(quality.hints.contains(.offCentre) == (dx <= -80), "dx \(dx): \(quality.hints)")
            #expect(!quality.hints.contains(.lookStraight) || dx <= -120, "dx \(dx): \(quality.hints)")
        }
        expectFalling(scores, drop: 0.5, "shifting")
    }
}
