import BlazeImageIO
import BlazeImaging
import Foundation

/// Camera-sized JPEGs made from the sample pictures (issue 25's shrink-on-load measurements): a sample upscaled
/// (bilinear, half-pixel centres) to about 12 or 24 megapixels and encoded by libjpeg at a given quality, in
/// memory, once per process.
///
/// An upscale is smoother than a camera's photo of the same size (no detail above the sample's own
/// resolution), so it tests the geometry of a scaled decode (where boxes and points land), not a camera's noise.
public enum LargeSamples {
    private struct Key: Hashable {
        var file: String
        var megapixels: Int
        var quality: Int
        var orientation: ImageOrientation
    }
    private static let made = Cache<Key, [UInt8]>()

    /// The upscaled size of a `width` x `height` picture with about `megapixels` million pixels, keeping its
    /// aspect ratio: the factor sqrt(megapixels · 10^6 / (width · height)), sides rounded.
    public static func size(width: Int, height: Int, megapixels: Int) -> (width: Int, height: Int) {
        let factor = (Double(megapixels) * 1e6 / Double(width * height)).squareRoot()
        return (Int((Double(width) * factor).rounded()), Int((Double(height) * factor).rounded()))
    }

    /// `image` (rgb8, upright) resampled to `width` x `height` with bilinear interpolation at half-pixel centres
    /// (edges clamped), as OpenCV's `INTER_LINEAR` and Pillow's `BILINEAR` do when enlarging.
    public static func resized(_ image: ImageBuffer, width: Int, height: Int) -> ImageBuffer {
        precondition(image.pixelFormat == .rgb8 && image.orientation == .up && width > 0 && height > 0)
        let sw = image.width, sh = image.height
        // Per output column: the two source columns' byte offsets and the weight of the right one.
        var x0 = [Int](repeating: 0, count: width), x1 = x0, wx = [Float](repeating: 0, count: width)
        for x in 0..<width {
            let s = min(max((Double(x) + 0.5) * Double(sw) / Double(width) - 0.5, 0), Double(sw - 1))
            let left = Int(s)
            x0[x] = left * 3
            x1[x] = min(left + 1, sw - 1) * 3
            wx[x] = Float(s - Double(left))
        }
        var out = [UInt8](repeating: 0, count: width * height * 3)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                var top = [Float](repeating: 0, count: sw * 3), bottom = top
                for y in 0..<height {
                    let s = min(max((Double(y) + 0.5) * Double(sh) / Double(height) - 0.5, 0), Double(sh - 1))
                    let upper = Int(s), lower = min(upper + 1, sh - 1), wy = Float(s - Double(upper))
                    for i in 0..<(sw * 3) {
                        top[i] = Float(src[upper * sw * 3 + i])
                        bottom[i] = Float(src[lower * sw * 3 + i])
                    }
                    let row = y * width * 3
                    for x in 0..<width {
                        let a = x0[x], b = x1[x], w = wx[x]
                        for c in 0..<3 {
                            let t = top[a + c] + (top[b + c] - top[a + c]) * w
                            let u = bottom[a + c] + (bottom[b + c] - bottom[a + c]) * w
                            dst[row + x * 3 + c] = UInt8(min(max((t + (u - t) * wy).rounded(), 0), 255))
                        }
                    }
                }
            }
        }
        return ImageBuffer(width: width, height: height, pixelFormat: .rgb8, pixels: out)
    }

    /// `image` (rgb8, upright) reduced by an integer `factor` with a box filter: each output pixel is the rounded
    /// mean of a `factor` x `factor` block (the last row and column of blocks cover what is left). An
    /// anti-aliased small copy of a large picture, against which the detectors' inputs can be compared.
    public static func boxReduced(_ image: ImageBuffer, factor: Int) -> ImageBuffer {
        precondition(image.pixelFormat == .rgb8 && image.orientation == .up && factor >= 1)
        let sw = image.width, sh = image.height
        let width = (sw + factor - 1) / factor, height = (sh + factor - 1) / factor
        var sums = [UInt32](repeating: 0, count: width * height * 3), counts = [UInt32](repeating: 0, count: width * height)
        image.pixels.withUnsafeBufferPointer { src in
            for y in 0..<sh {
                let oy = y / factor
                for x in 0..<sw {
                    let o = oy * width + x / factor, i = (y * sw + x) * 3
                    sums[o * 3] += UInt32(src[i]); sums[o * 3 + 1] += UInt32(src[i + 1]); sums[o * 3 + 2] += UInt32(src[i + 2])
                    counts[o] += 1
                }
            }
        }
        var out = [UInt8](repeating: 0, count: width * height * 3)
        for o in 0..<(width * height) {
            for c in 0..<3 { out[o * 3 + c] = UInt8((sums[o * 3 + c] + counts[o] / 2) / counts[o]) }
        }
        return ImageBuffer(width: width, height: height, pixelFormat: .rgb8, pixels: out)
    }

    /// The stored pixels that, shown with `orientation`, give `upright` (rgb8, `.up`), tagged with it.
    public static func stored(_ upright: ImageBuffer, for orientation: ImageOrientation) -> ImageBuffer {
        precondition(upright.pixelFormat == .rgb8 && upright.orientation == .up)
        guard orientation != .up else { return upright }
        let w = upright.width, h = upright.height
        let storedW = orientation.swapsDimensions ? h : w, storedH = orientation.swapsDimensions ? w : h
        var out = [UInt8](repeating: 0, count: w * h * 3)
        for v in 0..<h {
            for u in 0..<w {
                let p = orientation.storedPixel(u: u, v: v, width: storedW, height: storedH)
                let from = (v * w + u) * 3, to = (p.y * storedW + p.x) * 3
                out[to] = upright.pixels[from]
                out[to + 1] = upright.pixels[from + 1]
                out[to + 2] = upright.pixels[from + 2]
            }
        }
        return ImageBuffer(width: storedW, height: storedH, pixelFormat: .rgb8, pixels: out, orientation: orientation)
    }

    /// A sample of Models/samples upscaled to about `megapixels` million pixels and encoded as a baseline JPEG
    /// (4:2:0) at libjpeg's `quality`, its pixels stored for `orientation` (an EXIF tag records it), so that it
    /// shows upright. Made once per process.
    public static func jpeg(_ file: String, megapixels: Int, quality: Int = 90,
                            orientation: ImageOrientation = .up) throws -> [UInt8] {
        try made.value(Key(file: file, megapixels: megapixels, quality: quality, orientation: orientation)) {
            let upright = try Samples.decode(file).uprightRGB()
            let size = size(width: upright.width, height: upright.height, megapixels: megapixels)
            let large = resized(upright, width: size.width, height: size.height)
            return try JPEGEncoder.encode(stored(large, for: orientation), quality: quality)
        }
    }
}
