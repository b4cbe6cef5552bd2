/// A view of 8-bit pixels in the caller's memory: no copy is made.
///
/// The view borrows the memory: it must stay valid and unchanged while any call that reads the view runs
/// (`FaceDetector.detect`, `ImageToTensor.convert`, ...). That is why `ImageView` is not `Sendable`: create
/// the view on the thread that uses it, inside the scope that keeps its memory alive (`withPixels`,
/// `Array.withUnsafeBytes`, `CVPixelBufferLockBaseAddress` ... `Unlock`).
///
/// Rows are `bytesPerRow` apart, which may exceed `width * bytesPerPixel`, as camera buffers pad rows. The
/// last row only needs `width * bytesPerPixel` bytes.
///
/// A YUV 4:2:0 view (`nv12`, `nv21`, `i420`) is made from its planes (`init(width:height:luma:chroma:...)`,
/// `init(width:height:luma:cb:cr:...)`) or from one buffer holding them one after the other; `baseAddress` and
/// `bytesPerRow` are then the luma plane's, `chroma` the chroma planes', and `colorSpace` says how they become
/// RGB. Every pipeline samples such a view directly, with no full-frame conversion (`ImageView+YUV.swift`).
public struct ImageView {
    /// The first stored row's first byte (the luma plane's, for YUV), in the caller's memory.
    public let baseAddress: UnsafeRawPointer
    /// Stored width in pixels (before orientation).
    public let width: Int
    /// Stored height in pixels (before orientation).
    public let height: Int
    /// Bytes from one stored row to the next (the luma plane's, for YUV); may exceed the row's pixels.
    public let bytesPerRow: Int
    /// The layout of each pixel's bytes, or which YUV 4:2:0 arrangement the planes have.
    public let pixelFormat: PixelFormat
    /// How the stored pixels are shown upright; every pipeline works in the upright image's pixels.
    public let orientation: ImageOrientation
    /// The chroma planes of a YUV view; nil for the packed formats.
    public let chroma: ChromaPlanes?
    /// How a YUV view's samples become RGB (`.default` and unused for the packed formats).
    public let colorSpace: YUVColorSpace

    /// Creates a view of `pixels`, checking the geometry against the buffer's size.
    ///
    /// A YUV format reads its planes one after the other (`ChromaPlanes.contiguousLayout`): `height` luma rows
    /// `bytesPerRow` apart, then the chroma rows, `bytesPerRow` rounded up to even apart (`nv12`, `nv21`) or
    /// `(bytesPerRow + 1) / 2` apart (`i420`, Cb then Cr); with `bytesPerRow == width` that is the tightly
    /// packed layout of Android's NV21 byte arrays and of FFmpeg's buffers aligned to 1.
    /// - Parameters:
    ///   - pixels: the caller's bytes, borrowed: they must stay valid and unchanged while the view is read.
    ///   - width: stored width, in pixels.
    ///   - height: stored height, in pixels.
    ///   - bytesPerRow: bytes from one stored row to the next (the luma plane's for YUV).
    ///   - pixelFormat: the layout of the pixels.
    ///   - orientation: how the stored pixels are shown upright.
    ///   - colorSpace: how YUV samples become RGB (unused for the packed formats).
    /// - Throws: `ImagingError.emptyImage` (a side below 1), `.rowTooShort`, `.tooLarge` (the byte count
    ///   overflows), or `.bufferTooSmall` when `pixels` holds fewer than `byteCount(...)` bytes:
    ///   `bytesPerRow * (height - 1) + width * bytesPerPixel` for the packed formats.
    public init(
        pixels: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int,
        pixelFormat: PixelFormat, orientation: ImageOrientation = .up, colorSpace: YUVColorSpace = .default
    ) throws(ImagingError) {
        let needed = try Self.byteCount(width: width, height: height, bytesPerRow: bytesPerRow, pixelFormat: pixelFormat)
        guard let base = pixels.baseAddress, pixels.count >= needed else {
            throw .bufferTooSmall(bytes: pixels.count, needed: needed)
        }
        self.init(base: base, width: width, height: height, bytesPerRow: bytesPerRow, pixelFormat: pixelFormat,
                  chroma: ChromaPlanes(following: base, width: width, height: height, bytesPerRow: bytesPerRow,
                                       pixelFormat: pixelFormat),
                  colorSpace: colorSpace, orientation: orientation)
    }

