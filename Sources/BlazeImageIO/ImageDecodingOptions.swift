/// Limits applied while reading and decoding.
public struct ImageDecodingOptions: Hashable, Sendable {
    /// The largest `width * height` accepted, checked against the file's header before the pixels (or any
    /// buffer that grows with the image) are allocated. The default, 100 million pixels, admits a 100 MP
    /// photo (up to 400 MB decoded as RGBA).
    public var maximumPixelCount: Int
    /// The largest file `decode(contentsOf:)` reads, in bytes, checked before anything is read or allocated.
    /// The default, 1 GiB, is far above any real JPEG or PNG of `maximumPixelCount` pixels; raise it for
    /// uncompressed giants, lower it for a server that takes uploads.
    public var maximumFileBytes: Int

    /// Creates limits.
    /// - Parameters:
    ///   - maximumPixelCount: the largest `width * height` accepted.
    ///   - maximumFileBytes: the largest file read, in bytes.
    public init(maximumPixelCount: Int = 100_000_000, maximumFileBytes: Int = 1 << 30) {
        self.maximumPixelCount = maximumPixelCount
        self.maximumFileBytes = maximumFileBytes
    }
}
