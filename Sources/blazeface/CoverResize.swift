import BlazeImageIO

/// Scales an rgb8 picture to cover a `width x height` frame: the picture's aspect ratio is kept, it is centred,
/// and what overflows is cropped (CSS's `object-fit: cover`). Bilinear interpolation with half-pixel centres and
/// edges clamped, so it blurs rather than averages when it reduces a picture by more than 2x (for a background,
/// fine).
enum CoverResize {
    /// `picture` (upright rgb8) covering `width x height` (both at least 1), as upright rgb8.
    static func resize(_ picture: ImageBuffer, width: Int, height: Int) -> ImageBuffer {
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
