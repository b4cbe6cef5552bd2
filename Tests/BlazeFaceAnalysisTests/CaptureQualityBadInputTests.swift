import BlazeFaceAnalysis
import BlazeFaceMesh
import BlazeTestSupport
import CAllocationCounter
import Foundation
import Testing

/// Bad input gives typed errors; orientation and pixel format do not change the result; no allocation per frame.
@Suite("Capture quality: bad input, orientations, pixel formats, allocations")
struct CaptureQualityBadInputTests {
    func framingError(_ change: (inout Framing) -> Void) -> CaptureQualityError? {
        var framing = Framing.passport
        change(&framing)
        do { _ = try CaptureQualityAssessor(framing: framing); return nil } catch { return error }
    }

    @Test("invalid framings are refused, naming the field")
    func invalidFraming() {
        #expect(framingError { _ in } == nil)
        #expect(framingError { $0.headHeight = 0...0.5 } == .invalidFraming(field: "headHeight"))
        #expect(framingError { $0.headHeight = 0.5...Double.infinity } == .invalidFraming(field: "headHeight"))
        #expect(framingError { $0.eyeLine = 0.3...0.3 } == .invalidFraming(field: "eyeLine"))
        #expect(framingError { $0.eyeLine = 0.3...1.2 } == .invalidFraming(field: "eyeLine"))
        #expect(framingError { $0.horizontalCentre = .nan } == .invalidFraming(field: "horizontalCentre"))
        #expect(framingError { $0.horizontalTolerance = 0 } == .invalidFraming(field: "horizontalTolerance"))
        #expect(framingError { $0.maximumYaw = -5 } == .invalidFraming(field: "maximumYaw"))
        #expect(framingError { $0.maximumPitch = .nan } == .invalidFraming(field: "maximumPitch"))
        #expect(framingError { $0.maximumRoll = .infinity } == .invalidFraming(field: "maximumRoll"))
        #expect(framingError { $0.minimumEyeOpen = 1 } == .invalidFraming(field: "minimumEyeOpen"))
        #expect(framingError { $0.luminance = -0.1...0.5 } == .invalidFraming(field: "luminance"))
        #expect(framingError { $0.minimumSharpness = 0 } == .invalidFraming(field: "minimumSharpness"))
        #expect(framingError { $0.maximumFaces = 0 } == .invalidFraming(field: "maximumFaces"))
        #expect(CaptureQualityError.invalidFraming(field: "eyeLine").errorDescription?.contains("eyeLine") == true)
    }

    func error(_ faces: [CaptureFace]) throws -> CaptureQualityError? {
        let assessor = try CaptureQualityAssessor(framing: .selfie)
        return try CaptureSamples.view(try Samples.astronaut()) { view -> CaptureQualityError? in
            do throws(CaptureQualityError) { _ = try assessor.assess(view, faces: faces); return nil } catch { return error }
        }
    }

