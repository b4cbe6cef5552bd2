/// A view of pixels in the caller's memory: no copy is made.
///
/// The memory must stay valid and unchanged while `FaceDetector.detect` runs; the view does not own it.
/// Rows are `bytesPerRow` apart (which may exceed `width * bytesPerPixel`, as camera buffers pad rows).
public struct ImageView: @unchecked Sendable {
    public let baseAddress: UnsafeRawPointer
    /// Stored width in pixels (before orientation).
    public let width: Int
    /// Stored height in pixels (before orientation).
    public let height: Int
    public let bytesPerRow: Int
    public let pixelFormat: PixelFormat
    public let orientation: ImageOrientation

    /// Creates a view, checking that the geometry is consistent.
    /// - Throws: `FaceDetectorError.invalidImage` for a zero or negative size, rows shorter than a
    ///   line of pixels, or a size whose byte count overflows.
    public init(
        baseAddress: UnsafeRawPointer, width: Int, height: Int, bytesPerRow: Int,
        pixelFormat: PixelFormat, orientation: ImageOrientation = .up
    ) throws(FaceDetectorError) {
        guard width > 0, height > 0 else {
            throw .invalidImage("the image is \(width)x\(height) pixels; both sides must be at least 1")
        }
        let (rowBytes, overflow) = width.multipliedReportingOverflow(by: pixelFormat.bytesPerPixel)
        guard !overflow, bytesPerRow >= rowBytes else {
            throw .invalidImage("bytesPerRow \(bytesPerRow) is less than \(width) pixels x \(pixelFormat.bytesPerPixel) bytes")
        }
        let (total, overflow2) = bytesPerRow.multipliedReportingOverflow(by: height)
        guard !overflow2, total < Int.max / 2 else {
            throw .invalidImage("a \(width)x\(height) image with \(bytesPerRow) bytes per row is too large to address")
        }
        self.baseAddress = baseAddress
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.pixelFormat = pixelFormat
        self.orientation = orientation
    }

    /// Width of the upright (displayed) image.
    public var uprightWidth: Int { orientation.swapsDimensions ? height : width }
    /// Height of the upright (displayed) image.
    public var uprightHeight: Int { orientation.swapsDimensions ? width : height }

    /// Calls `body` with a view of `pixels`, checking that the array holds `bytesPerRow * height` bytes.
    public static func withPixels<R>(
        _ pixels: [UInt8], width: Int, height: Int, bytesPerRow: Int? = nil, pixelFormat: PixelFormat,
        orientation: ImageOrientation = .up, _ body: (ImageView) throws -> R
    ) throws -> R {
        let (packedRowBytes, rowOverflow) = width.multipliedReportingOverflow(by: pixelFormat.bytesPerPixel)
        let rowBytes = bytesPerRow ?? packedRowBytes
        let (needed, overflow) = rowBytes.multipliedReportingOverflow(by: max(height, 0))
        guard !(bytesPerRow == nil && rowOverflow), !overflow, pixels.count >= needed else {
            throw FaceDetectorError.invalidImage("\(pixels.count) bytes cannot hold \(height) rows of \(rowBytes) bytes")
        }
        return try pixels.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { throw FaceDetectorError.invalidImage("the image has no pixels") }
            let view = try ImageView(baseAddress: base, width: width, height: height, bytesPerRow: rowBytes,
                                     pixelFormat: pixelFormat, orientation: orientation)
            return try body(view)
        }
    }
}