    /// A view of checked geometry.
    init(base: UnsafeRawPointer, width: Int, height: Int, bytesPerRow: Int, pixelFormat: PixelFormat,
         chroma: ChromaPlanes?, colorSpace: YUVColorSpace, orientation: ImageOrientation) {
        self.baseAddress = base
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.pixelFormat = pixelFormat
        self.orientation = orientation
        self.chroma = chroma
        self.colorSpace = colorSpace
    }

    /// Creates a view over memory whose size the view cannot check.
    ///
    /// The caller guarantees that `baseAddress` points to at least `bytesPerRow * (height - 1) + width *
    /// pixelFormat.bytesPerPixel` readable bytes; a smaller buffer is undefined behaviour. Prefer
    /// `init(pixels:...)`, which checks it.
    /// - Parameters:
    ///   - baseAddress: the first stored row's first byte, borrowed.
    ///   - width: stored width, in pixels.
    ///   - height: stored height, in pixels.
    ///   - bytesPerRow: bytes from one stored row to the next.
    ///   - pixelFormat: the layout of the pixels (a packed format).
    ///   - orientation: how the stored pixels are shown upright.
    /// - Throws: `ImagingError.emptyImage`, `.rowTooShort` or `.tooLarge`.
    @available(*, deprecated, message: "pass the buffer with its size: init(pixels:width:height:bytesPerRow:pixelFormat:orientation:)")
    public init(
        baseAddress: UnsafeRawPointer, width: Int, height: Int, bytesPerRow: Int,
        pixelFormat: PixelFormat, orientation: ImageOrientation = .up
    ) throws(ImagingError) {
        _ = try Self.byteCount(width: width, height: height, bytesPerRow: bytesPerRow, pixelFormat: pixelFormat)
        self.init(base: baseAddress, width: width, height: height, bytesPerRow: bytesPerRow, pixelFormat: pixelFormat,
                  chroma: ChromaPlanes(following: baseAddress, width: width, height: height, bytesPerRow: bytesPerRow,
                                       pixelFormat: pixelFormat),
                  colorSpace: .default, orientation: orientation)
    }

    /// The bytes a view of this geometry reads: `bytesPerRow * (height - 1) + width * bytesPerPixel` for the
    /// packed formats; the luma rows and the chroma planes after them for the YUV formats (see `init(pixels:...)`).
    /// - Parameters:
    ///   - width: stored width, in pixels.
    ///   - height: stored height, in pixels.
    ///   - bytesPerRow: bytes from one stored row to the next.
    ///   - pixelFormat: the layout of the pixels.
    /// - Returns: the number of bytes, from the first row's first byte.
    /// - Throws: as the initializers.
    public static func byteCount(
        width: Int, height: Int, bytesPerRow: Int, pixelFormat: PixelFormat
    ) throws(ImagingError) -> Int {
        if pixelFormat.isYUV {
            return try ChromaPlanes.contiguousLayout(width: width, height: height, bytesPerRow: bytesPerRow,
                                                     pixelFormat: pixelFormat).total
        }
        return try packedByteCount(width: width, height: height, bytesPerRow: bytesPerRow,
                                   bytesPerPixel: pixelFormat.bytesPerPixel)
    }

