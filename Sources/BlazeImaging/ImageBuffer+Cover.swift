extension ImageBuffer {
    /// The picture scaled to cover a `width x height` frame, as upright rgb8: its aspect ratio kept, centred, and
    /// what overflows cropped (CSS's `object-fit: cover`). For a background picture of another size than the
    /// frame it goes behind (`BackgroundReplacer` takes only a picture of the image's own size).
    ///
    /// Bilinear interpolation with half-pixel centres and clamped edges, so it blurs rather than averages when it
    /// reduces a picture by more than 2x (for a background, fine). A picture already upright rgb8 of that size is
    /// returned as it is.
    /// - Parameters:
    ///   - width: the frame's width in pixels, at least 1.
    ///   - height: the frame's height in pixels, at least 1.
    /// - Returns: an upright rgb8 picture of `width` x `height` pixels.
    /// - Throws: `ImagingError.invalidOptions` for a size below 1x1 or above `ImagingError`'s pixel limit, and
    ///   whatever `uprightRGB()` throws for the picture.
    public func coverResized(width: Int, height: Int) throws(ImagingError) -> ImageBuffer {
        guard width >= 1, height >= 1, width.multipliedReportingOverflow(by: height).partialValue <= 1 << 28,
              width <= 1 << 20, height <= 1 << 20 else {
            throw .invalidOptions("cover size \(width)x\(height) must be at least 1x1 and at most 2^28 pixels")
        }
        let picture = pixelFormat == .rgb8 && orientation == .up ? self : try uprightRGB()
        if picture.width == width && picture.height == height { return picture }
        return Self.cover(picture, width: width, height: height)
    }

    private static func cover(_ picture: ImageBuffer, width: Int, height: Int) -> ImageBuffer {
        let sw = picture.width, sh = picture.height
        let scale = max(Double(width) / Double(sw), Double(height) / Double(sh))
        // Source position of destination pixel centre d: (d + 0.5) / scale − 0.5 + offset, offset centring the crop.
        let offsetX = (Double(sw) - Double(width) / scale) / 2, offsetY = (Double(sh) - Double(height) / scale) / 2
        func taps(_ d: Int, offset: Double, size: Int) -> (Int, Int, Float) {
            let f = min(max((Double(d) + 0.5) / scale - 0.5 + offset, 0), Double(size - 1))
            let low = Int(f.rounded(.down))
            return (low, min(low + 1, size - 1), Float(f - Double(low)))
        }
        let columns = (0..<width).map { taps($0, offset: offsetX, size: sw) }
        var out = [UInt8](repeating: 0, count: width * height * 3)
        picture.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    let (y0, y1, wy) = taps(y, offset: offsetY, size: sh)
                    let row0 = y0 * sw * 3, row1 = y1 * sw * 3
                    for x in 0..<width {
                        let (x0, x1, wx) = columns[x]
                        for c in 0..<3 {
                            let top = Float(src[row0 + x0 * 3 + c]) * (1 - wx) + Float(src[row0 + x1 * 3 + c]) * wx
                            let bottom = Float(src[row1 + x0 * 3 + c]) * (1 - wx) + Float(src[row1 + x1 * 3 + c]) * wx
                            dst[(y * width + x) * 3 + c] = UInt8(min(top * (1 - wy) + bottom * wy + 0.5, 255))
                        }
                    }
                }
            }
        }
        return ImageBuffer(width: width, height: height, pixelFormat: .rgb8, pixels: out)
    }
}
