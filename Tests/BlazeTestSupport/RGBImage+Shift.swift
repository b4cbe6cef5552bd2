extension RGBImage {
    /// The picture moved by (`dx`, `dy`) pixels (right and down for positive values) within the same size:
    /// out(x, y) = in(x − dx, y − dy), and `fill` where that falls outside.
    public func shifted(dx: Int, dy: Int, fill: UInt8) -> RGBImage {
        var out = RGBImage(width: width, height: height, fill: fill)
        for y in 0..<height where (0..<height).contains(y - dy) {
            for x in 0..<width where (0..<width).contains(x - dx) {
                let from = offset(x - dx, y - dy), to = out.offset(x, y)
                out.pixels[to] = pixels[from]
                out.pixels[to + 1] = pixels[from + 1]
                out.pixels[to + 2] = pixels[from + 2]
            }
        }
        return out
    }
}
