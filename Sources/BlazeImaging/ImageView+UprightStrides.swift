extension ImageView {
    /// How to walk the stored bytes in upright (displayed) order: the byte offset from `baseAddress` of upright
    /// pixel (0, 0), and the byte steps to the next upright pixel to the right (`du`) and down (`dv`). Upright
    /// pixel (u, v) starts at `baseAddress + origin + u · du + v · dv`, for 0 ≤ u < `uprightWidth`,
    /// 0 ≤ v < `uprightHeight` (the same pixel as `orientation.storedPixel(u:v:width:height:)`).
    @inlinable
    public var uprightStrides: (origin: Int, du: Int, dv: Int) {
        let p = pixelFormat.bytesPerPixel, r = bytesPerRow
        let lastX = (width - 1) * p, lastY = (height - 1) * r
        switch orientation {
        case .up: return (0, p, r)
        case .upMirrored: return (lastX, -p, r)
        case .down: return (lastX + lastY, -p, -r)
        case .downMirrored: return (lastY, p, -r)
        case .leftMirrored: return (0, r, p)
        case .right: return (lastY, -r, p)
        case .rightMirrored: return (lastX + lastY, -r, -p)
        case .left: return (lastX, r, -p)
        }
    }
}