    /// `bytesPerRow * (height - 1) + width * bytesPerPixel`, checked.
    static func packedByteCount(width: Int, height: Int, bytesPerRow: Int, bytesPerPixel: Int) throws(ImagingError) -> Int {
        guard width > 0, height > 0 else { throw .emptyImage(width: width, height: height) }
        let (rowBytes, overflow) = width.multipliedReportingOverflow(by: bytesPerPixel)
        guard !overflow else { throw .tooLarge(width: width, height: height, bytesPerRow: bytesPerRow) }
        guard bytesPerRow >= rowBytes else {
            throw .rowTooShort(bytesPerRow: bytesPerRow, width: width, bytesPerPixel: bytesPerPixel)
        }
        let (total, overflow2) = bytesPerRow.multipliedReportingOverflow(by: height)
        guard !overflow2, total < Int.max / 2 else {
            throw .tooLarge(width: width, height: height, bytesPerRow: bytesPerRow)
        }
        return total - bytesPerRow + rowBytes
    }

    /// Width of the upright (displayed) image.
    public var uprightWidth: Int { orientation.swapsDimensions ? height : width }
    /// Height of the upright (displayed) image.
    public var uprightHeight: Int { orientation.swapsDimensions ? width : height }

    /// Calls `body` with a view of `pixels` (rows `bytesPerRow` apart, tightly packed when nil; a YUV format's
    /// planes one after the other as `init(pixels:...)` reads them).
    /// - Parameters:
    ///   - pixels: the bytes.
    ///   - width: stored width, in pixels.
    ///   - height: stored height, in pixels.
    ///   - bytesPerRow: bytes from one stored row to the next; nil for tightly packed rows.
    ///   - pixelFormat: the layout of the pixels.
    ///   - orientation: how the stored pixels are shown upright.
    ///   - colorSpace: how YUV samples become RGB (unused for the packed formats).
    ///   - body: reads the view; it is valid only during the call.
    /// - Returns: what `body` returns.
    /// - Throws: the `ImagingError`s of `init(pixels:...)`, or whatever `body` throws.
    public static func withPixels<R>(
        _ pixels: [UInt8], width: Int, height: Int, bytesPerRow: Int? = nil, pixelFormat: PixelFormat,
        orientation: ImageOrientation = .up, colorSpace: YUVColorSpace = .default, _ body: (ImageView) throws -> R
    ) throws -> R {
        let (packed, overflow) = width.multipliedReportingOverflow(by: pixelFormat.bytesPerPixel)
        if bytesPerRow == nil, overflow { throw ImagingError.tooLarge(width: width, height: height, bytesPerRow: 0) }
        return try pixels.withUnsafeBytes { raw in
            let view = try ImageView(pixels: raw, width: width, height: height, bytesPerRow: bytesPerRow ?? packed,
                                     pixelFormat: pixelFormat, orientation: orientation, colorSpace: colorSpace)
            return try body(view)
        }
    }
}

extension ImageView {
    /// The same pixels shown with another orientation: no copy, the same memory borrowed.
    /// - Parameter orientation: how the stored pixels are to be shown upright in the new view.
    /// - Returns: a view of the same stored pixels, format and planes, with `orientation`.
    public func withOrientation(_ orientation: ImageOrientation) -> ImageView {
        ImageView(base: baseAddress, width: width, height: height, bytesPerRow: bytesPerRow, pixelFormat: pixelFormat,
                  chroma: chroma, colorSpace: colorSpace, orientation: orientation)
    }

    /// The same pixels with the upright image turned `quarterTurns` more times 90° clockwise (no copy): a
    /// view whose orientation is this one's composed with the turns.
    /// - Parameter quarterTurns: clockwise quarter turns applied after this view's orientation; any integer
    ///   (taken modulo 4, negative turns counter-clockwise).
    /// - Returns: a view of the same stored pixels showing this view's upright image turned.
    public func turned(quarterTurns: Int) -> ImageView {
        // Reduced first: any Int is a valid count of turns, and the sum must not overflow.
        withOrientation(ImageOrientation(quarterTurns: orientation.quarterTurns + quarterTurns % 4,
                                         mirrored: orientation.isMirrored))
    }
}
