@testable import BlazeImaging
import BlazeTestSupport
import Foundation
import Testing

/// `ImageToTensor` against an independent per-pixel reference: upright pixels fetched through
/// `ImageOrientation.storedPixel`, positions from `RotatedRect.point(u:v:)`, taps and weights written out.
@Suite("ImageToTensor")
struct ImageToTensorTests {
    /// A stored 40x24 image in `format`: noise, or a smooth ramp (for turned regions, where positions may
    /// round differently by 1/32 pixel between the reference and OpenCV's float corners).
    static func image(_ format: PixelFormat, orientation: ImageOrientation, smooth: Bool = false) -> ImageBuffer {
        var generator = SplitMix64(seed: 7)
        let (w, h) = orientation.swapsDimensions ? (24, 40) : (40, 24)
        var pixels = [UInt8](repeating: 0, count: w * h * format.bytesPerPixel)
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<format.bytesPerPixel {
                    pixels[(y * w + x) * format.bytesPerPixel + c] = smooth
                        ? UInt8(4 * x + 2 * y + 10 * c) : UInt8(truncatingIfNeeded: generator.next())
                }
            }
        }
        return ImageBuffer(width: w, height: h, pixelFormat: format, pixels: pixels, orientation: orientation)
    }

    static func reference(_ image: ImageBuffer, footprint: RotatedRect, options o: ImageToTensor.Options) -> [Float] {
        let uw = image.uprightWidth, uh = image.uprightHeight, bpp = image.pixelFormat.bytesPerPixel
        let (r, g, b) = image.pixelFormat.channelOffsets
        func value(_ u: Int, _ v: Int, _ channel: Int) -> Int {
            var u = u, v = v
            if o.border == .replicate { u = min(max(u, 0), uw - 1); v = min(max(v, 0), uh - 1) }
            guard (0..<uw).contains(u), (0..<uh).contains(v) else { return 0 }
            let (x, y) = image.orientation.storedPixel(u: u, v: v, width: image.width, height: image.height)
            return Int(image.pixels[(y * image.width + x) * bpp + channel])
        }
        func fixed(_ p: Double) -> Int {
            o.sampling == .warp ? Int((p * 32).rounded(.toNearestOrEven)) : Int((p * 32 + 0.5).rounded(.down))
        }
        let scale = (o.range.upperBound - o.range.lowerBound) / 255
        var out: [Float] = []
        for j in 0..<o.height {
            for i in 0..<o.width {
                let p = footprint.point(u: Double(i) / Double(o.width), v: Double(j) / Double(o.height))
                let fx = fixed(p.x), fy = fixed(p.y)
                let x0 = fx >> 5, y0 = fy >> 5, ax = fx & 31, ay = fy & 31
                for channel in [r, g, b] {
                    let sum = value(x0, y0, channel) * (32 - ax) * (32 - ay) + value(x0 + 1, y0, channel) * ax * (32 - ay)
                        + value(x0, y0 + 1, channel) * (32 - ax) * ay + value(x0 + 1, y0 + 1, channel) * ax * ay
                    out.append(Float((sum + 512) >> 10) * scale + o.range.lowerBound)
                }
            }
        }
        return out
    }

    static func convert(_ image: ImageBuffer, region: RotatedRect?, options: ImageToTensor.Options) throws -> (tensor: [Float], footprint: RotatedRect) {
        let converter = try ImageToTensor(options: options)
        var tensor = [Float](repeating: .nan, count: converter.floatCount)
        let footprint = try image.withView { view in
            try tensor.withUnsafeMutableBufferPointer { try converter.convert(view, region: region, into: $0) }
        }
        return (tensor, footprint)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var format: PixelFormat
        var orientation: ImageOrientation
        var sampling: ImageToTensor.Sampling
        var border: ImageToTensor.Border
        var testDescription: String { "\(format) \(orientation) \(sampling) \(border)" }
    }

    /// The packed formats (the YUV ones: YUVTests).
    static let cases: [Case] = PixelFormat.allCases.filter { !$0.isYUV }.flatMap { format in
        ImageOrientation.allCases.map { orientation in
            Case(format: format, orientation: orientation, sampling: orientation.rawValue.isMultiple(of: 2) ? .warp : .detector,
                 border: format == .rgb8 || orientation == .right ? .replicate : .zero)
        }
    }

    @Test("unturned regions equal the reference exactly: every format, orientation, sampling and border", arguments: cases)
    func unturned(_ c: Case) throws {
        let image = Self.image(c.format, orientation: c.orientation)
        // The whole image letterboxed into a square, a stretched sub-region, and a region past the border.
        let regions: [(RotatedRect?, ImageToTensor.Fit, Int, Int)] = [
            (nil, .letterbox, 16, 16),
            (RotatedRect(center: Point(x: 12.5, y: 10), width: 15, height: 10), .stretch, 12, 8),
            (RotatedRect(center: Point(x: 2, y: 3), width: 16, height: 16), .letterbox, 8, 16),
        ]
        for (region, fit, w, h) in regions {
            let options = ImageToTensor.Options(width: w, height: h, range: -1...1, fit: fit, border: c.border, sampling: c.sampling)
            let (tensor, footprint) = try Self.convert(image, region: region, options: options)
            #expect(tensor == Self.reference(image, footprint: footprint, options: options), "\(String(describing: region))")
        }
    }

    @Test("turned regions match the reference up to OpenCV's float corners", arguments: [ImageToTensor.Border.zero, .replicate],
          [0.3, -1.2, Double.pi / 2, 3.0])
    func turned(_ border: ImageToTensor.Border, rotation: Double) throws {
        let image = Self.image(.rgb8, orientation: .up, smooth: true)
        let region = RotatedRect(center: Point(x: 21, y: 11), width: 30, height: 20, rotation: rotation)
        let options = ImageToTensor.Options(width: 24, height: 16, range: 0...1, fit: .stretch, border: border, sampling: .warp)
        let (tensor, footprint) = try Self.convert(image, region: region, options: options)
        #expect(footprint == region)
        let expected = Self.reference(image, footprint: footprint, options: options)
        let differences = zip(tensor, expected).map { abs($0 - $1) }
        let exact = differences.filter { $0 == 0 }.count
        #expect(differences.max()! <= 1.0 / 255 + 1e-6)
        #expect(Double(exact) >= 0.95 * Double(tensor.count), "\(exact) of \(tensor.count) exact")
    }

    @Test("the per-pixel warp equals the tabulated path on unturned regions")
    func warpPathsAgree() throws {
        let image = Self.image(.bgra8, orientation: .leftMirrored)
        let options = ImageToTensor.Options(width: 20, height: 14, range: 0...1, fit: .stretch, border: .replicate, sampling: .warp)
        let converter = try ImageToTensor(options: options)
        let region = RotatedRect(center: Point(x: 10.25, y: 17.75), width: 31.5, height: 26.25)
        let frame = WarpFrame(region, width: 20, height: 14)
        #expect(frame.isAxisAligned)
        var tabulated = [Float](repeating: 0, count: converter.floatCount), warped = tabulated
        try image.withView { view in
            tabulated.withUnsafeMutableBufferPointer {
                converter.fillSeparable($0.baseAddress!, image: view, origin: frame.origin,
                                        step: (frame.xStep.x, frame.yStep.y), roundHalfEven: true)
            }
            warped.withUnsafeMutableBufferPointer { converter.fillWarped($0.baseAddress!, image: view, frame: frame) }
        }
        #expect(tabulated == warped)
    }

    @Test("letterbox bands are the range's 0 with a zero border and the edge with replicate")
    func letterboxBands() throws {
        let image = ImageBuffer(width: 4, height: 2, pixelFormat: .gray8, pixels: [10, 20, 30, 40, 50, 60, 70, 80])
        let zero = try Self.convert(image, region: nil, options: .init(width: 4, height: 4, range: -1...1))
        #expect(zero.footprint == RotatedRect(center: Point(x: 2, y: 1), width: 4, height: 4))
        #expect(zero.tensor[0..<12].allSatisfy { $0 == -1 })
        #expect(Array(zero.tensor[12..<15]) == [Float](repeating: Float(10) * 2 / 255 - 1, count: 3))
        let edge = try Self.convert(image, region: nil, options: .init(width: 4, height: 4, range: 0...255, border: .replicate))
        #expect(Array(edge.tensor[0..<12]) == [10, 10, 10, 20, 20, 20, 30, 30, 30, 40, 40, 40])
    }

    @Test("bad options, regions and outputs are typed errors")
    func errors() throws {
        #expect(throws: ImagingError.self) { try ImageToTensor(options: .init(width: 0, height: 4, range: 0...1)) }
        #expect(throws: ImagingError.self) { try ImageToTensor(options: .init(width: 4, height: 100_000, range: 0...1)) }
        #expect(throws: ImagingError.self) { try ImageToTensor(options: .init(width: 4, height: 4, range: 1...1)) }
        #expect(throws: ImagingError.self) { try ImageToTensor(options: .init(width: 4, height: 4, range: -Float.infinity...1)) }
        let image = Self.image(.rgb8, orientation: .up)
        let options = ImageToTensor.Options(width: 4, height: 4, range: 0...1, sampling: .detector)
        let bad: [RotatedRect] = [
            RotatedRect(center: Point(x: .nan, y: 0), width: 4, height: 4),
            RotatedRect(center: Point(x: 0, y: 0), width: 0, height: 4),
            RotatedRect(center: Point(x: 0, y: 0), width: 4, height: -1),
            RotatedRect(center: Point(x: 1e300, y: 0), width: 4, height: 4),
            RotatedRect(center: Point(x: 0, y: 0), width: 1e12, height: 4),
            RotatedRect(center: Point(x: 0, y: 0), width: 4, height: 4, rotation: .infinity),
            RotatedRect(center: Point(x: 0, y: 0), width: 4, height: 4, rotation: 0.5),  // detector sampling is unturned
        ]
        for region in bad {
            #expect(throws: ImagingError.self, "\(region)") { _ = try Self.convert(image, region: region, options: options) }
        }
        let converter = try ImageToTensor(options: options)
        var small = [Float](repeating: 0, count: 47)
        #expect(throws: ImagingError.outputTooSmall(floats: 47, needed: 48)) {
            try image.withView { view in
                try small.withUnsafeMutableBufferPointer { _ = try converter.convert(view, into: $0) }
            }
        }
    }
}
