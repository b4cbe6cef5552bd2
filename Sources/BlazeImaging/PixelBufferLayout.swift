/// The CoreVideo pixel formats an `ImageView` reads without copying, by their four-character codes
/// (`CVPixelBufferGetPixelFormatType`). `ImageView.withPixelBuffer(_:orientation:_:)` chooses with it; the choice
/// is plain Swift so that it is tested everywhere.
public enum PixelBufferFormat: UInt32, Hashable, Sendable, CaseIterable {
    /// `kCVPixelFormatType_32BGRA` ('BGRA'): one plane of blue, green, red, alpha bytes.
    case bgra = 0x4247_5241
    /// `kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange` ('420v'): a luma plane and an interleaved Cb, Cr plane,
    /// video range.
    case yuv420VideoRange = 0x3432_3076
    /// `kCVPixelFormatType_420YpCbCr8BiPlanarFullRange` ('420f'): as '420v', full range.
    case yuv420FullRange = 0x3432_3066

    /// The format of a four-character code.
    /// - Parameter fourCC: `CVPixelBufferGetPixelFormatType`'s value.
    /// - Throws: `ImagingError.unsupportedPixelBufferFormat` for any other format (convert such buffers, for
    ///   example with a `VTPixelTransferSession` or by asking the video data output for BGRA or '420v').
    public init(fourCC: UInt32) throws(ImagingError) {
        guard let format = PixelBufferFormat(rawValue: fourCC) else { throw .unsupportedPixelBufferFormat(fourCC: fourCC) }
        self = format
    }

    /// The view's pixel format: `.bgra8`, or `.nv12` for both YUV formats.
    public var pixelFormat: PixelFormat { self == .bgra ? .bgra8 : .nv12 }

    /// The YUV sample range ('420v' limited, '420f' full); nil for BGRA.
    public var range: YUVColorSpace.Range? {
        switch self {
        case .bgra: return nil
        case .yuv420VideoRange: return .limited
        case .yuv420FullRange: return .full
        }
    }

    /// The planes CoreVideo gives for the format: 1 for BGRA (not planar), 2 for the YUV formats.
    public var planeCount: Int { self == .bgra ? 1 : 2 }

    /// A four-character code as text ("420v"), with its hexadecimal value for codes that are not printable.
    /// - Parameter fourCC: the code, most significant byte first.
    /// - Returns: the four characters in quotes, or the hexadecimal value.
    public static func describe(fourCC: UInt32) -> String {
        let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: fourCC >> UInt32($0)) }
        guard bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else { return "0x" + String(fourCC, radix: 16) }
        return "'" + String(decoding: bytes, as: UTF8.self) + "'"
    }
}

extension YUVColorSpace {
    /// The colour space of a CoreVideo buffer: the matrix from its `kCVImageBufferYCbCrMatrixKey` attachment, the
    /// range from its format.
    ///
    /// "ITU_R_601_4" (`kCVImageBufferYCbCrMatrix_ITU_R_601_4`) is BT.601; anything else, and no attachment, is
    /// BT.709, the rule of Apple's own YUV samples ("not 601, so 709"). BT.709 is what HD camera formats attach;
    /// "ITU_R_2020", "SMPTE_240M_1995" and "P3_D65" are not modelled and get BT.709's weights, the nearest
    /// modelled ones.
    /// - Parameters:
    ///   - yCbCrMatrix: the attachment's string value (`kCVImageBufferYCbCrMatrix_...`), or nil without one.
    ///   - range: the sample range of the buffer's format (`PixelBufferFormat.range`).
    public init(yCbCrMatrix: String?, range: Range) {
        self.init(matrix: yCbCrMatrix == "ITU_R_601_4" ? .bt601 : .bt709, range: range)
    }
}

/// One plane of a CoreVideo pixel buffer as its accessors describe it (for a non-planar buffer, the whole buffer:
/// `CVPixelBufferGetBaseAddress`, `GetWidth`, `GetHeight`, `GetBytesPerRow`).
public struct PixelBufferPlane {
    /// `CVPixelBufferGetBaseAddressOfPlane`: the first row's first byte; nil when the buffer is not locked.
    public var baseAddress: UnsafeRawPointer?
    /// `CVPixelBufferGetWidthOfPlane`: samples per row (a CbCr pair counts as one).
    public var width: Int
    /// `CVPixelBufferGetHeightOfPlane`: rows.
    public var height: Int
    /// `CVPixelBufferGetBytesPerRowOfPlane`: bytes from one row to the next, padding included.
    public var bytesPerRow: Int

    /// A plane as CoreVideo describes it.
    /// - Parameters:
    ///   - baseAddress: the first row's first byte (nil if the buffer is not locked).
    ///   - width: samples per row.
    ///   - height: rows.
    ///   - bytesPerRow: bytes from one row to the next.
    public init(baseAddress: UnsafeRawPointer?, width: Int, height: Int, bytesPerRow: Int) {
        self.baseAddress = baseAddress
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
    }

