internal import CBlazeImageCodecs

/// Decodes JPEG, PNG, WebP, TIFF, GIF, BMP, PNM, HEIF (HEIC) and AVIF files to 8-bit pixels, in sRGB; the format
/// is recognised from the content (`ImageFileFormat`), never from a file name.
///
/// JPEG (baseline, progressive, arithmetic-coded; libjpeg-turbo): grayscale becomes `.gray8`; YCbCr and
/// RGB become `.rgb8`; CMYK and YCCK become `.rgb8` (Adobe's inverted CMYK is recognised by its APP14
/// marker). The EXIF orientation is read from the APP1 "Exif" segment.
///
/// PNG (libpng): every bit depth, colour type and Adam7 interlacing. Gray becomes `.gray8`; RGB and
/// palettes become `.rgb8`; anything with alpha or a tRNS chunk becomes `.rgba8` (gray replicated,
/// alpha straight); 16-bit samples are rounded to 8 bits. The EXIF orientation is read from an eXIf chunk
/// placed before the image data.
///
/// WebP (libwebp): lossy and lossless, with or without alpha; an animation gives its first frame (on its
/// canvas). Alpha gives `.rgba8`, otherwise `.rgb8`. The EXIF orientation is read from the "EXIF" chunk.
///
/// TIFF (libtiff): the first page (directory) of a classic or BigTIFF file, every layout libtiff's RGBA interface
/// reads (strips or tiles, any compression libtiff was built with, 1 to 16 bits per sample, gray, RGB, palette,
/// CMYK, YCbCr, CIE Lab). Gray becomes `.gray8`; alpha gives `.rgba8` (straight, as PNG's; premultiplied files
/// are divided back); the rest `.rgb8`. 16-bit colour samples are rounded to 8 bits, 16-bit gray ones reduced to
/// their high byte (libtiff's choice: at most one level below rounding); CMYK is converted by libtiff. The Orientation
/// tag is the EXIF orientation (TIFF defined the values EXIF took over).
///
/// GIF (giflib): the first frame on the logical screen (enlarged to hold the frame if the frame reaches past
/// it). `.rgba8` when the frame has a transparent colour or does not cover the screen (uncovered pixels are
/// transparent), otherwise `.rgb8`. Only the records before the first frame's data and that data are read.
///
/// BMP and PNM (FFmpeg's libavcodec decoders): BMP of 1 to 32 bits per pixel, palettes and RLE; PBM, PGM and
/// PPM, ASCII (P1–P3) and binary (P4–P6), any maximum value up to 65535. Palettes and RGB become `.rgb8`, gray
/// and bilevel `.gray8`, 32-bit BMP with alpha `.rgba8`; deeper samples are rounded to 8 bits. No orientation.
/// FFmpeg reports a cut-off PNM as damaged (`.corrupt`); a BMP shorter than the size its header declares is
/// `.truncated`. FFmpeg refuses pictures beyond about 16,000 x 16,000 pixels itself, as invalid data (`.corrupt`).
///
/// HEIF/HEIC and AVIF (libheif; with libheif before 1.19, HEVC through FFmpeg's libavcodec and AV1 through dav1d;
/// with later ones, whichever codecs libheif has): the primary image, never a thumbnail. The container's crop,
/// rotation and mirroring (`clap`, `irot`, `imir`) are applied, so the image is upright and `orientation` is
/// `.up`; the EXIF orientation, informative in HEIF (iPhones write it equal to `irot`), is ignored. RGB becomes
/// `.rgb8` and anything with alpha `.rgba8` (straight alpha); 10- and 12-bit samples are reduced to 8 bits. No
/// scaled decode. A file whose codec libheif lacks is `.unsupported`, naming the codec. HEVC and AV1 data carry no
/// checksums: damage the codec cannot see decodes.
///
/// The other formats' orientations are reported in `ImageBuffer.orientation`, never applied. An embedded colour
/// profile (JPEG APP2 ICC, PNG iCCP, WebP ICCP, TIFF ICCProfile, HEIF `colr` ICC or nclx) is converted to sRGB with
/// LittleCMS (`ImageDecodingOptions.convertsToSRGB`); gAMA and cHRM alone are ignored. Damaged data otherwise
/// throws: a file that decodes never contains filler pixels. Thread-safe: calls share no state.
public enum ImageDecoder {
    /// Reads and decodes the file at `path`.
    ///
    /// - Parameters:
    ///   - path: the file to read.
    ///   - options: the largest file and image accepted.
    /// - Returns: the stored pixels (gray8, rgb8 or rgba8, as the file holds them) and the EXIF orientation.
    /// - Throws: `ImageIOError.cannotRead` when the file cannot be read, `.notARegularFile` for a FIFO, device
    ///   or directory, `.fileTooLarge` beyond `options.maximumFileBytes`, else as `decode(data:options:)`.
    public static func decode(
        contentsOf path: String, options: ImageDecodingOptions = .init()
    ) throws(ImageIOError) -> DecodedImage {
        try decode(data: FileIO.readAll(path, limit: options.maximumFileBytes), options: options)
    }

