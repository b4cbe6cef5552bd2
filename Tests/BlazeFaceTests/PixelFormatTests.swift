import BlazeFace
import BlazeTestSupport
import Foundation
import Testing

/// The same picture in every pixel format, with and without row padding and with noise in the alpha
/// channel, gives exactly the same faces: the model input is the same bytes.
@Suite("Pixel formats")
struct PixelFormatTests {
    struct Layout: Sendable, CustomTestStringConvertible {
        var format: PixelFormat
        var padding: Int
        var randomAlpha: Bool
        var testDescription: String { "\(format), padding \(padding)\(randomAlpha ? ", random alpha" : "")" }
    }

    static let layouts: [Layout] = [Layout(format: .rgb8, padding: 13, randomAlpha: false)]
        + [PixelFormat.rgba8, .bgra8, .argb8].flatMap { format in
            [Layout(format: format, padding: 0, randomAlpha: false), Layout(format: format, padding: 13, randomAlpha: true)]
        }

    @Test("colour formats give the rgb8 faces exactly", arguments: layouts)
    func colourFormats(_ layout: Layout) throws {
        let reference = try ReferenceFaces.faces(.shortRange, "astronaut")
        #expect(reference.count == 1)
        let packed = try Samples.astronaut().packed(layout.format, padding: layout.padding, randomAlpha: layout.randomAlpha)
        #expect(packed.bytesPerRow == 512 * layout.format.bytesPerPixel + layout.padding)
        let faces = try packed.detect(with: try Detectors.shared(.shortRange))
        #expect(faces == reference, "\(layout.testDescription): \(describe(faces)) vs \(describe(reference))")
    }

    static let grayReference = Cache<Int, [Face]>()

    @Test("gray8 gives the faces of the same gray picture in rgb8", arguments: [0, 13])
    func gray(padding: Int) throws {
        let gray = try Samples.astronaut().grayBytes()
        let detector = try Detectors.shared(.shortRange)
        let reference = try Self.grayReference.value(0) {
            try RGBImage.replicating(gray: gray, width: 512, height: 512).detect(with: detector)
        }
        #expect(reference.count == 1)
        var bytes = [UInt8]()
        var random = SplitMix64(seed: 7)
        for y in 0..<512 {
            bytes += gray[y * 512..<(y + 1) * 512]
            for _ in 0..<padding { bytes.append(UInt8.random(in: 0...255, using: &random)) }
        }
        let packed = PackedImage(width: 512, height: 512, bytesPerRow: 512 + padding, format: .gray8, bytes: bytes)
        let faces = try packed.detect(with: detector)
        #expect(faces == reference, "\(describe(faces)) vs \(describe(reference))")
    }

    @Test("a decoded gray8 file gives the faces of its RGB version")
    func grayFile() throws {
        let camera = try Samples.decode("camera.png")
        #expect(camera.pixelFormat == .gray8)
        let packed = PackedImage(width: camera.width, height: camera.height, bytesPerRow: camera.bytesPerRow,
                                 format: .gray8, bytes: camera.pixels)
        let faces = try packed.detect(with: try Detectors.shared(.shortRange))
        let reference = try ReferenceFaces.faces(.shortRange, "camera_rgb")
        #expect(reference.count == 1)
        #expect(faces == reference, "\(describe(faces)) vs \(describe(reference))")
    }
}

/// A picture stored in any of the eight EXIF orientations, with the orientation passed along, gives the
/// faces of the upright picture, in upright coordinates.
@Suite("Orientations")
struct OrientationTests {

    /// Square, and wide so that quarter turns swap the sides (short range finds the face in both).
    static let pictures = ["astronaut", "astronaut_wide_768x512"]

    @Test("stored pixels in each orientation give the upright faces", arguments: pictures, ImageOrientation.allCases)
    func orientation(_ picture: String, _ orientation: ImageOrientation) throws {
        let model = FaceDetector.Model.shortRange
        let upright = try Samples.picture(picture)
        let reference = try ReferenceFaces.faces(model, picture)
        #expect(reference.count == 1)
        let stored = upright.stored(for: orientation)
        #expect(orientation.swapsDimensions == (orientation.exifValue >= 5))
        if orientation.swapsDimensions {
            #expect(stored.width == upright.height && stored.height == upright.width)
        }
        var packed = stored.packed(.bgra8, padding: 5)
        packed.orientation = orientation
        try packed.withView { view in
            #expect(view.uprightWidth == upright.width && view.uprightHeight == upright.height)
        }
        let faces = try packed.detect(with: try Detectors.shared(model))
        let difference = try #require(FaceListDifference(faces, reference),
                                      "\(orientation): \(describe(faces)) vs upright \(describe(reference))")
        #expect(difference.worstIoU >= 0.98, "\(orientation): IoU \(difference.worstIoU)")
        #expect(difference.worstKeypoint <= 1, "\(orientation): keypoints \(difference.worstKeypoint) px apart")
        #expect(difference.worstScore <= 1e-4, "\(orientation): scores \(difference.worstScore) apart")
        if faces != reference {
            print("orientation \(picture) \(orientation): not identical to upright: IoU \(difference.worstIoU), "
                  + "keypoints \(difference.worstKeypoint) px, score \(difference.worstScore)")
        }
        if let face = faces.first {
            #expect(face.keypoints.rightEye.x < face.keypoints.leftEye.x, "\(orientation): eyes swapped")
        }
    }

    @Test("storedPixel and storedPoint agree with the EXIF definition", arguments: ImageOrientation.allCases)
    func mapping(_ orientation: ImageOrientation) throws {
        // A 5x3 upright picture whose pixels are all different.
        let upright = RGBImage(width: 5, height: 3, pixels: (0..<45).map { UInt8($0) })
        let stored = upright.stored(for: orientation)
        for v in 0..<3 {
            for u in 0..<5 {
                let (x, y) = orientation.storedPixel(u: u, v: v, width: stored.width, height: stored.height)
                #expect(stored.pixels[stored.offset(x, y)] == upright.pixels[upright.offset(u, v)],
                        "\(orientation): upright (\(u), \(v)) -> stored (\(x), \(y))")
                let point = orientation.storedPoint(u: Double(u) + 0.5, v: Double(v) + 0.5,
                                                    width: Double(stored.width), height: Double(stored.height))
                #expect(point.x == Double(x) + 0.5 && point.y == Double(y) + 0.5)
            }
        }
        #expect(ImageOrientation(exif: orientation.exifValue) == orientation)
    }

    @Test("EXIF values outside 1...8 are rejected")
    func exifValues() {
        #expect(ImageOrientation(exif: 0) == nil)
        #expect(ImageOrientation(exif: 9) == nil)
        #expect(ImageOrientation(exif: -1) == nil)
        #expect((1...8).allSatisfy { ImageOrientation(exif: $0)?.exifValue == $0 })
        #expect(ImageOrientation(exif: 6) == .right && ImageOrientation(exif: 8) == .left)
    }
}
