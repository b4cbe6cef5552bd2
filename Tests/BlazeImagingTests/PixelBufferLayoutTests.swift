@testable import BlazeImaging
import Testing

@Suite("PixelBufferLayout: CoreVideo formats, matrices and planes")
struct PixelBufferLayoutTests {
    /// A four-character code, most significant byte first, as CoreVideo's `'BGRA'` literals are.
    static func fourCC(_ text: String) -> UInt32 {
        text.utf8.reduce(0) { $0 << 8 | UInt32($1) }
    }

    @Test("Four-character codes choose the format, range and planes")
    func formats() throws {
        #expect(try PixelBufferFormat(fourCC: Self.fourCC("BGRA")) == .bgra)
        #expect(try PixelBufferFormat(fourCC: Self.fourCC("420v")) == .yuv420VideoRange)
        #expect(try PixelBufferFormat(fourCC: Self.fourCC("420f")) == .yuv420FullRange)
        #expect(Self.fourCC("BGRA") == 0x4247_5241 && Self.fourCC("420v") == 0x3432_3076)
        #expect(PixelBufferFormat.bgra.pixelFormat == .bgra8 && PixelBufferFormat.bgra.range == nil)
        #expect(PixelBufferFormat.yuv420VideoRange.pixelFormat == .nv12)
        #expect(PixelBufferFormat.yuv420VideoRange.range == .limited)
        #expect(PixelBufferFormat.yuv420FullRange.range == .full)
        #expect(PixelBufferFormat.allCases.map(\.planeCount) == [1, 2, 2])
        for code in ["y420", "x420", "RGBA", "2vuy"] {
            #expect(throws: ImagingError.unsupportedPixelBufferFormat(fourCC: Self.fourCC(code))) {
                try PixelBufferFormat(fourCC: Self.fourCC(code))
            }
        }
        #expect(PixelBufferFormat.describe(fourCC: Self.fourCC("y420")) == "'y420'")
        #expect(PixelBufferFormat.describe(fourCC: 32) == "0x20")
        #expect("\(ImagingError.unsupportedPixelBufferFormat(fourCC: Self.fourCC("x420")))".contains("'x420'"))
    }

    @Test("The matrix attachment: 601 is BT.601, anything else (and none) BT.709")
    func matrices() {
        let table: [(String?, YUVColorSpace.Matrix)] = [
            ("ITU_R_601_4", .bt601), ("ITU_R_709_2", .bt709), (nil, .bt709), ("ITU_R_2020", .bt709),
            ("SMPTE_240M_1995", .bt709), ("P3_D65", .bt709),
        ]
        for (attachment, matrix) in table {
            for range in YUVColorSpace.Range.allCases {
                #expect(YUVColorSpace(yCbCrMatrix: attachment, range: range) == YUVColorSpace(matrix: matrix, range: range))
            }
        }
    }

    @Test("A padded BGRA buffer: one plane, no copy")
    func bgra() throws {
        let (w, h, stride) = (3, 2, 16)
        var bytes = [UInt8](repeating: 0xEE, count: stride * h)
        for y in 0..<h { for x in 0..<w { bytes.replaceSubrange(stride * y + 4 * x ..< stride * y + 4 * x + 4,
                                                                  with: [UInt8(x), UInt8(y), 200, 255]) } }
        try bytes.withUnsafeBytes { raw in
            let plane = PixelBufferPlane(baseAddress: raw.baseAddress, width: w, height: h, bytesPerRow: stride)
            let view = try ImageView(pixelBufferFormat: Self.fourCC("BGRA"), width: w, height: h, planes: [plane],
                                     yCbCrMatrix: "ITU_R_601_4", orientation: .right)
            #expect(view.baseAddress == raw.baseAddress)
            #expect(view.pixelFormat == .bgra8 && view.bytesPerRow == stride && view.orientation == .right)
            #expect(view.width == w && view.height == h && view.chroma == nil)
            let rgb = view.uprightRGB()
            #expect(rgb.width == h && rgb.height == w)
            // Upright (0, 0) is stored (0, h − 1) under .right: blue 0, green 1, red 200.
            #expect(Array(rgb.pixels[0..<3]) == [200, 1, 0])
        }
    }

    @Test("A padded 420v / 420f buffer: two planes, the attachment's matrix, the format's range")
    func yuv() throws {
        let (w, h) = (5, 3)                  // odd sides: chroma 3x2 pairs
        let (lumaStride, chromaStride) = (8, 8)
        var luma = [UInt8](repeating: 0, count: lumaStride * h)
        for i in luma.indices { luma[i] = UInt8(40 + 7 * i % 180) }
        var chroma = [UInt8](repeating: 0, count: chromaStride * 2)
        for i in chroma.indices { chroma[i] = UInt8(60 + 13 * i % 140) }
        for (code, range) in [("420v", YUVColorSpace.Range.limited), ("420f", .full)] {
            for (attachment, matrix) in [("ITU_R_709_2", YUVColorSpace.Matrix.bt709), ("ITU_R_601_4", .bt601)] {
                try luma.withUnsafeBytes { y in
                    try chroma.withUnsafeBytes { c in
                        let planes = [PixelBufferPlane(baseAddress: y.baseAddress, width: w, height: h, bytesPerRow: lumaStride),
                                      PixelBufferPlane(baseAddress: c.baseAddress, width: 3, height: 2,
                                                       bytesPerRow: chromaStride)]
                        let view = try ImageView(pixelBufferFormat: Self.fourCC(code), width: w, height: h, planes: planes,
                                                 yCbCrMatrix: attachment, orientation: .left)
                        let space = YUVColorSpace(matrix: matrix, range: range)
                        #expect(view.pixelFormat == .nv12 && view.colorSpace == space && view.orientation == .left)
                        #expect(view.baseAddress == y.baseAddress && view.bytesPerRow == lumaStride)
                        #expect(view.chroma?.cb == c.baseAddress && view.chroma?.cr == c.baseAddress! + 1)
                        #expect(view.chroma?.cbBytesPerRow == chromaStride && view.chroma?.pixelStride == 2)
                        let direct = try ImageView(
                            width: w, height: h,
                            luma: .init(pixels: y, bytesPerRow: lumaStride),
                            chroma: .init(pixels: c, bytesPerRow: chromaStride),
                            pixelFormat: .nv12, colorSpace: space, orientation: .left)
                        #expect(view.uprightRGB() == direct.uprightRGB())
                    }
                }
            }
        }
    }

    @Test("Bad buffers are typed errors")
    func errors() throws {
        let bytes = [UInt8](repeating: 0, count: 4096)
        try bytes.withUnsafeBytes { raw in
            let base = raw.baseAddress
            let bgra = Self.fourCC("BGRA"), nv = Self.fourCC("420v")
            func make(_ code: UInt32, _ w: Int, _ h: Int, _ planes: [PixelBufferPlane]) throws(ImagingError) {
                _ = try ImageView(pixelBufferFormat: code, width: w, height: h, planes: planes, yCbCrMatrix: nil)
            }
            let y = PixelBufferPlane(baseAddress: base, width: 8, height: 4, bytesPerRow: 8)
            let c = PixelBufferPlane(baseAddress: base, width: 4, height: 2, bytesPerRow: 8)
            try make(nv, 8, 4, [y, c])                                  // the good one
            #expect(throws: ImagingError.invalidPixelBuffer("'420v' has 2 plane(s); 1 given")) { try make(nv, 8, 4, [y]) }
            #expect(throws: ImagingError.invalidPixelBuffer("'BGRA' has 1 plane(s); 2 given")) {
                try make(bgra, 2, 2, [y, c])
            }
            var unlocked = c
            unlocked.baseAddress = nil
            #expect(throws: ImagingError.invalidPixelBuffer("plane 1 has no base address: lock the buffer first")) {
                try make(nv, 8, 4, [y, unlocked])
            }
            var short = c
            short.height = 1
            #expect(throws: ImagingError.invalidPixelBuffer("plane 1 is 4x1 samples; the image needs 4x2")) {
                try make(nv, 8, 4, [y, short])
            }
            #expect(throws: ImagingError.invalidPixelBuffer("plane 0 is 8x4 samples; the image needs 9x4")) {
                try make(nv, 9, 4, [y, c])
            }
            var narrow = c
            narrow.bytesPerRow = 7                                        // 4 CbCr pairs need 8 bytes a row
            #expect(throws: ImagingError.rowTooShort(bytesPerRow: 7, width: 4, bytesPerPixel: 2)) {
                try make(nv, 8, 4, [y, narrow])
            }
            let packed = PixelBufferPlane(baseAddress: base, width: 4, height: 2, bytesPerRow: 15)
            #expect(throws: ImagingError.rowTooShort(bytesPerRow: 15, width: 4, bytesPerPixel: 4)) {
                try make(bgra, 4, 2, [packed])
            }
            #expect(throws: ImagingError.emptyImage(width: 0, height: 4)) { try make(nv, 0, 4, [y, c]) }
            #expect(throws: ImagingError.unsupportedPixelBufferFormat(fourCC: Self.fourCC("y420"))) {
                try make(Self.fourCC("y420"), 8, 4, [y, c])
            }
        }
    }

    @Test("The CGImage bitmap: tightly packed BGRA, checked sizes")
    func cgImageLayout() throws {
        #expect(try ImageBuffer.bgraLayout(width: 3, height: 2) == (12, 24))
        #expect(throws: ImagingError.emptyImage(width: 0, height: 2)) { try ImageBuffer.bgraLayout(width: 0, height: 2) }
        #expect(throws: ImagingError.tooLarge(width: Int.max / 2, height: 1, bytesPerRow: 0)) {
            try ImageBuffer.bgraLayout(width: Int.max / 2, height: 1)
        }
        #expect(throws: ImagingError.self) { try ImageBuffer.bgraLayout(width: 1 << 31, height: 1 << 31) }
    }
}
