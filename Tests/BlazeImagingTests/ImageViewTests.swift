import BlazeImaging
import Testing

@Suite("ImageView")
struct ImageViewTests {
    struct Geometry: Sendable, CustomTestStringConvertible {
        var width: Int
        var height: Int
        var bytesPerRow: Int
        var format: PixelFormat
        var expected: ImagingError
        var testDescription: String { "\(width)x\(height), \(bytesPerRow) bytes per row, \(format)" }
    }

    static let invalidGeometries: [Geometry] = [
        Geometry(width: 0, height: 10, bytesPerRow: 30, format: .rgb8, expected: .emptyImage(width: 0, height: 10)),
        Geometry(width: 10, height: 0, bytesPerRow: 30, format: .rgb8, expected: .emptyImage(width: 10, height: 0)),
        Geometry(width: -1, height: 10, bytesPerRow: 30, format: .rgb8, expected: .emptyImage(width: -1, height: 10)),
        Geometry(width: 10, height: -5, bytesPerRow: 30, format: .rgb8, expected: .emptyImage(width: 10, height: -5)),
        Geometry(width: 10, height: 10, bytesPerRow: 29, format: .rgb8,
                 expected: .rowTooShort(bytesPerRow: 29, width: 10, bytesPerPixel: 3)),
        Geometry(width: 10, height: 10, bytesPerRow: 39, format: .bgra8,
                 expected: .rowTooShort(bytesPerRow: 39, width: 10, bytesPerPixel: 4)),
        Geometry(width: 10, height: 10, bytesPerRow: -40, format: .bgra8,
                 expected: .rowTooShort(bytesPerRow: -40, width: 10, bytesPerPixel: 4)),
        // width x 4 overflows
        Geometry(width: Int.max / 2, height: 1, bytesPerRow: Int.max, format: .rgba8,
                 expected: .tooLarge(width: Int.max / 2, height: 1, bytesPerRow: Int.max)),
        // bytes overflow
        Geometry(width: 1 << 40, height: 1 << 40, bytesPerRow: 1 << 40, format: .gray8,
                 expected: .tooLarge(width: 1 << 40, height: 1 << 40, bytesPerRow: 1 << 40)),
        Geometry(width: 10, height: Int.max, bytesPerRow: 30, format: .rgb8,
                 expected: .tooLarge(width: 10, height: Int.max, bytesPerRow: 30)),
        // A huge view over a small buffer (the raw-pointer initializer accepted it and detect crashed).
        Geometry(width: 100_000, height: 100_000, bytesPerRow: 300_000, format: .rgb8,
                 expected: .bufferTooSmall(bytes: 64, needed: 300_000 * 99_999 + 300_000)),
        Geometry(width: 4, height: 6, bytesPerRow: 12, format: .rgb8, expected: .bufferTooSmall(bytes: 64, needed: 72)),
    ]

    static func viewError(_ g: Geometry, bytes: Int = 64) -> ImagingError? {
        let buffer = [UInt8](repeating: 0, count: bytes)
        return buffer.withUnsafeBytes { raw -> ImagingError? in
            do throws(ImagingError) {
                _ = try ImageView(pixels: raw, width: g.width, height: g.height, bytesPerRow: g.bytesPerRow,
                                  pixelFormat: g.format)
                return nil
            } catch {
                return error
            }
        }
    }

    @Test("unusable geometry is a typed error naming the numbers", arguments: invalidGeometries)
    func invalidViews(_ geometry: Geometry) {
        let error = Self.viewError(geometry)
        #expect(error == geometry.expected)
        #expect(error.map { !$0.description.isEmpty } == true)
    }

    @Test("consistent geometry is accepted; the last row needs no padding")
    func validViews() {
        #expect(Self.viewError(Geometry(width: 4, height: 4, bytesPerRow: 12, format: .rgb8, expected: .emptyImage(width: 0, height: 0)), bytes: 48) == nil)
        // 3 padded rows of 16 bytes + a last row of 12 = 60 bytes.
        #expect(Self.viewError(Geometry(width: 4, height: 4, bytesPerRow: 16, format: .rgb8, expected: .emptyImage(width: 0, height: 0)), bytes: 60) == nil)
        #expect(Self.viewError(Geometry(width: 4, height: 4, bytesPerRow: 16, format: .rgb8, expected: .emptyImage(width: 0, height: 0)), bytes: 59)
                == .bufferTooSmall(bytes: 59, needed: 60))
    }

    @Test("withPixels checks the byte count and hands over the geometry asked for")
    func withPixels() throws {
        let pixels = [UInt8](repeating: 0, count: 100)
        #expect(throws: ImagingError.bufferTooSmall(bytes: 100, needed: 108)) {
            try ImageView.withPixels(pixels, width: 6, height: 6, pixelFormat: .rgb8) { _ in }
        }
        try ImageView.withPixels(pixels, width: 10, height: 10, pixelFormat: .gray8) { _ in }
        #expect(throws: ImagingError.bufferTooSmall(bytes: 100, needed: 109)) {
            try ImageView.withPixels(pixels, width: 10, height: 10, bytesPerRow: 11, pixelFormat: .gray8) { _ in }
        }
        #expect(throws: ImagingError.self) {
            try ImageView.withPixels(pixels, width: Int.max / 2, height: 2, pixelFormat: .bgra8) { _ in }
        }
        #expect(throws: ImagingError.emptyImage(width: 0, height: 0)) {
            try ImageView.withPixels(pixels, width: 0, height: 0, pixelFormat: .rgb8) { _ in }
        }
        #expect(throws: ImagingError.self) { try ImageView.withPixels([], width: 1, height: 1, pixelFormat: .rgb8) { _ in } }
        let geometry = try ImageView.withPixels(pixels, width: 3, height: 4, bytesPerRow: 20, pixelFormat: .argb8,
                                                orientation: .right) { view in
            [view.width, view.height, view.bytesPerRow, view.uprightWidth, view.uprightHeight]
        }
        #expect(geometry == [3, 4, 20, 4, 3])
    }

    @Test("ImageBuffer.uprightRGB applies every orientation and drops alpha", arguments: ImageOrientation.allCases)
    func uprightRGB(_ orientation: ImageOrientation) throws {
        // A 3x2 stored bgra8 image whose pixel (x, y) has blue x, green y, red 10x+y, alpha 255.
        var pixels: [UInt8] = []
        for y in 0..<2 { for x in 0..<3 { pixels += [UInt8(x), UInt8(y), UInt8(10 * x + y), 255] } }
        let image = ImageBuffer(width: 3, height: 2, pixelFormat: .bgra8, pixels: pixels, orientation: orientation)
        let upright = try image.uprightRGB()
        #expect(upright.pixelFormat == .rgb8 && upright.orientation == .up)
        #expect(upright.width == image.uprightWidth && upright.height == image.uprightHeight)
        for v in 0..<upright.height {
            for u in 0..<upright.width {
                let (x, y) = orientation.storedPixel(u: u, v: v, width: 3, height: 2)
                let q = (v * upright.width + u) * 3
                #expect(Array(upright.pixels[q..<q + 3]) == [UInt8(10 * x + y), UInt8(y), UInt8(x)])
            }
        }
        #expect(throws: ImagingError.bufferTooSmall(bytes: 5, needed: 6)) {
            try ImageBuffer(width: 2, height: 1, pixelFormat: .rgb8, pixels: [1, 2, 3, 4, 5]).uprightRGB()
        }
    }
}
