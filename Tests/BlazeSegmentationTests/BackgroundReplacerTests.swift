import BlazeSegmentation
import BlazeTestSupport
import Testing

/// `BackgroundReplacer`: the blend, each background, orientations, output formats and bad inputs.
@Suite("Background replacement")
struct BackgroundReplacerTests {
    /// A small picture with distinct pixels: (x, y) → (10x + y, 200 − 5y, 3x).
    static func picture(width: Int = 6, height: Int = 4) -> ImageBuffer {
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width { pixels += [UInt8(10 * x + y), UInt8(200 - 5 * y), UInt8(3 * x)] }
        }
        return ImageBuffer(width: width, height: height, pixelFormat: .rgb8, pixels: pixels)
    }

    static func replace(_ image: ImageBuffer, _ mask: SegmentationMask, _ background: Background) throws -> ImageBuffer {
        try image.withView { try BackgroundReplacer().replaceBackground(of: $0, mask: mask, with: background) }
    }

    @Test("mask 1: the image's pixels; mask 0: the colour; 0.5: the midpoint, rounded half up")
    func blend() throws {
        let image = Self.picture()
        #expect(try Self.replace(image, .init(width: 6, height: 4, repeating: 1), .passportWhite).pixels == image.pixels)
        let white = try Self.replace(image, .init(width: 6, height: 4, repeating: 0), .passportWhite)
        #expect(white.pixels.allSatisfy { $0 == 255 } && white.width == 6 && white.height == 4)
        let half = try Self.replace(image, .init(width: 6, height: 4, repeating: 0.5), .color(red: 0, green: 100, blue: 51))
        let back: [Float] = [0, 100, 51]
        for (i, value) in half.pixels.enumerated() {
            let expected = UInt8((back[i % 3] + 0.5 * (Float(image.pixels[i]) - back[i % 3]) + 0.5).rounded(.down))
            #expect(value == expected)
        }
        // Linear in the mask: a quarter.
        let quarter = try Self.replace(image, .init(width: 6, height: 4, repeating: 0.25), .color(red: 0, green: 0, blue: 0))
        #expect(quarter.pixels == image.pixels.map { UInt8(Float($0) * 0.25 + 0.5) })
        // Out-of-range and NaN mask values are clamped (NaN counts as background).
        var odd = SegmentationMask(width: 6, height: 4, repeating: 7)
        odd.values[0] = -3
        odd.values[1] = .nan
        let clamped = try Self.replace(image, odd, .color(red: 1, green: 2, blue: 3))
        #expect(Array(clamped.pixels[0..<6]) == [1, 2, 3, 1, 2, 3])
        #expect(Array(clamped.pixels[6...]) == Array(image.pixels[6...]))
    }

    @Test("another picture as background: per-pixel, in its own orientation")
    func pictureBackground() throws {
        let image = Self.picture()
        var mask = SegmentationMask(width: 6, height: 4, repeating: 0)
        mask[x: 2, y: 1] = 1
        // The background stored turned (4 wide, 6 high) and shown upright by its orientation.
        let upright = ImageBuffer(width: 6, height: 4, pixelFormat: .rgb8, pixels: (0..<72).map { UInt8(255 - $0) })
        let turned = try turn(upright)
        let out = try image.withView { view in
            try turned.withView { back in try BackgroundReplacer().replaceBackground(of: view, mask: mask, with: .image(back)) }
        }
        var expected = upright.pixels
        let i = (1 * 6 + 2) * 3
        expected[i..<(i + 3)] = image.pixels[i..<(i + 3)]
        #expect(out.pixels == expected)
    }

    /// `image` stored turned a quarter (EXIF 6, `.right`: shown by turning the stored pixels clockwise).
    func turn(_ image: ImageBuffer) throws -> ImageBuffer {
        let (w, h) = (image.width, image.height)
        var stored = [UInt8](repeating: 0, count: w * h * 3)
        // Stored is h wide, w high; upright (u, v) = stored (x: v, y: h − 1 − u) for `.right` (ImageOrientation).
        for v in 0..<h {
            for u in 0..<w {
                let (x, y) = ImageOrientation.right.storedPixel(u: u, v: v, width: h, height: w)
                for c in 0..<3 { stored[(y * h + x) * 3 + c] = image.pixels[(v * w + u) * 3 + c] }
            }
        }
        let turned = ImageBuffer(width: h, height: w, pixelFormat: .rgb8, pixels: stored, orientation: .right)
        #expect(try turned.uprightRGB().pixels == image.pixels)
        return turned
    }

    @Test("blur: radius 0 is the image; a uniform image stays uniform; a step is softened symmetrically")
    func blur() throws {
        let image = Self.picture()
        let zero = SegmentationMask(width: 6, height: 4, repeating: 0)
        #expect(try Self.replace(image, zero, .blur(radius: 0)).pixels == image.pixels)
        let flat = ImageBuffer(width: 9, height: 5, pixelFormat: .rgb8, pixels: [UInt8](repeating: 77, count: 135))
        #expect(try Self.replace(flat, .init(width: 9, height: 5, repeating: 0), .blur(radius: 3)).pixels.allSatisfy { $0 == 77 })
        // A vertical step, black left of column 5, white from it: blurred, monotone, symmetric about the step.
        let step = ImageBuffer(width: 10, height: 3, pixelFormat: .rgb8,
                               pixels: (0..<30).flatMap { i in [UInt8](repeating: i % 10 < 5 ? 0 : 240, count: 3) })
        let out = try Self.replace(step, .init(width: 10, height: 3, repeating: 0), .blur(radius: 2))
        let row = (0..<10).map { Int(out.pixels[(10 + $0) * 3]) }
        #expect(zip(row, row.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(row[4] > 0 && row[5] < 240 && row[0] == 0 && row[9] == 240)
        #expect(zip(row, row.reversed()).allSatisfy { abs($0 + $1 - 240) <= 1 })
        // The person stays sharp.
        #expect(try Self.replace(step, .init(width: 10, height: 3, repeating: 1), .blur(radius: 2)).pixels == step.pixels)
    }

    @Test("output formats and padded rows: the same colours, alpha 255, padding untouched")
    func formats() throws {
        let image = Self.picture()
        let mask = SegmentationMask(width: 6, height: 4, values: (0..<24).map { Float($0 % 3) / 2 })
        let rgb = try Self.replace(image, mask, .color(red: 9, green: 99, blue: 199))
        for format in [PixelFormat.rgba8, .bgra8, .argb8] {
            var out = [UInt8](repeating: 1, count: 4 * 30 - 6)   // rows of 30 bytes: 24 used, 6 of padding
            try image.withView { view in
                try out.withUnsafeMutableBytes { bytes in
                    try BackgroundReplacer().replaceBackground(of: view, mask: mask, with: .color(red: 9, green: 99, blue: 199),
                                                               into: bytes, bytesPerRow: 30, pixelFormat: format)
                }
            }
            let (r, g, b) = format.channelOffsets
            let alpha = format == .argb8 ? 0 : 3
            for y in 0..<4 {
                for x in 0..<6 {
                    let p = y * 30 + x * 4, q = (y * 6 + x) * 3
                    #expect([out[p + r], out[p + g], out[p + b], out[p + alpha]]
                            == [rgb.pixels[q], rgb.pixels[q + 1], rgb.pixels[q + 2], 255], "\(format)")
                }
                if y < 3 { #expect(out[(y * 30 + 24)..<(y * 30 + 30)].allSatisfy { $0 == 1 }) }
            }
        }
    }

    @Test("bad inputs: typed errors, nothing written")
    func errors() throws {
        let image = Self.picture()
        let mask = SegmentationMask(width: 6, height: 4, repeating: 1)
        let replacer = BackgroundReplacer()
        var out = [UInt8](repeating: 7, count: 72)
        func attempt(_ mask: SegmentationMask, _ background: Background, count: Int = 72, bytesPerRow: Int? = nil,
                     format: PixelFormat = .rgb8) throws -> BackgroundReplacementError? {
            try image.withView { view in
                out.withUnsafeMutableBytes { bytes in
                    do throws(BackgroundReplacementError) {
                        try replacer.replaceBackground(of: view, mask: mask, with: background,
                                                       into: UnsafeMutableRawBufferPointer(rebasing: bytes[0..<count]),
                                                       bytesPerRow: bytesPerRow, pixelFormat: format)
                        return nil
                    } catch { return error }
                }
            }
        }
        #expect(try attempt(.init(width: 256, height: 256, repeating: 1), .passportWhite)
                == .maskSizeMismatch(maskWidth: 256, maskHeight: 256, imageWidth: 6, imageHeight: 4))
        var broken = mask
        broken.values.removeLast()
        #expect(try attempt(broken, .passportWhite) == .invalidMask(width: 6, height: 4, values: 23))
        let other = ImageBuffer(width: 5, height: 4)
        #expect(try other.withView { back in try attempt(mask, .image(back)) }
                == .backgroundSizeMismatch(backgroundWidth: 5, backgroundHeight: 4, imageWidth: 6, imageHeight: 4))
        #expect(try attempt(mask, .blur(radius: -1)) == .invalidBlurRadius(-1))
        #expect(try attempt(mask, .passportWhite, count: 71) == .outputTooSmall(bytes: 71, needed: 72))
        #expect(try attempt(mask, .passportWhite, bytesPerRow: 10) != nil)
        #expect(try attempt(mask, .passportWhite, format: .gray8) != nil)
        for format in [PixelFormat.nv12, .i420] {
            #expect(try attempt(mask, .passportWhite, format: format) == .invalidOutput(
                "\(format) is not an output format here; use rgb8, rgba8, bgra8 or argb8"))
            // A YUV image or background picture: refused, to be converted with uprightRGB() first.
            let yuv = ImageBuffer(width: 6, height: 4, pixelFormat: format)
            #expect(try yuv.withView { back in try attempt(mask, .image(back)) } == .unsupportedPixelFormat(format))
            var written = [UInt8](repeating: 7, count: 72)
            let refused = try yuv.withView { view in
                written.withUnsafeMutableBytes { bytes -> BackgroundReplacementError? in
                    do throws(BackgroundReplacementError) {
                        try replacer.replaceBackground(of: view, mask: mask, with: .passportWhite, into: bytes)
                        return nil
                    } catch { return error }
                }
            }
            #expect(refused == .unsupportedPixelFormat(format))
            #expect(written.allSatisfy { $0 == 7 })
        }
        #expect(out.allSatisfy { $0 == 7 })
        // The ImageBuffer variant leaves the buffer as it was.
        var buffer = ImageBuffer(width: 2, height: 2)
        #expect(throws: BackgroundReplacementError.self) {
            try image.withView { try replacer.replaceBackground(of: $0, mask: broken, with: .passportWhite, into: &buffer) }
        }
        #expect(buffer == ImageBuffer(width: 2, height: 2))
    }

    @Test("end to end: the astronaut on white keeps her pixels where the mask is 1 and is white where it is 0")
    func endToEnd() throws {
        let picture = SegmentationSamples.buffer(try SegmentationGoldens.picture("astronaut"))
        let out = try picture.withView { view in
            let mask = try SegmentationSamples.segmenter(.general).segment(view)
            let result = try BackgroundReplacer().replaceBackground(of: view, mask: mask, with: .passportWhite)
            var person = 0, white = 0
            for (i, m) in mask.values.enumerated() {
                let a = Array(result.pixels[(3 * i)..<(3 * i + 3)]), b = Array(picture.pixels[(3 * i)..<(3 * i + 3)])
                if m == 1 { #expect(a == b); person += 1 }
                if m == 0 { #expect(a == [255, 255, 255]); white += 1 }
            }
            return (person, white)
        }
        #expect(out.0 > 1000 && out.1 > 1000, "\(out)")
    }
}
