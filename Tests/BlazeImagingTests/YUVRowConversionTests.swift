@testable import BlazeImaging
import BlazeTestSupport
import Testing

/// The vector row conversion of YUV views (`YUVReader.convertStoredRow`: sixteen pixels at a time, then a tail)
/// against the one-sample conversion (`YUVColorSpace.rgb(y:cb:cr:)`), on random samples in every chroma layout.
@Suite("YUV row conversion")
struct YUVRowConversionTests {
    enum Layout: String, CaseIterable, Sendable {
        case nv12, nv21, i420
        /// Cb and Cr in separate buffers, each sample followed by an unused byte (pixel stride 2, not interleaved).
        case separateStride2
    }

    /// A random `width x height` YUV view in `layout` (luma rows padded by 3 bytes), and each stored pixel's
    /// RGB as `colorSpace.rgb(y:cb:cr:)` gives it.
    static func withRandomView<R>(_ layout: Layout, width: Int, height: Int, colorSpace: YUVColorSpace,
                                  _ body: (ImageView, [UInt8]) throws -> R) throws -> R {
        var random = SplitMix64(seed: 7)
        func bytes(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
        let stride = width + 3, cw = (width + 1) / 2, ch = (height + 1) / 2
        let luma = bytes(stride * height), chromaStride = 2 * cw + 1
        let first = bytes(chromaStride * ch), second = bytes(chromaStride * ch)
        // Sample offsets into `first` (Cb) and `second` (Cr), or both into `first` when interleaved.
        func chroma(_ i: Int, _ j: Int) -> (cb: UInt8, cr: UInt8) {
            switch layout {
            case .nv12: (first[j * chromaStride + 2 * i], first[j * chromaStride + 2 * i + 1])
            case .nv21: (first[j * chromaStride + 2 * i + 1], first[j * chromaStride + 2 * i])
            case .i420: (first[j * chromaStride + i], second[j * chromaStride + i])
            case .separateStride2: (first[j * chromaStride + 2 * i], second[j * chromaStride + 2 * i])
            }
        }
        var expected = [UInt8]()
        for y in 0..<height {
            for x in 0..<width {
                let (cb, cr) = chroma(x / 2, y / 2)
                let p = colorSpace.rgb(y: luma[y * stride + x], cb: cb, cr: cr)
                expected += [p.r, p.g, p.b]
            }
        }
        return try luma.withUnsafeBytes { l in
            try first.withUnsafeBytes { a in
                try second.withUnsafeBytes { b in
                    let planes: ChromaPlanes
                    switch layout {
                    case .nv12: planes = ChromaPlanes(cb: a.baseAddress!, cr: a.baseAddress! + 1, cbBytesPerRow: chromaStride,
                                                      crBytesPerRow: chromaStride, pixelStride: 2, width: cw, height: ch)
                    case .nv21: planes = ChromaPlanes(cb: a.baseAddress! + 1, cr: a.baseAddress!, cbBytesPerRow: chromaStride,
                                                      crBytesPerRow: chromaStride, pixelStride: 2, width: cw, height: ch)
                    case .i420: planes = ChromaPlanes(cb: a.baseAddress!, cr: b.baseAddress!, cbBytesPerRow: chromaStride,
                                                      crBytesPerRow: chromaStride, pixelStride: 1, width: cw, height: ch)
                    case .separateStride2:
                        planes = ChromaPlanes(cb: a.baseAddress!, cr: b.baseAddress!, cbBytesPerRow: chromaStride,
                                              crBytesPerRow: chromaStride, pixelStride: 2, width: cw, height: ch)
                    }
                    let format: PixelFormat = layout == .nv21 ? .nv21 : layout == .i420 ? .i420 : .nv12
                    let view = ImageView(base: l.baseAddress!, width: width, height: height, bytesPerRow: stride,
                                         pixelFormat: format, chroma: planes, colorSpace: colorSpace, orientation: .up)
                    return try body(view, expected)
                }
            }
        }
    }

    @Test("uprightRGB() of every layout equals the one-sample conversion pixel for pixel (vector blocks and tails)",
          arguments: Layout.allCases)
    func uprightRGBMatchesOneSample(_ layout: Layout) throws {
        for (width, height) in [(53, 7), (16, 2), (15, 3), (1, 1), (34, 5)] {
            for space in [YUVColorSpace.bt601Limited, .bt601Full, .bt709Limited, .bt709Full] {
                try Self.withRandomView(layout, width: width, height: height, colorSpace: space) { view, expected in
                    let rgb = view.uprightRGB()
                    #expect(rgb.pixels == expected, "\(layout) \(width)x\(height) \(space)")
                }
            }
        }
    }

    @Test("a .warp crop of a YUV view (through its converted patch) equals the crop of the one-sample RGB",
          arguments: Layout.allCases)
    func warpCropMatchesOneSample(_ layout: Layout) throws {
        let (width, height) = (61, 44)
        let options = ImageToTensor.Options(width: 24, height: 20, range: 0...1, fit: .stretch, border: .replicate,
                                            sampling: .warp)
        let converter = try ImageToTensor(options: options)
        for rotation in [0, 0.3, -2.1] {
            let region = RotatedRect(center: Point(x: 30.5, y: 21), width: 34, height: 26, rotation: rotation)
            try Self.withRandomView(layout, width: width, height: height, colorSpace: .bt709Limited) { view, expected in
                var direct = [Float](repeating: .nan, count: converter.floatCount), reference = direct
                try direct.withUnsafeMutableBufferPointer { _ = try converter.convert(view, region: region, into: $0) }
                try ImageView.withPixels(expected, width: width, height: height, pixelFormat: .rgb8) { rgb in
                    try reference.withUnsafeMutableBufferPointer { _ = try converter.convert(rgb, region: region, into: $0) }
                }
                #expect(direct == reference, "\(layout) rotation \(rotation)")
            }
        }
    }
}
