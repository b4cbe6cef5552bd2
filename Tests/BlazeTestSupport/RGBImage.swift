/// An 8-bit RGB picture, rows tightly packed, top row first: the test pictures and the goldens' recipes.
///
/// Every transformation here is exact integer arithmetic, byte for byte the same as the operations of
/// Tests/Goldens/recipes.py (which generate the MediaPipe goldens' pictures). Preconditions guard the
/// arguments: these are test helpers, given fixed values.
public struct RGBImage: Hashable, Sendable {
    public var width: Int
    public var height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 3)
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A picture filled with R = G = B = `fill`.
    public init(width: Int, height: Int, fill: UInt8) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: fill, count: width * height * 3))
    }

    /// Offset of pixel (x, y)'s red byte.
    public func offset(_ x: Int, _ y: Int) -> Int { (y * width + x) * 3 }

    /// Builds a `width` x `height` picture whose pixel (x, y) is this picture's pixel `source(x, y)`.
    private func remapped(width: Int, height: Int, _ source: (Int, Int) -> (x: Int, y: Int)) -> RGBImage {
        var out = RGBImage(width: width, height: height, fill: 0)
        for y in 0..<height {
            for x in 0..<width {
                let (sx, sy) = source(x, y)
                let from = offset(sx, sy), to = out.offset(x, y)
                out.pixels[to] = pixels[from]
                out.pixels[to + 1] = pixels[from + 1]
                out.pixels[to + 2] = pixels[from + 2]
            }
        }
        return out
    }

    /// Copies `source` with its top-left corner at (x, y); it must fit.
    public mutating func place(_ source: RGBImage, x: Int, y: Int) {
        precondition(x >= 0 && y >= 0 && x + source.width <= width && y + source.height <= height)
        for row in 0..<source.height {
            let from = source.offset(0, row), to = offset(x, y + row)
            pixels.replaceSubrange(to..<to + source.width * 3, with: source.pixels[from..<from + source.width * 3])
        }
    }

    /// Columns `x` and rows `y` (all rows if nil).
    public func cropped(x: Range<Int>, y: Range<Int>? = nil) -> RGBImage {
        let rows = y ?? 0..<height
        precondition(x.lowerBound >= 0 && x.upperBound <= width && rows.lowerBound >= 0 && rows.upperBound <= height)
        var out = [UInt8]()
        out.reserveCapacity(x.count * rows.count * 3)
        for row in rows { out += pixels[offset(x.lowerBound, row)..<offset(x.upperBound, row)] }
        return RGBImage(width: x.count, height: rows.count, pixels: out)
    }

    /// The pictures side by side (equal heights).
    public static func hconcat(_ parts: [RGBImage]) -> RGBImage {
        let height = parts[0].height
        precondition(parts.allSatisfy { $0.height == height })
        var out = RGBImage(width: parts.map(\.width).reduce(0, +), height: height, fill: 0)
        var x = 0
        for part in parts {
            out.place(part, x: x, y: 0)
            x += part.width
        }
        return out
    }

    /// The 2x2 box average `(a + b + c + d + 2) / 4` in integers (even sizes only).
    public func downscaled2() -> RGBImage {
        precondition(width % 2 == 0 && height % 2 == 0)
        return boxDownscaled(2)
    }

    /// The k x k box average `(sum of the k·k bytes + k·k / 2) / (k·k)` in integers (rounding half up), of
    /// size `width / k` x `height / k`: leftover columns and rows are dropped.
    public func boxDownscaled(_ k: Int) -> RGBImage {
        precondition(k >= 1)
        var out = RGBImage(width: width / k, height: height / k, fill: 0)
        let area = k * k
        for y in 0..<out.height {
            for x in 0..<out.width {
                for c in 0..<3 {
                    var sum = 0
                    for dy in 0..<k {
                        for dx in 0..<k { sum += Int(pixels[offset(k * x + dx, k * y + dy) + c]) }
                    }
                    out.pixels[out.offset(x, y) + c] = UInt8((sum + area / 2) / area)
                }
            }
        }
        return out
    }

    /// Each pixel repeated `factor` x `factor` times.
    public func upscaled(_ factor: Int) -> RGBImage {
        precondition(factor >= 1)
        return remapped(width: width * factor, height: height * factor) { x, y in (x / factor, y / factor) }
    }

    /// The horizontal mirror: out(x, y) = in(width − 1 − x, y).
    public func mirrored() -> RGBImage {
        remapped(width: width, height: height) { x, y in (width - 1 - x, y) }
    }

    /// Turned `k` quarter turns counterclockwise as displayed, as `numpy.rot90(in, k)`: k = 1: out is
    /// height x width, out(x, y) = in(width − 1 − y, x); k = 2: out(x, y) = in(width − 1 − x, height − 1 − y);
    /// k = 3: out(x, y) = in(y, height − 1 − x). Any integer k (taken modulo 4).
    public func rotated90(_ k: Int) -> RGBImage {
        switch ((k % 4) + 4) % 4 {
        case 1: return remapped(width: height, height: width) { x, y in (width - 1 - y, x) }
        case 2: return remapped(width: width, height: height) { x, y in (width - 1 - x, height - 1 - y) }
        case 3: return remapped(width: height, height: width) { x, y in (y, height - 1 - x) }
        default: return self
        }
    }

    /// Turned by the angle with cosine `cos / den` and sine `sin / den` (clockwise as displayed for a positive
    /// sine, y being down) about the centres, onto a `canvasWidth` x `canvasHeight` canvas filled with `fill`;
    /// nearest neighbour, integers only (`cos² + sin² = den²`, `den > 0`). For canvas pixel (x, y):
    /// u = 2x + 1 − Wo, v = 2y + 1 − Ho, sx = ⌊(den·W + cos·u + sin·v) / (2·den)⌋,
    /// sy = ⌊(den·H − sin·u + cos·v) / (2·den)⌋ (floor division), the pixel in(sx, sy) if inside, else `fill`.
    public func rotated(cos c: Int, sin s: Int, den q: Int, canvasWidth: Int, canvasHeight: Int, fill: UInt8) -> RGBImage {
        precondition(q > 0 && c * c + s * s == q * q)
        func floorDiv(_ a: Int, _ b: Int) -> Int {
            let quotient = a / b
            return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
        }
        var out = RGBImage(width: canvasWidth, height: canvasHeight, fill: fill)
        for y in 0..<canvasHeight {
            let v = 2 * y + 1 - canvasHeight
            for x in 0..<canvasWidth {
                let u = 2 * x + 1 - canvasWidth
                let sx = floorDiv(q * width + c * u + s * v, 2 * q)
                let sy = floorDiv(q * height - s * u + c * v, 2 * q)
                guard sx >= 0, sx < width, sy >= 0, sy < height else { continue }
                let from = offset(sx, sy), to = out.offset(x, y)
                out.pixels[to] = pixels[from]
                out.pixels[to + 1] = pixels[from + 1]
                out.pixels[to + 2] = pixels[from + 2]
            }
        }
        return out
    }

    /// Integer luma `(299 R + 587 G + 114 B + 500) / 1000`, one byte per pixel.
    public func grayBytes() -> [UInt8] {
        (0..<width * height).map { i in
            let r = Int(pixels[3 * i]), g = Int(pixels[3 * i + 1]), b = Int(pixels[3 * i + 2])
            return UInt8((299 * r + 587 * g + 114 * b + 500) / 1000)
        }
    }

    /// A gray picture as RGB with R = G = B.
    public static func replicating(gray: [UInt8], width: Int, height: Int) -> RGBImage {
        var pixels = [UInt8](repeating: 0, count: gray.count * 3)
        for i in gray.indices {
            pixels[3 * i] = gray[i]
            pixels[3 * i + 1] = gray[i]
            pixels[3 * i + 2] = gray[i]
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }
}