    @Test("too few points, non-finite points, bad eye probabilities, degenerate meshes: errors naming the face")
    func badFaces() throws {
        let mesh = try CaptureSamples.astronautMesh()
        let good = CaptureFace(points: mesh)
        #expect(try error([good, good]) == nil)
        #expect(try error([good, CaptureFace(points: Array(mesh.prefix(467)))]) == .tooFewPoints(face: 1, count: 467))
        #expect(try error([CaptureFace(points: [])]) == .tooFewPoints(face: 0, count: 0))
        for (index, value) in [(0, Float.nan), (152, .infinity), (467, -.infinity)] {
            var points = mesh
            points[index].y = value
            #expect(try error([good, CaptureFace(points: points)]) == .nonFinitePoint(face: 1, index: index))
        }
        var irisNaN = mesh
        irisNaN[470].x = .nan   // the irises are not used
        #expect(try error([CaptureFace(points: irisNaN)]) == nil)
        for value: Float in [-0.01, 1.01, .infinity] {
            #expect(try error([CaptureFace(points: mesh, leftEyeOpen: value)])
                    == .invalidEyeOpenProbability(face: 0, value: value))
        }
        guard case .invalidEyeOpenProbability(face: 0, let nan)? = try error([CaptureFace(points: mesh, rightEyeOpen: .nan)]),
              nan.isNaN else {
            Issue.record("NaN eye probability accepted")
            return
        }
        let flat = CaptureFace(points: Array(repeating: Landmark(x: 10, y: 10, z: 0), count: 468))
        #expect(try error([flat]) == .headPose(face: 0, .degenerate))
    }

    @Test("a zero-size image cannot be viewed: ImageView refuses it before any assessment")
    func zeroSizeImage() {
        #expect(throws: ImagingError.emptyImage(width: 0, height: 10)) {
            try ImageView.withPixels([], width: 0, height: 10, pixelFormat: .rgb8) { _ in }
        }
    }

    @Test("faces far outside the image and huge coordinates: a result or a typed error, never a crash")
    func farAway() throws {
        let assessor = try CaptureQualityAssessor(framing: .selfie)
        let mesh = try CaptureSamples.astronautMesh()
        for (scale, dx) in [(Float(1), Float(5000)), (1, -1e6), (1e6, 0), (1e-6, 0), (1e30, 1e30)] {
            let points = CaptureSamples.moved(mesh, scale: scale, dx: dx)
            let pose = CaptureHintTests.pose()
            let quality = try CaptureSamples.view(try Samples.astronaut()) {
                try assessor.assess($0, face: CaptureFace(points: points, pose: pose))
            }
            #expect((0...1).contains(quality.score) && !quality.hints.isEmpty, "\(scale) \(dx): \(quality)")
        }
    }

    /// The picture stored so that `orientation` shows it upright, in `format`.
    static func stored(_ picture: RGBImage, _ orientation: ImageOrientation, _ format: PixelFormat) -> ImageBuffer {
        let w = orientation.swapsDimensions ? picture.height : picture.width
        let h = orientation.swapsDimensions ? picture.width : picture.height
        let bpp = format.bytesPerPixel, (r, g, b) = format.channelOffsets
        var pixels = [UInt8](repeating: 255, count: w * h * bpp)
        for v in 0..<picture.height {
            for u in 0..<picture.width {
                let (x, y) = orientation.storedPixel(u: u, v: v, width: w, height: h)
                let from = picture.offset(u, v), to = (y * w + x) * bpp
                pixels[to + r] = picture.pixels[from]
                pixels[to + g] = picture.pixels[from + 1]
                pixels[to + b] = picture.pixels[from + 2]
            }
        }
        return ImageBuffer(width: w, height: h, pixelFormat: format, pixels: pixels, orientation: orientation)
    }

    @Test("every orientation and RGB pixel format gives the same result; gray8 the same as its RGB replica")
    func orientationsAndFormats() throws {
        let assessor = try CaptureQualityAssessor(framing: .selfie)
        let picture = try Samples.astronaut(), mesh = try CaptureSamples.astronautMesh()
        let reference = try CaptureSamples.quality(picture, mesh, assessor)
        for orientation in ImageOrientation.allCases {
            for format in [PixelFormat.rgb8, .rgba8, .bgra8, .argb8] {
                let image = Self.stored(picture, orientation, format)
                let quality = try image.withView { try assessor.assess($0, face: CaptureFace(points: mesh)) }
                #expect(quality == reference, "\(orientation) \(format)")
            }
        }
        let gray = picture.grayBytes()
        let replica = RGBImage.replicating(gray: gray, width: picture.width, height: picture.height)
        let fromRGB = try CaptureSamples.quality(replica, mesh, assessor)
        let fromGray = try ImageView.withPixels(gray, width: picture.width, height: picture.height, pixelFormat: .gray8) {
            try assessor.assess($0, face: CaptureFace(points: mesh))
        }
        #expect(abs(fromGray.measurements.luminance - fromRGB.measurements.luminance) < 1e-5)
        #expect(abs(fromGray.measurements.sharpness - fromRGB.measurements.sharpness) < 1e-4 * fromRGB.measurements.sharpness)
    }

    @Test("no heap allocation per face, nor per picture once the result's array has grown",
          .enabled(if: blaze_allocation_counting_available() == 1))
    func noAllocation() throws {
        let assessor = try CaptureQualityAssessor(framing: .passport)
        let picture = try Samples.astronaut(), mesh = try CaptureSamples.astronautMesh()
        let faces = [CaptureFace(points: mesh, leftEyeOpen: 0.9, rightEyeOpen: 0.8), CaptureFace(points: mesh)]
        try CaptureSamples.view(picture) { view in
            var assessment = CaptureAssessment()
            // Warm up: the first calls fill the Swift runtime's caches (metadata, conformances) once per process.
            for _ in 0..<2 {
                try assessor.assess(view, faces: faces, into: &assessment)
                _ = try assessor.assess(view, face: faces[0])
            }
            blaze_allocation_counting_begin()
            let quality = try assessor.assess(view, face: faces[0])
            let perFace = blaze_allocation_counting_end()
            blaze_allocation_counting_begin()
            try assessor.assess(view, faces: faces, into: &assessment)
            let perPicture = blaze_allocation_counting_end()
            #expect(perFace == 0 && perPicture == 0, "\(perFace) and \(perPicture) allocations")
            #expect(quality.score > 0 && assessment.faces.count == 2 && assessment.hints.contains(.multipleFaces))
        }
    }
}