    /// The plane's bytes: `bytesPerRow · (height − 1) + width · bytesPerSample` from its base address, after checking
    /// that it holds `neededWidth x neededHeight` samples.
    /// - Throws: `ImagingError.invalidPixelBuffer` (no base address, fewer samples than needed), `.rowTooShort`,
    ///   `.tooLarge`.
    func bytes(index: Int, neededWidth: Int, neededHeight: Int, bytesPerSample: Int)
        throws(ImagingError) -> UnsafeRawBufferPointer {
        guard let baseAddress else {
            throw .invalidPixelBuffer("plane \(index) has no base address: lock the buffer first")
        }
        guard width >= neededWidth, height >= neededHeight else {
            throw .invalidPixelBuffer("plane \(index) is \(width)x\(height) samples; the image needs "
                                      + "\(neededWidth)x\(neededHeight)")
        }
        let count = try ImageView.packedByteCount(width: width, height: height, bytesPerRow: bytesPerRow,
                                                  bytesPerPixel: bytesPerSample)
        return UnsafeRawBufferPointer(start: baseAddress, count: count)
    }
}

extension ImageView {
    /// A view of a locked CoreVideo pixel buffer, from what its accessors return: the format (BGRA, '420v' or
    /// '420f'), the planes, and the `kCVImageBufferYCbCrMatrixKey` attachment. No copy. This is the plain-Swift part
    /// of `withPixelBuffer(_:orientation:_:)`, which reads these values and calls it; it checks every plane.
    /// - Parameters:
    ///   - fourCC: `CVPixelBufferGetPixelFormatType`.
    ///   - width: `CVPixelBufferGetWidth`, in pixels.
    ///   - height: `CVPixelBufferGetHeight`, in pixels.
    ///   - planes: for BGRA the one buffer-wide plane; for '420v' and '420f' planes 0 (luma) and 1 (CbCr).
    ///   - yCbCrMatrix: the `kCVImageBufferYCbCrMatrixKey` attachment's string, or nil (see
    ///     `YUVColorSpace.init(yCbCrMatrix:range:)`); unused for BGRA.
    ///   - orientation: how the stored pixels are shown upright.
    /// - Throws: `ImagingError.unsupportedPixelBufferFormat` for another format; `.invalidPixelBuffer` for a
    ///   wrong number of planes, a plane without a base address (an unlocked buffer) or with fewer samples than
    ///   the image needs (luma `width x height`, chroma `(width + 1) / 2 x (height + 1) / 2` pairs); the errors of
    ///   `init(pixels:...)` and `init(width:height:luma:chroma:...)` (`.emptyImage`, `.rowTooShort`, `.tooLarge`).
    public init(pixelBufferFormat fourCC: UInt32, width: Int, height: Int, planes: [PixelBufferPlane],
                yCbCrMatrix: String?, orientation: ImageOrientation = .up) throws(ImagingError) {
        let format = try PixelBufferFormat(fourCC: fourCC)
        guard planes.count == format.planeCount else {
            throw .invalidPixelBuffer("\(PixelBufferFormat.describe(fourCC: fourCC)) has \(format.planeCount) "
                                      + "plane(s); \(planes.count) given")
        }
        guard width > 0, height > 0 else { throw .emptyImage(width: width, height: height) }
        guard let range = format.range else {
            let pixels = try planes[0].bytes(index: 0, neededWidth: width, neededHeight: height, bytesPerSample: 4)
            try self.init(pixels: pixels, width: width, height: height, bytesPerRow: planes[0].bytesPerRow,
                          pixelFormat: .bgra8, orientation: orientation)
            return
        }
        let (w, h) = ChromaPlanes.size(lumaWidth: width, lumaHeight: height)
        let luma = try planes[0].bytes(index: 0, neededWidth: width, neededHeight: height, bytesPerSample: 1)
        let chroma = try planes[1].bytes(index: 1, neededWidth: w, neededHeight: h, bytesPerSample: 2)
        try self.init(width: width, height: height, luma: Plane(pixels: luma, bytesPerRow: planes[0].bytesPerRow),
                      chroma: Plane(pixels: chroma, bytesPerRow: planes[1].bytesPerRow), pixelFormat: .nv12,
                      colorSpace: YUVColorSpace(yCbCrMatrix: yCbCrMatrix, range: range), orientation: orientation)
    }
}

extension ImageBuffer {
    /// The bitmap `ImageBuffer(cgImage:orientation:)` draws into: tightly packed BGRA rows (`4 · width` bytes).
    /// - Throws: `ImagingError.emptyImage` (a side below 1) or `.tooLarge` (the byte count overflows).
    static func bgraLayout(width: Int, height: Int) throws(ImagingError) -> (bytesPerRow: Int, byteCount: Int) {
        guard width > 0, height > 0 else { throw .emptyImage(width: width, height: height) }
        let (bytesPerRow, overflow) = width.multipliedReportingOverflow(by: 4)
        guard !overflow else { throw .tooLarge(width: width, height: height, bytesPerRow: 0) }
        let count = try ImageView.packedByteCount(width: width, height: height, bytesPerRow: bytesPerRow,
                                                  bytesPerPixel: 4)
        return (bytesPerRow, count)
    }
}