    /// Decodes an image held in memory; the format is recognised from the content (signature, ISO-BMFF brands),
    /// not a file name.
    ///
    /// The header is read first: its width and height are checked against `options.maximumPixelCount`
    /// (and `maximumDeclaredPixelCount` when set) before the pixels are allocated. Always a full decode;
    /// `decodeScaled(data:minimumLongSide:options:)` decodes a large JPEG smaller.
    /// - Parameters:
    ///   - data: the whole file.
    ///   - options: the largest image accepted (`maximumFileBytes` does not apply to bytes in memory).
    /// - Returns: the stored pixels (gray8, rgb8 or rgba8, as the file holds them) and the EXIF orientation.
    /// - Throws: `.unknownFormat` (no signature of a format it reads or knows), `.unsupported` naming a format
    ///   recognised but not read (JPEG XL, PSD, ...), `.truncated` (the data ends early, or is shorter than a
    ///   signature), `.corrupt`, `.zeroSize`, `.tooLarge` (for HEIF, also when the size before its crop exceeds
    ///   the limits), `.unsupported` (a variant or codec this build cannot decode; beyond libheif's own security
    ///   limits).
    public static func decode(
        data: [UInt8], options: ImageDecodingOptions = .init()
    ) throws(ImageIOError) -> DecodedImage {
        try decode(data: data, options: options, minimumLongSide: nil).image
    }

    /// Reads the file at `path` and decodes it at the smallest size whose longer side still has at least
    /// `minimumLongSide` pixels: a JPEG at 1/1, 1/2, 1/4 or 1/8 of its size with libjpeg's DCT scaling (the
    /// scaled inverse transform of each 8x8 block, several times cheaper than a full decode and then a
    /// resize); the other formats in full (they have no scaled decode; a HEIF thumbnail is not the picture).
    ///
    /// - Parameters:
    ///   - path: the file to read.
    ///   - minimumLongSide: the fewest pixels the decoded image's longer side may have (as stored; the
    ///     orientation does not change which side is longer). Values below 1 count as 1 (the smallest scale).
    ///   - options: the largest file, declared image and decoded image accepted.
    /// - Returns: the decoded image, the scale used and the full size, to map coordinates back.
    /// - Throws: as `decode(contentsOf:options:)`; `.tooLarge` when the declared size exceeds
    ///   `options.maximumDeclaredPixelCount` (by default `maximumPixelCount`) or the decoded size exceeds
    ///   `options.maximumPixelCount`.
    public static func decodeScaled(
        contentsOf path: String, minimumLongSide: Int, options: ImageDecodingOptions = .init()
    ) throws(ImageIOError) -> ScaledImage {
        try decodeScaled(data: FileIO.readAll(path, limit: options.maximumFileBytes), minimumLongSide: minimumLongSide,
                         options: options)
    }

