/// Limits applied while decoding.
public struct ImageDecodingOptions: Hashable, Sendable {
    /// The largest `width * height` accepted, checked against the file's header before the pixels (or any
    /// buffer that grows with the image) are allocated. The default, 100 million pixels, admits a 100 MP
    /// photo (up to 400 MB decoded as RGBA).
    public var maximumPixelCount: Int

    public init(maximumPixelCount: Int = 100_000_000) {
        self.maximumPixelCount = maximumPixelCount
    }
}
