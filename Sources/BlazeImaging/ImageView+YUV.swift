/// The chroma planes of a YUV 4:2:0 `ImageView`: `width x height` samples of Cb and of Cr, each covering the
/// 2x2 block of luma pixels at `(2i, 2j)` (the last column or row of an odd-sized image covers one pixel).
///
/// Cb sample `(i, j)` is the byte at `cb + j · cbBytesPerRow + i · pixelStride`, Cr likewise.
public struct ChromaPlanes {
    /// The first Cb sample (blue-difference chroma), in the caller's memory.
    public let cb: UnsafeRawPointer
    /// The first Cr sample (red-difference chroma), in the caller's memory.
    public let cr: UnsafeRawPointer
    /// Bytes from one row of Cb samples to the next.
    public let cbBytesPerRow: Int
    /// Bytes from one row of Cr samples to the next.
    public let crBytesPerRow: Int
    /// Bytes from one sample to the next along a row: 2 in the interleaved plane of nv12 and nv21, 1 for i420.
    public let pixelStride: Int
    /// `(lumaWidth + 1) / 2`, as FFmpeg rounds odd sizes.
    public let width: Int
    /// `(lumaHeight + 1) / 2`.
    public let height: Int

    /// The largest side of a YUV view, in pixels (2^28: coordinates are sampled in 32-bit lanes).
    public static let maximumSide = 1 << 28

    /// The chroma size of a `lumaWidth x lumaHeight` image.
    /// - Parameters:
    ///   - lumaWidth: the image's width, in pixels.
    ///   - lumaHeight: the image's height, in pixels.
    /// - Returns: `((lumaWidth + 1) / 2, (lumaHeight + 1) / 2)`, in chroma samples.
    @inlinable
    public static func size(lumaWidth: Int, lumaHeight: Int) -> (width: Int, height: Int) {
        (lumaWidth / 2 + lumaWidth % 2, lumaHeight / 2 + lumaHeight % 2)
    }

    /// Where the planes of one contiguous buffer lie (`ImageView.init(pixels:...)`): the chroma plane(s) start
    /// after `height` luma rows; their rows are `bytesPerRow` rounded up to even apart (nv12, nv21) or
    /// `(bytesPerRow + 1) / 2` apart (i420, whose Cr plane follows `chromaHeight` rows of Cb).
    /// - Throws: as `ImageView.byteCount`.
    static func contiguousLayout(width: Int, height: Int, bytesPerRow: Int, pixelFormat: PixelFormat)
        throws(ImagingError) -> (offset: Int, bytesPerRow: Int, total: Int) {
        _ = try ImageView.packedByteCount(width: width, height: height, bytesPerRow: bytesPerRow, bytesPerPixel: 1)
        try checkSides(width: width, height: height, bytesPerRow: bytesPerRow)
        let (w, h) = size(lumaWidth: width, lumaHeight: height), offset = bytesPerRow * height
        if pixelFormat == .i420 {
            let stride = bytesPerRow / 2 + bytesPerRow % 2
            return (offset, stride, offset + stride * h + stride * (h - 1) + w)
        }
        let stride = bytesPerRow + bytesPerRow % 2
        return (offset, stride, offset + stride * (h - 1) + 2 * w)
    }

    /// - Throws: `ImagingError.tooLarge` for a side beyond `maximumSide`.
    static func checkSides(width: Int, height: Int, bytesPerRow: Int) throws(ImagingError) {
        guard width <= maximumSide, height <= maximumSide else {
            throw .tooLarge(width: width, height: height, bytesPerRow: bytesPerRow)
        }
    }
}