    /// Decodes an image held in memory at the smallest size whose longer side still has at least
    /// `minimumLongSide` pixels (see `decodeScaled(contentsOf:minimumLongSide:options:)`).
    ///
    /// The scale is the smallest 1/d (d = 8, 4, 2, 1) with ceil(longer side / d) >= `minimumLongSide`. The
    /// header is read first; the declared size is checked against `options.maximumDeclaredPixelCount` (by
    /// default `maximumPixelCount`) and the decoded size against `options.maximumPixelCount`, both before
    /// any buffer that grows with the image is allocated.
    /// - Parameters:
    ///   - data: the whole file.
    ///   - minimumLongSide: the fewest pixels the decoded image's longer side may have; values below 1 count
    ///     as 1.
    ///   - options: the largest declared and decoded images accepted.
    /// - Returns: the decoded image (its orientation reported, not applied), the scale and the full size.
    /// - Throws: as `decode(data:options:)`.
    public static func decodeScaled(
        data: [UInt8], minimumLongSide: Int, options: ImageDecodingOptions = .init()
    ) throws(ImageIOError) -> ScaledImage {
        try decode(data: data, options: options, minimumLongSide: max(minimumLongSide, 1))
    }

    private static func decode(
        data: [UInt8], options: ImageDecodingOptions, minimumLongSide: Int?
    ) throws(ImageIOError) -> ScaledImage {
        guard let format = ImageFileFormat(sniffing: data) else {
            if ImageFileFormat.isSignaturePrefix(data) {
                throw .truncated("\(data.count) bytes are too few for an image signature")
            }
            if let other = OtherImageFormats.name(sniffing: data) {
                let names = ImageFileFormat.allCases.map(\.displayName).joined(separator: ", ")
                throw .unsupported("the data is \(other), a format this library does not decode (it reads \(names))")
            }
            throw .unknownFormat
        }
        let result = data.withUnsafeBufferPointer { buffer in
            Result { () throws(ImageIOError) in
                try decode(buffer, format: format, options: options, minimumLongSide: minimumLongSide)
            }
        }
        return try result.get()
    }

    /// The denominator d (8, 4, 2 or 1) of the smallest scale whose longer side, ceil(longSide / d), is
    /// still at least `minimumLongSide`.
    static func scaleDenominator(longSide: Int, minimumLongSide: Int) -> Int {
        for denominator in [8, 4, 2] where (longSide + denominator - 1) / denominator >= minimumLongSide {
            return denominator
        }
        return 1
    }

    /// The C back end of each format.
    private static func codec(_ format: ImageFileFormat) -> blz_codec {
        switch format {
        case .jpeg: return .BLZ_CODEC_JPEG
        case .png: return .BLZ_CODEC_PNG
        case .webp: return .BLZ_CODEC_WEBP
        case .tiff: return .BLZ_CODEC_TIFF
        case .gif: return .BLZ_CODEC_GIF
        case .bmp: return .BLZ_CODEC_BMP
        case .pnm: return .BLZ_CODEC_PNM
        case .heif, .avif: return .BLZ_CODEC_HEIF
        }
    }

