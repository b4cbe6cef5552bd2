@testable import BlazeImaging
import BlazeTestSupport
import Foundation
import Testing

/// YUV 4:2:0 views: their checks, the colour conversion, and `ImageToTensor` sampling them against the RGB path.
@Suite("YUV views")
struct YUVTests {
    static let formats: [PixelFormat] = [.nv12, .nv21, .i420]

    /// A noisy `width x height` picture (colour edges everywhere: the hardest case for chroma).
    static func picture(width: Int, height: Int, seed: UInt64 = 11) -> RGBImage {
        var random = SplitMix64(seed: seed)
        return RGBImage(width: width, height: height,
                        pixels: (0..<width * height * 3).map { _ in UInt8(truncatingIfNeeded: random.next()) })
    }

    /// The stored YUV bytes decoded by the test's real-number reference (each pixel with its block's chroma).
    static func decodedRGB(_ bytes: [UInt8], format: PixelFormat, width: Int, height: Int, bytesPerRow: Int,
                           colorSpace: YUVColorSpace, orientation: ImageOrientation) -> ImageBuffer {
        let start = bytesPerRow * height, ch = (height + 1) / 2
        let chromaStride = format == .i420 ? (bytesPerRow + 1) / 2 : bytesPerRow + bytesPerRow % 2
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let (i, j) = (x / 2, y / 2)
                let cb: UInt8, cr: UInt8
                switch format {
                case .i420: (cb, cr) = (bytes[start + j * chromaStride + i], bytes[start + chromaStride * ch + j * chromaStride + i])
                case .nv21: (cr, cb) = (bytes[start + j * chromaStride + 2 * i], bytes[start + j * chromaStride + 2 * i + 1])
                default: (cb, cr) = (bytes[start + j * chromaStride + 2 * i], bytes[start + j * chromaStride + 2 * i + 1])
                }
                let (r, g, b) = RGBImage.decoded(y: bytes[y * bytesPerRow + x], cb: cb, cr: cr, colorSpace: colorSpace)
                rgb[(y * width + x) * 3] = r; rgb[(y * width + x) * 3 + 1] = g; rgb[(y * width + x) * 3 + 2] = b
            }
        }
        return ImageBuffer(width: width, height: height, pixelFormat: .rgb8, pixels: rgb, orientation: orientation)
    }

    static func tensor(_ view: ImageView, region: RotatedRect?, options: ImageToTensor.Options) throws -> [Float] {
        let converter = try ImageToTensor(options: options)
        var out = [Float](repeating: .nan, count: converter.floatCount)
        try out.withUnsafeMutableBufferPointer { _ = try converter.convert(view, region: region, into: $0) }
        return out
    }

    static let regions: [(RotatedRect?, ImageToTensor.Fit)] = [
        (nil, .letterbox),
        (RotatedRect(center: Point(x: 12.5, y: 10), width: 15, height: 10), .stretch),
        (RotatedRect(center: Point(x: 2, y: 3), width: 16, height: 16), .letterbox),
        (RotatedRect(center: Point(x: 15, y: 11), width: 20, height: 14, rotation: 0.4), .stretch),
        (RotatedRect(center: Point(x: 24, y: 4), width: 30, height: 18, rotation: -2.2), .letterbox),
    ]

    struct Case: Sendable, CustomTestStringConvertible {
        var format: PixelFormat
        var orientation: ImageOrientation
        var testDescription: String { "\(format) \(orientation)" }
    }

    static let cases: [Case] = formats.flatMap { f in ImageOrientation.allCases.map { Case(format: f, orientation: $0) } }

    @Test("the tensor of a YUV view is, bit for bit, the tensor of its uprightRGB(): every layout, orientation, sampling, border, fit, rotation, odd and even sizes",
          arguments: cases)
    func equalsConvertedFirst(_ c: Case) throws {
        for (width, height, padding) in [(27, 19, 5), (24, 18, 0), (1, 3, 0)] {
            let picture = Self.picture(width: width, height: height)
            let stride = width + padding
            for space in [YUVColorSpace.bt601Limited, .bt709Full] {
                let bytes = picture.yuv420(c.format, colorSpace: space, bytesPerRow: stride)
                let rgb = try ImageView.withPixels(bytes, width: width, height: height, bytesPerRow: stride,
                                                   pixelFormat: c.format, orientation: c.orientation,
                                                   colorSpace: space) { $0.uprightRGB() }
                #expect(rgb.width == (c.orientation.swapsDimensions ? height : width))
                for (region, fit) in Self.regions {
                    for sampling in ImageToTensor.Sampling.allCases where sampling == .warp || (region?.rotation ?? 0) == 0 {
                        // 13x9: a `.warp` crop's stored pixels converted first (`YUVPatch`, at most four times the
                        // taps); 3x2: more pixels under the crop than that, each tap converted.
                        for border in ImageToTensor.Border.allCases {
                            for (tensorWidth, tensorHeight) in [(13, 9), (3, 2)] {
                                let options = ImageToTensor.Options(width: tensorWidth, height: tensorHeight, range: -1...1,
                                                                    fit: fit, border: border, sampling: sampling)
                                let direct = try ImageView.withPixels(bytes, width: width, height: height, bytesPerRow: stride,
                                                                      pixelFormat: c.format, orientation: c.orientation,
                                                                      colorSpace: space) {
                                    try Self.tensor($0, region: region, options: options)
                                }
                                let converted = try rgb.withView { try Self.tensor($0, region: region, options: options) }
                                #expect(direct == converted, "\(width)x\(height) \(space) \(String(describing: region)) \(sampling) \(border) \(tensorWidth)x\(tensorHeight)")
                            }
                        }
                    }
                }
            }
        }
    }

    @Test("a crop whose converted patch would pass the 16 MiB scratch bound samples each tap, and equals the RGB path")
    func scratchBound() throws {
        // 2100x2100 nv12 (noise) and a 520x520 tensor of a 2058 px region: its patch, ~4.25 M pixels, is within
        // four times the taps (4.33 M) but its 17 MB of RGB words pass `yuvScratchBytes` (64 · 520 · 520 > 2^24, so
        // capped at 16 MiB): the bound alone sends it tap by tap.
        let (width, height) = (2100, 2100)
        var random = SplitMix64(seed: 5)
        let count = try ImageView.byteCount(width: width, height: height, bytesPerRow: width, pixelFormat: .nv12)
        let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let options = ImageToTensor.Options(width: 520, height: 520, range: 0...1, fit: .stretch, border: .replicate,
                                            sampling: .warp)
        #expect(try ImageToTensor(options: options).yuvScratchBytes == (1 << 24) + 64)
        let region = RotatedRect(center: Point(x: 1050, y: 1050), width: 2058, height: 2058)
        let (direct, converted) = try ImageView.withPixels(bytes, width: width, height: height, bytesPerRow: width,
                                                           pixelFormat: .nv12) { view in
            (try Self.tensor(view, region: region, options: options),
             try view.uprightRGB().withView { try Self.tensor($0, region: region, options: options) })
        }
        #expect(direct == converted)
    }

    @Test("against a decoder's real-number conversion then the RGB path: within one 8-bit step (max measured)",
          arguments: cases)
    func withinOneStepOfRealNumbers(_ c: Case) throws {
        let (width, height) = (33, 21)
        let picture = Self.picture(width: width, height: height, seed: 5)
        var largest: Float = 0, exact = 0, total = 0
        for space in [YUVColorSpace.bt601Limited, .bt601Full, .bt709Limited, .bt709Full] {
            let bytes = picture.yuv420(c.format, colorSpace: space, bytesPerRow: width)
            let reference = Self.decodedRGB(bytes, format: c.format, width: width, height: height, bytesPerRow: width,
                                            colorSpace: space, orientation: c.orientation)
            for (region, fit) in Self.regions {
                let options = ImageToTensor.Options(width: 24, height: 20, range: 0...255, fit: fit, border: .replicate,
                                                    sampling: .warp)
                let direct = try ImageView.withPixels(bytes, width: width, height: height, pixelFormat: c.format,
                                                      orientation: c.orientation, colorSpace: space) {
                    try Self.tensor($0, region: region, options: options)
                }
                let expected = try reference.withView { try Self.tensor($0, region: region, options: options) }
                for (a, b) in zip(direct, expected) {
                    largest = max(largest, abs(a - b))
                    exact += a == b ? 1 : 0
                    total += 1
                }
            }
        }
        // The fixed point is within 0.006 of the real conversion, so a tap differs by at most one step, rarely.
        #expect(largest <= 1, "largest difference \(largest) of 255")
        #expect(Double(exact) >= 0.99 * Double(total), "\(exact) of \(total) exact")
        print("YUV \(c.format) \(c.orientation): largest difference \(largest)/255, \(total - exact) of \(total) values differ")
    }

    @Test("the fixed-point conversion is within one step of the real numbers for every colour space")
    func conversionTable() {
        for space in [YUVColorSpace.bt601Limited, .bt601Full, .bt709Limited, .bt709Full] {
            var largest = 0, differing = 0, total = 0
            for y in stride(from: 0, through: 255, by: 3) {
                for cb in stride(from: 0, through: 255, by: 5) {
                    for cr in stride(from: 0, through: 255, by: 5) {
                        let a = space.rgb(y: UInt8(y), cb: UInt8(cb), cr: UInt8(cr))
                        let b = RGBImage.decoded(y: UInt8(y), cb: UInt8(cb), cr: UInt8(cr), colorSpace: space)
                        let d = max(abs(Int(a.r) - Int(b.0)), abs(Int(a.g) - Int(b.1)), abs(Int(a.b) - Int(b.2)))
                        largest = max(largest, d)
                        differing += d == 0 ? 0 : 1
                        total += 1
                    }
                }
            }
            #expect(largest <= 1, "\(space)")
            #expect(differing * 100 < total, "\(space): \(differing) of \(total)")
        }
        // Known points: limited-range black and white, full-range grey.
        #expect(YUVColorSpace.bt601Limited.rgb(y: 16, cb: 128, cr: 128) == (0, 0, 0))
        #expect(YUVColorSpace.bt709Limited.rgb(y: 235, cb: 128, cr: 128) == (255, 255, 255))
        #expect(YUVColorSpace.bt601Full.rgb(y: 77, cb: 128, cr: 128) == (77, 77, 77))
    }

    @Test("plane views check every plane; single-buffer views check the whole layout")
    func checks() throws {
        let y = [UInt8](repeating: 0, count: 5 * 3), uv = [UInt8](repeating: 0, count: 6 * 2), c = [UInt8](repeating: 0, count: 3 * 2)
        try y.withUnsafeBytes { yb in
            try uv.withUnsafeBytes { uvb in
                // 5x3: chroma 3x2, an interleaved row of 6 bytes.
                let view = try ImageView(width: 5, height: 3, luma: .init(pixels: yb, bytesPerRow: 5),
                                         chroma: .init(pixels: uvb, bytesPerRow: 6), pixelFormat: .nv21)
                #expect(view.chroma?.width == 3 && view.chroma?.height == 2 && view.chroma?.pixelStride == 2)
                #expect(view.chroma?.cr == uvb.baseAddress && view.chroma?.cb == uvb.baseAddress! + 1)
                #expect(throws: ImagingError.planeTooSmall(plane: 1, bytes: 11, needed: 12)) {
                    try ImageView(width: 5, height: 3, luma: .init(pixels: yb, bytesPerRow: 5),
                                  chroma: .init(pixels: UnsafeRawBufferPointer(rebasing: uvb[..<11]), bytesPerRow: 6))
                }
                #expect(throws: ImagingError.planeTooSmall(plane: 0, bytes: 14, needed: 15)) {
                    try ImageView(width: 5, height: 3, luma: .init(pixels: UnsafeRawBufferPointer(rebasing: yb[..<14]), bytesPerRow: 5),
                                  chroma: .init(pixels: uvb, bytesPerRow: 6))
                }
                #expect(throws: ImagingError.rowTooShort(bytesPerRow: 5, width: 3, bytesPerPixel: 2)) {
                    try ImageView(width: 5, height: 3, luma: .init(pixels: yb, bytesPerRow: 5), chroma: .init(pixels: uvb, bytesPerRow: 5))
                }
                #expect(throws: ImagingError.unsupportedPixelFormat(.i420, reason: "two planes hold nv12 or nv21; i420 takes three")) {
                    try ImageView(width: 5, height: 3, luma: .init(pixels: yb, bytesPerRow: 5), chroma: .init(pixels: uvb, bytesPerRow: 6),
                                  pixelFormat: .i420)
                }
                #expect(throws: ImagingError.emptyImage(width: 0, height: 3)) {
                    try ImageView(width: 0, height: 3, luma: .init(pixels: yb, bytesPerRow: 5), chroma: .init(pixels: uvb, bytesPerRow: 6))
                }
                try c.withUnsafeBytes { cb in
                    let i420 = try ImageView(width: 5, height: 3, luma: .init(pixels: yb, bytesPerRow: 5),
                                             cb: .init(pixels: cb, bytesPerRow: 3), cr: .init(pixels: cb, bytesPerRow: 3))
                    #expect(i420.pixelFormat == .i420 && i420.chroma?.pixelStride == 1)
                    #expect(throws: ImagingError.planeTooSmall(plane: 2, bytes: 5, needed: 6)) {
                        try ImageView(width: 5, height: 3, luma: .init(pixels: yb, bytesPerRow: 5), cb: .init(pixels: cb, bytesPerRow: 3),
                                      cr: .init(pixels: UnsafeRawBufferPointer(rebasing: cb[..<5]), bytesPerRow: 3))
                    }
                }
            }
        }
        // One buffer: 5x3 luma rows of 5, then nv12 chroma rows of 6 (2 rows): 15 + 6 + 6; i420: 15 + 3·2 + 3 + 3.
        #expect(try ImageView.byteCount(width: 5, height: 3, bytesPerRow: 5, pixelFormat: .nv12) == 27)
        #expect(try ImageView.byteCount(width: 5, height: 3, bytesPerRow: 5, pixelFormat: .i420) == 27)
        #expect(try ImageView.byteCount(width: 4, height: 2, bytesPerRow: 4, pixelFormat: .i420) == 12)
        #expect(try ImageView.byteCount(width: 4, height: 2, bytesPerRow: 8, pixelFormat: .nv21) == 8 * 2 + 4)
        for format in Self.formats {
            let needed = try ImageView.byteCount(width: 5, height: 3, bytesPerRow: 5, pixelFormat: format)
            #expect(throws: ImagingError.bufferTooSmall(bytes: needed - 1, needed: needed)) {
                try ImageView.withPixels([UInt8](repeating: 0, count: needed - 1), width: 5, height: 3, pixelFormat: format) { _ in }
            }
            #expect(throws: ImagingError.self) {
                try ImageView.withPixels([UInt8](repeating: 0, count: 100), width: 5, height: 3, bytesPerRow: 4, pixelFormat: format) { _ in }
            }
            let black = ImageBuffer(width: 5, height: 3, pixelFormat: format)
            #expect(try black.uprightRGB().pixels.allSatisfy { $0 == 0 }, "\(format)")
        }
    }
}
