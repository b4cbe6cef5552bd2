/// Limits applied while reading and decoding.
public struct ImageDecodingOptions: Hashable, Sendable {
    /// The largest `width * height` accepted, checked against the file's header before the pixels (or any
    /// buffer that grows with the image) are allocated. The default, 100 million pixels, admits a 100 MP
    /// photo (up to 400 MB decoded as RGBA).
    public var maximumPixelCount: Int
    /// The largest file `decode(contentsOf:)` reads, in bytes, checked before anything is read or allocated.
    /// The default, 1 GiB, is far above any real compressed picture of `maximumPixelCount` pixels; raise it for
    /// uncompressed giants, lower it for a server that takes uploads.
    public var maximumFileBytes: Int
    /// The largest `width * height` the file's header may declare, checked before anything that grows with
    /// the image is allocated; nil (the default) means `maximumPixelCount`.
    ///
    /// It matters for scaled decodes (`ImageDecoder.decodeScaled`), where `maximumPixelCount` applies to the
    /// smaller decoded size: a JPEG declaring 100,000 x 100,000 pixels is still 12,500 x 12,500 at 1/8, and
    /// libjpeg reads every coefficient of the declared picture whatever the scale (a progressive JPEG keeps
    /// them all in memory: about 2 bytes per declared pixel and component). With the default, a scaled decode
    /// accepts no picture that a full decode would refuse for its size; raise it to let a scan shrink
    /// pictures larger than `maximumPixelCount` (panoramas) while still bounding the work per file.
    /// For a full decode the declared size is the decoded size, so both limits apply to it.
    public var maximumDeclaredPixelCount: Int?
    /// Whether pixels are converted to sRGB from the colour profile the file embeds (an ICC profile in JPEG's APP2
    /// markers, PNG's iCCP chunk, WebP's ICCP chunk, TIFF's ICCProfile tag or HEIF's `colr` box, or HEIF's nclx
    /// primaries), with LittleCMS at the perceptual intent. True by default, so that a Display P3 iPhone picture or
    /// an Adobe RGB photo keeps its colours; false returns the samples as stored. A profile that describes sRGB
    /// leaves the pixels as they are, and a malformed one, or one of another colour model than the pixels, is
    /// ignored (the samples as stored).
    public var convertsToSRGB: Bool = true

    /// Creates limits.
    /// - Parameters:
    ///   - maximumPixelCount: the largest decoded `width * height` accepted.
    ///   - maximumFileBytes: the largest file read, in bytes.
    ///   - maximumDeclaredPixelCount: the largest `width * height` a header may declare; nil means
    ///     `maximumPixelCount`.
    public init(maximumPixelCount: Int = 100_000_000, maximumFileBytes: Int = 1 << 30,
                maximumDeclaredPixelCount: Int? = nil) {
        self.maximumPixelCount = maximumPixelCount
        self.maximumFileBytes = maximumFileBytes
        self.maximumDeclaredPixelCount = maximumDeclaredPixelCount
    }

    /// The limit on the declared size in force: `maximumDeclaredPixelCount`, or `maximumPixelCount`.
    var effectiveDeclaredPixelLimit: Int { maximumDeclaredPixelCount ?? maximumPixelCount }
}
