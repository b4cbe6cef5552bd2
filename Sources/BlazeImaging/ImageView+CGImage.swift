// A `CGImage` drawn once into a BGRA `ImageBuffer` (the bitmap's layout and size checks are plain Swift:
// `ImageBuffer.bgraLayout`, PixelBufferLayout.swift). Linux CI builds this file compiled out; it has not been
// compiled on an Apple platform here.

#if canImport(CoreGraphics)
import CoreGraphics

extension ImageBuffer {
    /// The pixels of a `CGImage` (a `UIImage`'s `cgImage`, a `CGImageSource` image), drawn once into a BGRA
    /// bitmap in sRGB: premultiplied alpha first, 32-bit little-endian words, so bytes blue, green, red, alpha
    /// (`.bgra8`; alpha is ignored by every pipeline, and transparent pixels come out darkened by it).
    ///
    /// `CGImage` has no orientation: give the one its container had, e.g.
    /// `ImageBuffer(cgImage: uiImage.cgImage!, orientation: ImageOrientation(uiImage.imageOrientation))`.
    /// - Parameters:
    ///   - image: the picture; any format and colour space CoreGraphics draws.
    ///   - orientation: how the picture is shown upright.
    /// - Throws: `ImagingError.emptyImage`, `.tooLarge` (from `bgraLayout`), or `.invalidPixelBuffer` when
    ///   CoreGraphics cannot make the bitmap context.
    public init(cgImage image: CGImage, orientation: ImageOrientation = .up) throws(ImagingError) {
        let (width, height) = (image.width, image.height)
        let layout = try Self.bgraLayout(width: width, height: height)
        var pixels = [UInt8](repeating: 0, count: layout.byteCount)
        let drawn = pixels.withUnsafeMutableBytes { raw -> Bool in
            guard let space = CGColorSpace(name: CGColorSpace.sRGB),
                  let context = CGContext(data: raw.baseAddress, width: width, height: height, bitsPerComponent: 8,
                                          bytesPerRow: layout.bytesPerRow, space: space,
                                          bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue
                                              | CGBitmapInfo.byteOrder32Little.rawValue)
            else { return false }
            context.draw(image, in: CGRect(x: 0, y: 0, width: width, height: height))
            return true
        }
        guard drawn else { throw .invalidPixelBuffer("no BGRA bitmap context for a \(width)x\(height) CGImage") }
        self.init(width: width, height: height, pixelFormat: .bgra8, pixels: pixels, orientation: orientation)
    }
}

extension ImageView {
    /// Calls `body` with a view of a `CGImage`, drawn once into a BGRA bitmap (`ImageBuffer(cgImage:orientation:)`).
    /// - Parameters:
    ///   - image: the picture.
    ///   - orientation: how the picture is shown upright.
    ///   - body: reads the view; it is valid only during the call.
    /// - Returns: what `body` returns.
    /// - Throws: the errors of `ImageBuffer(cgImage:orientation:)`, or whatever `body` throws.
    public static func withCGImage<R>(_ image: CGImage, orientation: ImageOrientation = .up,
                                      _ body: (ImageView) throws -> R) throws -> R {
        try ImageBuffer(cgImage: image, orientation: orientation).withView(body)
    }
}
#endif
