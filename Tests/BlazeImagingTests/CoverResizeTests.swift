import BlazeImaging
import Testing

@Suite("ImageBuffer.coverResized: a background picture scaled to cover a frame")
struct CoverResizeTests {
    /// A picture whose red channel is its column index and green its row index.
    static func ramp(width: Int, height: Int) -> ImageBuffer {
        var pixels = [UInt8]()
        for y in 0..<height { for x in 0..<width { pixels += [UInt8(x), UInt8(y), 7] } }
        return ImageBuffer(width: width, height: height, pixelFormat: .rgb8, pixels: pixels)
    }

    @Test("a wide picture covering a square frame keeps its centre columns")
    func cropsTheOverflow() throws {
        let covered = try Self.ramp(width: 8, height: 2).coverResized(width: 2, height: 2)
        #expect(covered.width == 2 && covered.height == 2 && covered.pixelFormat == .rgb8)
        // Scale 1: the 2x2 window centred in 8 columns is columns 3 and 4.
        #expect(covered.pixels == [3, 0, 7, 4, 0, 7, 3, 1, 7, 4, 1, 7])
    }

    @Test("upscaling interpolates between the source pixels and keeps the constant channel")
    func upscales() throws {
        let covered = try Self.ramp(width: 2, height: 2).coverResized(width: 4, height: 4)
        let reds = stride(from: 0, to: 12, by: 3).map { covered.pixels[$0] }
        #expect(reds == [0, 0, 1, 1])   // positions (d + 0.5) / 2 - 0.5, clamped: 0, 0.25, 0.75, 1 (rounded half up)
        #expect(stride(from: 2, to: covered.pixels.count, by: 3).allSatisfy { covered.pixels[$0] == 7 })
    }

    @Test("a picture of the frame's size comes back unchanged; a turned one is made upright first")
    func sameSizeAndOrientation() throws {
        let picture = Self.ramp(width: 3, height: 2)
        #expect(try picture.coverResized(width: 3, height: 2) == picture)
        var turned = Self.ramp(width: 2, height: 3)
        turned.orientation = .right
        let upright = try turned.coverResized(width: 3, height: 2)
        #expect(upright == (try turned.uprightRGB()))
    }

    @Test("a size below 1x1 or absurdly large is a typed error", arguments: [(0, 2), (2, -1), (1 << 21, 1), (1 << 15, 1 << 15)])
    func badSizes(width: Int, height: Int) {
        #expect(throws: ImagingError.self) { try Self.ramp(width: 2, height: 2).coverResized(width: width, height: height) }
    }
}