extension ChromaPlanes {
    /// The planes that follow the luma rows at `base` (see `contiguousLayout`); nil for a packed format. The
    /// geometry must have been checked.
    init?(following base: UnsafeRawPointer, width: Int, height: Int, bytesPerRow: Int, pixelFormat: PixelFormat) {
        guard pixelFormat.isYUV,
              let layout = try? Self.contiguousLayout(width: width, height: height, bytesPerRow: bytesPerRow,
                                                      pixelFormat: pixelFormat) else { return nil }
        let (w, h) = Self.size(lumaWidth: width, lumaHeight: height)
        let start = base + layout.offset
        switch pixelFormat {
        case .i420:
            self.init(cb: start, cr: start + layout.bytesPerRow * h, cbBytesPerRow: layout.bytesPerRow,
                      crBytesPerRow: layout.bytesPerRow, pixelStride: 1, width: w, height: h)
        case .nv21:
            self.init(cb: start + 1, cr: start, cbBytesPerRow: layout.bytesPerRow, crBytesPerRow: layout.bytesPerRow,
                      pixelStride: 2, width: w, height: h)
        default:
            self.init(cb: start, cr: start + 1, cbBytesPerRow: layout.bytesPerRow, crBytesPerRow: layout.bytesPerRow,
                      pixelStride: 2, width: w, height: h)
        }
    }
}

extension ImageView {
    /// One plane of 8-bit samples in the caller's memory: rows `bytesPerRow` apart.
    public struct Plane {
        /// The plane's bytes; borrowed, as the view's pixels are.
        public var pixels: UnsafeRawBufferPointer
        /// Bytes from one row of samples to the next (at least the row's samples times their stride).
        public var bytesPerRow: Int

        /// A plane of the caller's memory.
        /// - Parameters:
        ///   - pixels: the plane's bytes, from its first row's first sample.
        ///   - bytesPerRow: bytes from one row to the next.
        public init(pixels: UnsafeRawBufferPointer, bytesPerRow: Int) {
            self.pixels = pixels
            self.bytesPerRow = bytesPerRow
        }
    }

    /// A two-plane YUV 4:2:0 view (`nv12`: Cb, Cr pairs; `nv21`: Cr, Cb pairs), as a CVPixelBuffer's planes 0 and 1
    /// ("420v", "420f") or an Android NV21 frame give them. No copy.
    ///
    /// ```swift
    /// CVPixelBufferLockBaseAddress(buffer, .readOnly)
    /// let frame = try ImageView(width: w, height: h,
    ///     luma: .init(pixels: .init(start: yBase, count: yStride * h), bytesPerRow: yStride),
    ///     chroma: .init(pixels: .init(start: cBase, count: cStride * (h + 1) / 2), bytesPerRow: cStride),
    ///     pixelFormat: .nv12, colorSpace: .bt709Limited, orientation: .right)
    /// let faces = try detector.detect(frame)
    /// ```
    /// - Parameters:
    ///   - width: stored width, in pixels.
    ///   - height: stored height, in pixels.
    ///   - luma: plane 0, one byte per pixel.
    ///   - chroma: plane 1, interleaved Cb, Cr pairs (`nv12`) or Cr, Cb pairs (`nv21`), one pair per 2x2 block.
    ///   - pixelFormat: `.nv12` or `.nv21`.
    ///   - colorSpace: how the samples become RGB.
    ///   - orientation: how the stored pixels are shown upright.
    /// - Throws: `ImagingError.unsupportedPixelFormat` (not nv12 or nv21), `.emptyImage`, `.rowTooShort`
    ///   (luma rows shorter than `width`, chroma rows than `2 · ((width + 1) / 2)`), `.tooLarge` (a byte count
    ///   that overflows, a side beyond `ChromaPlanes.maximumSide`), `.planeTooSmall`
    ///   (plane 0 luma, 1 chroma: fewer bytes than `bytesPerRow · (rows − 1)` plus one row of samples).
    public init(width: Int, height: Int, luma: Plane, chroma: Plane, pixelFormat: PixelFormat = .nv12,
                colorSpace: YUVColorSpace = .default, orientation: ImageOrientation = .up) throws(ImagingError) {
        guard pixelFormat == .nv12 || pixelFormat == .nv21 else {
            throw .unsupportedPixelFormat(pixelFormat, reason: "two planes hold nv12 or nv21; i420 takes three")
        }
        let base = try Self.check(luma, plane: 0, width: width, height: height, bytesPerPixel: 1)
        try ChromaPlanes.checkSides(width: width, height: height, bytesPerRow: luma.bytesPerRow)
        let (w, h) = ChromaPlanes.size(lumaWidth: width, lumaHeight: height)
        let start = try Self.check(chroma, plane: 1, width: w, height: h, bytesPerPixel: 2)
        let (cb, cr) = pixelFormat == .nv12 ? (start, start + 1) : (start + 1, start)
        self.init(base: base, width: width, height: height, bytesPerRow: luma.bytesPerRow, pixelFormat: pixelFormat,
                  chroma: ChromaPlanes(cb: cb, cr: cr, cbBytesPerRow: chroma.bytesPerRow, crBytesPerRow: chroma.bytesPerRow,
                                       pixelStride: 2, width: w, height: h),
                  colorSpace: colorSpace, orientation: orientation)
    }