    private static func decode(
        _ data: UnsafeBufferPointer<UInt8>, format: ImageFileFormat, options: ImageDecodingOptions,
        minimumLongSide: Int?
    ) throws(ImageIOError) -> ScaledImage {
        let codec = codec(format)
        guard let decoder = blz_decoder_create(codec, data.baseAddress, data.count) else {
            throw .unsupported("out of memory")
        }
        defer { blz_decoder_destroy(decoder) }
        let name = format.displayName
        blz_decoder_set_pixel_limit(decoder, UInt64(max(options.effectiveDeclaredPixelLimit, 0)))
        blz_decoder_set_color_conversion(decoder, options.convertsToSRGB ? 1 : 0)

        var header = blz_header()
        let headerStatus = blz_decoder_read_header(decoder, &header)
        guard headerStatus == .BLZ_STATUS_OK else { throw error(headerStatus, decoder, name) }

        let fullWidth = Int(header.width), fullHeight = Int(header.height)
        guard fullWidth > 0, fullHeight > 0 else { throw .zeroSize }
        // The declared size first (a decompression bomb is refused here, whatever the scale), then the
        // decoded size, both before the pixels are allocated. HEIF declares the size it decodes before
        // cropping and turning it (ispe), which can be larger.
        let declaredWidth = header.declared_width > 0 ? Int(header.declared_width) : fullWidth
        let declaredHeight = header.declared_height > 0 ? Int(header.declared_height) : fullHeight
        let (declaredCount, declaredOverflow) = declaredWidth.multipliedReportingOverflow(by: declaredHeight)
        let declaredLimit = options.effectiveDeclaredPixelLimit
        guard !declaredOverflow, declaredCount <= declaredLimit else {
            throw .tooLarge(width: declaredWidth, height: declaredHeight, limit: declaredLimit)
        }
        var denominator = 1, width = fullWidth, height = fullHeight
        if let minimumLongSide, codec == .BLZ_CODEC_JPEG {
            denominator = scaleDenominator(longSide: max(fullWidth, fullHeight), minimumLongSide: minimumLongSide)
            if denominator > 1 {
                var scaledWidth: UInt32 = 0, scaledHeight: UInt32 = 0
                let status = blz_decoder_set_scale(decoder, UInt32(denominator), &scaledWidth, &scaledHeight)
                guard status == .BLZ_STATUS_OK else { throw error(status, decoder, name) }
                width = Int(scaledWidth)
                height = Int(scaledHeight)
                guard width > 0, height > 0 else { throw .zeroSize }
            }
        }
        let (pixelCount, pixelOverflow) = width.multipliedReportingOverflow(by: height)
        guard !pixelOverflow, pixelCount <= options.maximumPixelCount else {
            throw .tooLarge(width: width, height: height, limit: options.maximumPixelCount)
        }
        guard let pixelFormat = PixelFormat(decodedChannels: Int(header.channels)) else {
            throw .unsupported("\(name): \(header.channels) channels per pixel")
        }
        let (byteCount, byteOverflow) = pixelCount.multipliedReportingOverflow(by: pixelFormat.bytesPerPixel)
        guard !byteOverflow else { throw .tooLarge(width: width, height: height, limit: options.maximumPixelCount) }

        var orientation = ImageOrientation.up
        if let exif = header.exif, header.exif_size > 0,
           let tag = EXIFOrientation.parse(UnsafeRawBufferPointer(start: exif, count: header.exif_size)) {
            orientation = ImageOrientation(exif: tag) ?? .up
        }

        var pixelStatus = blz_status.BLZ_STATUS_OK
        let pixels = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initializedCount in
            pixelStatus = blz_decoder_read_pixels(decoder, buffer.baseAddress, byteCount)
            initializedCount = pixelStatus == .BLZ_STATUS_OK ? byteCount : 0
        }
        guard pixelStatus == .BLZ_STATUS_OK else { throw error(pixelStatus, decoder, name) }
        let image = ImageBuffer(width: width, height: height, pixelFormat: pixelFormat, pixels: pixels,
                                orientation: orientation)
        return ScaledImage(image: image, scaleDenominator: denominator, fullWidth: fullWidth, fullHeight: fullHeight)
    }

    private static func error(_ status: blz_status, _ decoder: OpaquePointer, _ name: String) -> ImageIOError {
        let message = "\(name): " + String(cString: blz_decoder_message(decoder))
        switch status {
        case .BLZ_STATUS_CORRUPT: return .corrupt(message)
        case .BLZ_STATUS_TRUNCATED: return .truncated(message)
        case .BLZ_STATUS_ZERO_SIZE: return .zeroSize
        case .BLZ_STATUS_UNSUPPORTED: return .unsupported(message)
        case .BLZ_STATUS_OUT_OF_MEMORY: return .unsupported("out of memory: " + message)
        case .BLZ_STATUS_INVALID_ARGUMENT, .BLZ_STATUS_OK: return .unsupported("internal error: " + message)
        }
    }
}
