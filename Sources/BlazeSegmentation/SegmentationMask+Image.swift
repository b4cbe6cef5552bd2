extension SegmentationMask {
    /// The mask as an 8-bit gray picture of its size: each probability clamped to 0...1 (NaN as 0) times
    /// 255, rounded half up (what `blazeface segment --mask-dir` writes and `POST /v1/segment` answers).
    /// - Returns: a `.gray8` buffer of `width x height`; empty for an inconsistent mask.
    public func grayscaleImage() -> ImageBuffer {
        guard isConsistent else { return ImageBuffer(width: 0, height: 0, pixelFormat: .gray8, pixels: []) }
        let pixels = values.map { value -> UInt8 in
            let m = value > 0 ? min(value, 1) : 0
            return UInt8(m * 255 + 0.5)
        }
        return ImageBuffer(width: width, height: height, pixelFormat: .gray8, pixels: pixels)
    }

    /// The share of the mask's values above 0.5, 0...1 (0 for an empty mask).
    public var personShare: Double {
        guard !values.isEmpty else { return 0 }
        return Double(values.reduce(0) { $1 > 0.5 ? $0 + 1 : $0 }) / Double(values.count)
    }
}
