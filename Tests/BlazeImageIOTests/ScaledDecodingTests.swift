import BlazeImageIO
import BlazeTestSupport
import Foundation
import Testing

/// `ImageDecoder.decodeScaled`: libjpeg's DCT-scaled decodes, their limits, PNG's full decode, and the
/// mapping of coordinates back to the full picture.
@Suite("Scaled decoding")
struct ScaledDecodingTests {
    static func samplePath(_ file: String) -> String? {
        let path = TestResources.modelsDirectory.appendingPathComponent("samples/\(file)").path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// The full decode averaged over d x d blocks (the last row and column average what is left), the
    /// size libjpeg gives a 1/d decode: ceil(width / d) x ceil(height / d).
    static func boxFiltered(_ image: DecodedImage, _ d: Int) -> [UInt8] {
        let channels = image.pixelFormat.bytesPerPixel
        let w = (image.width + d - 1) / d, h = (image.height + d - 1) / d
        var result = [UInt8](repeating: 0, count: w * h * channels)
        for by in 0..<h {
            for bx in 0..<w {
                for c in 0..<channels {
                    var sum = 0, count = 0
                    for y in by * d..<min((by + 1) * d, image.height) {
                        for x in bx * d..<min((bx + 1) * d, image.width) {
                            sum += Int(image.pixels[(y * image.width + x) * channels + c])
                            count += 1
                        }
                    }
                    result[(by * w + bx) * channels + c] = UInt8((sum + count / 2) / count)
                }
            }
        }
        return result
    }

    static func meanDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return .infinity }
        return Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.count)
    }

    /// Each denominator is chosen by the smallest long side that allows it; sizes are libjpeg's
    /// ceil(side / d), and the pixels are close to a box-filtered full decode.
    @Test(arguments: ["jpeg_baseline.jpg", "jpeg_progressive.jpg", "jpeg_cmyk.jpg", "jpeg_gray.jpg",
                      "jpeg_63x40.jpg", "t1.jpg", "multi_face.jpg"])
    func sizesAndPixels(_ file: String) throws {
        let path: String
        if file.hasPrefix("jpeg_") {
            path = Fixtures.path(file)
        } else if let sample = Self.samplePath(file) {
            path = sample
        } else {
            Issue.record("Models/samples/\(file) is missing: run Models/fetch.sh")
            return
        }
        let full = try ImageDecoder.decode(contentsOf: path)
        let longSide = max(full.width, full.height)
        for d in [1, 2, 4, 8] {
            let scaled = try ImageDecoder.decodeScaled(contentsOf: path, minimumLongSide: (longSide + d - 1) / d)
            #expect(scaled.scaleDenominator == d, "\(file) at 1/\(d)")
            #expect(scaled.fullWidth == full.width && scaled.fullHeight == full.height)
            #expect(scaled.image.width == (full.width + d - 1) / d && scaled.image.height == (full.height + d - 1) / d,
                    "\(file) at 1/\(d): \(scaled.image.width)x\(scaled.image.height)")
            #expect(scaled.image.pixelFormat == full.pixelFormat && scaled.image.orientation == full.orientation)
            #expect(scaled.image.pixels.count == scaled.image.width * scaled.image.height * full.pixelFormat.bytesPerPixel)
            if d == 1 {
                #expect(scaled.image == full, "a 1/1 decode is the full decode")
            } else {
                // The synthetic fixtures are sharp patterns a few blocks wide, where libjpeg's scaled IDCT
                // (no anti-aliasing beyond the block) and a box filter part most; photos stay within 4.
                let tolerance = file.hasPrefix("jpeg_") ? 8.0 : 4.0
                let difference = Self.meanDifference(scaled.image.pixels, Self.boxFiltered(full, d))
                #expect(difference < tolerance, "\(file) at 1/\(d): mean difference \(difference) from the box-filtered full decode")
            }
        }
        // One pixel more than 1/8 allows needs 1/4.
        let eighth = (longSide + 7) / 8
        #expect(try ImageDecoder.decodeScaled(contentsOf: path, minimumLongSide: eighth + 1).scaleDenominator
                    == ((longSide + 3) / 4 >= eighth + 1 ? 4 : 2))
        #expect(try ImageDecoder.decodeScaled(contentsOf: path, minimumLongSide: 0).scaleDenominator == 8)
        #expect(try ImageDecoder.decodeScaled(contentsOf: path, minimumLongSide: .max).scaleDenominator == 1)
    }

    /// The orientation is reported, not applied, at any scale; the mapping goes back through it.
    @Test func exifOrientation() throws {
        let scaled = try ImageDecoder.decodeScaled(contentsOf: Fixtures.path("jpeg_exif6.jpg"), minimumLongSide: 4)
        #expect(scaled.scaleDenominator == 2)
        #expect(scaled.image.width == 4 && scaled.image.height == 3) // Stored 8 x 6.
        #expect(scaled.image.orientation == .right)
        #expect(scaled.image.uprightWidth == 3 && scaled.image.uprightHeight == 4)
        #expect(scaled.fullUprightWidth == 6 && scaled.fullUprightHeight == 8)
        #expect(scaled.fullSizeRect(Rect(x: 0, y: 0, width: 3, height: 4)) == Rect(x: 0, y: 0, width: 6, height: 8))
        #expect(scaled.fullSizePoint(Point(x: 1, y: 1)) == Point(x: 2, y: 2))
    }

    /// For every orientation and a size that is not a multiple of the scale: the mapped point and the
    /// original point are the same stored point (scaled by d, clamped to the full picture).
    @Test(arguments: ImageOrientation.allCases)
    func mappingRespectsOrientation(_ orientation: ImageOrientation) {
        let fullWidth = 101, fullHeight = 61, d = 4
        let w = (fullWidth + d - 1) / d, h = (fullHeight + d - 1) / d // 26 x 16
        let image = DecodedImage(width: w, height: h, pixelFormat: .gray8, pixels: [UInt8](repeating: 0, count: w * h),
                                 orientation: orientation)
        let scaled = ScaledImage(image: image, scaleDenominator: d, fullWidth: fullWidth, fullHeight: fullHeight)
        for (u, v) in [(0.0, 0.0), (3.5, 2.25), (Double(image.uprightWidth), Double(image.uprightHeight)), (7, 11)] {
            guard u <= Double(image.uprightWidth), v <= Double(image.uprightHeight) else { continue }
            let mapped = scaled.fullSizePoint(Point(x: u, y: v))
            let storedScaled = orientation.storedPoint(u: u, v: v, width: Double(w), height: Double(h))
            let storedFull = orientation.storedPoint(u: mapped.x, v: mapped.y, width: Double(fullWidth),
                                                     height: Double(fullHeight))
            #expect(abs(storedFull.x - min(storedScaled.x * Double(d), Double(fullWidth))) < 1e-9, "\(orientation) (\(u), \(v))")
            #expect(abs(storedFull.y - min(storedScaled.y * Double(d), Double(fullHeight))) < 1e-9, "\(orientation) (\(u), \(v))")
        }
        // The whole upright image maps to the whole upright picture.
        let whole = scaled.fullSizeRect(Rect(x: 0, y: 0, width: Double(image.uprightWidth), height: Double(image.uprightHeight)))
        #expect(whole == Rect(x: 0, y: 0, width: Double(scaled.fullUprightWidth), height: Double(scaled.fullUprightHeight)),
                "\(orientation): \(whole)")
    }

    /// Points past the image map past the picture (MediaPipe's box rule: a face cut by an edge keeps its box),
    /// at d full pixels per scaled pixel; a point inside the last, partial pixel maps linearly into what it
    /// covers. The mapping is continuous at both ends of the last pixel.
    @Test(arguments: ImageOrientation.allCases)
    func pointsOutsideAreNotClipped(_ orientation: ImageOrientation) {
        let fullWidth = 101, fullHeight = 61, d = 4
        let w = (fullWidth + d - 1) / d, h = (fullHeight + d - 1) / d // 26 x 16: the last pixels cover 1 full pixel
        let image = DecodedImage(width: w, height: h, pixelFormat: .gray8, pixels: [UInt8](repeating: 0, count: w * h),
                                 orientation: orientation)
        let scaled = ScaledImage(image: image, scaleDenominator: d, fullWidth: fullWidth, fullHeight: fullHeight)
        // Stored coordinates of the scaled image, and where the rule puts them in the full picture's.
        let cases: [(scaled: Double, width: Double, full: Double)] = [
            (-2.5, 26, -10), (0, 26, 0), (25, 26, 100), (25.5, 26, 100.5), (26, 26, 101), (28, 26, 109),
            (-1, 16, -4), (15, 16, 60), (15.25, 16, 60.25), (16, 16, 61), (17.5, 16, 67),
        ]
        for (sx, width, fx) in cases where width == Double(w) {
            for (sy, height, fy) in cases where height == Double(h) {
                let upright = orientation.uprightPoint(x: sx, y: sy, width: Double(w), height: Double(h))
                let back = orientation.storedPoint(u: upright.u, v: upright.v, width: Double(w), height: Double(h))
                #expect(back.x == sx && back.y == sy)
                let mapped = scaled.fullSizePoint(Point(x: upright.u, y: upright.v))
                let stored = orientation.storedPoint(u: mapped.x, v: mapped.y, width: Double(fullWidth),
                                                     height: Double(fullHeight))
                #expect(abs(stored.x - fx) < 1e-9 && abs(stored.y - fy) < 1e-9,
                        "\(orientation) (\(sx), \(sy)) -> \(stored), want (\(fx), \(fy))")
            }
        }
    }

    /// `maximumPixelCount` applies to the decoded size; the declared size must pass
    /// `maximumDeclaredPixelCount`, which defaults to `maximumPixelCount`.
    @Test func limits() throws {
        guard let path = Self.samplePath("t1.jpg") else {
            Issue.record("Models/samples/t1.jpg is missing: run Models/fetch.sh")
            return
        }
        // 1280 x 886 = 1,134,080 pixels; at 1/2, 640 x 443 = 283,520.
        let small = ImageDecodingOptions(maximumPixelCount: 500_000)
        let error1 = decodingError { () throws(ImageIOError) in try ImageDecoder.decode(contentsOf: path, options: small) }
        #expect(error1 == .tooLarge(width: 1280, height: 886, limit: 500_000))
        // By default a scaled decode accepts nothing a full decode refuses for its size.
        let error2 = scaledError { () throws(ImageIOError) in try ImageDecoder.decodeScaled(contentsOf: path, minimumLongSide: 640, options: small) }
        #expect(error2 == .tooLarge(width: 1280, height: 886, limit: 500_000))
        // Raising the declared limit lets the picture shrink under the decoded limit.
        var shrinking = small
        shrinking.maximumDeclaredPixelCount = 2_000_000
        let scaled = try ImageDecoder.decodeScaled(contentsOf: path, minimumLongSide: 640, options: shrinking)
        #expect(scaled.scaleDenominator == 2 && scaled.image.width == 640 && scaled.image.height == 443)
        // ... but the decoded size still has to fit.
        let error3 = scaledError { () throws(ImageIOError) in try ImageDecoder.decodeScaled(contentsOf: path, minimumLongSide: 1000, options: shrinking) }
        #expect(error3 == .tooLarge(width: 1280, height: 886, limit: 500_000))
        shrinking.maximumPixelCount = 200_000
        let error4 = scaledError { () throws(ImageIOError) in try ImageDecoder.decodeScaled(contentsOf: path, minimumLongSide: 640, options: shrinking) }
        #expect(error4 == .tooLarge(width: 640, height: 443, limit: 200_000))
        // A declared limit below the decoded one applies to full decodes too.
        let error5 = decodingError { () throws(ImageIOError) in try ImageDecoder.decode(contentsOf: path, options: .init(maximumDeclaredPixelCount: 1_000_000)) }
        #expect(error5 == .tooLarge(width: 1280, height: 886, limit: 1_000_000))
    }

    /// A header declaring 60,000 x 60,000 pixels is 7,500 x 7,500 at 1/8, under the default decoded limit:
    /// the declared limit refuses it, from the header, before anything that grows with the image is allocated.
    @Test func bombHeaderRefused() throws {
        let bytes = try Fixtures.bytes("jpeg_huge.jpg")
        for minimumLongSide in [1, 7_500, 60_000] {
            let error6 = scaledError { () throws(ImageIOError) in try ImageDecoder.decodeScaled(data: bytes, minimumLongSide: minimumLongSide) }
        #expect(error6 == .tooLarge(width: 60_000, height: 60_000, limit: 100_000_000))
        }
    }

    /// PNG has no scaled decode: decoded in full, scale 1.
    @Test(arguments: ["png_rgb8.png", "png_63x40.png", "png_exif6.png"])
    func pngDecodesInFull(_ file: String) throws {
        let full = try ImageDecoder.decode(contentsOf: Fixtures.path(file))
        let scaled = try ImageDecoder.decodeScaled(contentsOf: Fixtures.path(file), minimumLongSide: 1)
        #expect(scaled.scaleDenominator == 1)
        #expect(scaled.image == full)
        #expect(scaled.fullWidth == full.width && scaled.fullHeight == full.height)
        #expect(scaled.fullSizeRect(Rect(x: 1, y: 2, width: 3, height: 4)) == Rect(x: 1, y: 2, width: 3, height: 4))
    }

    /// Damaged files fail the same way scaled or not.
    @Test(arguments: ["jpeg_truncated.jpg", "jpeg_corrupt.jpg", "jpeg_progressive_truncated.jpg",
                      "jpeg_truncated_header.jpg", "jpeg_zero_height.jpg"])
    func damagedFilesFail(_ file: String) throws {
        let bytes = try Fixtures.bytes(file)
        let full = decodingError { () throws(ImageIOError) in try ImageDecoder.decode(data: bytes) }
        let scaled = scaledError { () throws(ImageIOError) in try ImageDecoder.decodeScaled(data: bytes, minimumLongSide: 1) }
        #expect(full != nil)
        #expect(scaled.map(caseName) == full.map(caseName), "\(file): \(String(describing: scaled))")
    }
}

/// The error `body` throws, or nil when it returns.
func scaledError(_ body: () throws(ImageIOError) -> ScaledImage) -> ImageIOError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}
