extension RGBImage {
    /// Every channel multiplied by `factor` (below 1 darkens, above 1 brightens), rounded to the nearest byte
    /// and clipped to 0...255, as a shorter or longer exposure of the same scene (on the encoded values).
    public func exposureScaled(_ factor: Double) -> RGBImage {
        precondition(factor >= 0 && factor.isFinite)
        var out = self
        for i in pixels.indices {
            out.pixels[i] = UInt8(min((Double(pixels[i]) * factor).rounded(), 255))
        }
        return out
    }
}