    /// A three-plane YUV 4:2:0 view (`i420`): luma, Cb and Cr planes, as FFmpeg's `yuv420p` frames
    /// (`data[0...2]`, `linesize[0...2]`) or Android's `YUV_420_888` with a chroma pixel stride of 1 give them.
    /// No copy.
    /// - Parameters:
    ///   - width: stored width, in pixels.
    ///   - height: stored height, in pixels.
    ///   - luma: plane 0, one byte per pixel.
    ///   - cb: plane 1, one Cb sample per 2x2 block.
    ///   - cr: plane 2, one Cr sample per 2x2 block.
    ///   - colorSpace: how the samples become RGB.
    ///   - orientation: how the stored pixels are shown upright.
    /// - Throws: `ImagingError.emptyImage`, `.rowTooShort`, `.tooLarge`, `.planeTooSmall` (plane 0 luma, 1 Cb,
    ///   2 Cr).
    public init(width: Int, height: Int, luma: Plane, cb: Plane, cr: Plane, colorSpace: YUVColorSpace = .default,
                orientation: ImageOrientation = .up) throws(ImagingError) {
        let base = try Self.check(luma, plane: 0, width: width, height: height, bytesPerPixel: 1)
        try ChromaPlanes.checkSides(width: width, height: height, bytesPerRow: luma.bytesPerRow)
        let (w, h) = ChromaPlanes.size(lumaWidth: width, lumaHeight: height)
        let cbStart = try Self.check(cb, plane: 1, width: w, height: h, bytesPerPixel: 1)
        let crStart = try Self.check(cr, plane: 2, width: w, height: h, bytesPerPixel: 1)
        self.init(base: base, width: width, height: height, bytesPerRow: luma.bytesPerRow, pixelFormat: .i420,
                  chroma: ChromaPlanes(cb: cbStart, cr: crStart, cbBytesPerRow: cb.bytesPerRow,
                                       crBytesPerRow: cr.bytesPerRow, pixelStride: 1, width: w, height: h),
                  colorSpace: colorSpace, orientation: orientation)
    }

    /// The plane's start after checking that it holds `height` rows of `width` samples of `bytesPerPixel` bytes.
    private static func check(_ plane: Plane, plane index: Int, width: Int, height: Int,
                              bytesPerPixel: Int) throws(ImagingError) -> UnsafeRawPointer {
        let needed = try packedByteCount(width: width, height: height, bytesPerRow: plane.bytesPerRow,
                                         bytesPerPixel: bytesPerPixel)
        guard let base = plane.pixels.baseAddress, plane.pixels.count >= needed else {
            throw .planeTooSmall(plane: index, bytes: plane.pixels.count, needed: needed)
        }
        return base
    }
}
