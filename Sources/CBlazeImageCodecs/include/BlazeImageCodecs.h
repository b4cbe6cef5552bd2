// BlazeImageCodecs: JPEG (libjpeg-turbo) and PNG (libpng) decoding, PNG and JPEG encoding for BlazeImageIO; WebP
// (libwebp), TIFF (libtiff), GIF (giflib), BMP and PNM (FFmpeg's libavcodec), HEIF/AVIF (libheif) decoding;
// colour profiles to sRGB (LittleCMS).
//
// Every libjpeg and libpng call happens in C, behind setjmp/longjmp error handlers: the functions here
// return a status and never exit, abort or print. Decoding is split in two steps so that the caller can
// check the image size against its pixel budget, and allocate the output itself, before any buffer that
// grows with the image is allocated:
//
//     blz_decoder *d = blz_decoder_create(BLZ_CODEC_JPEG, data, size);
//     blz_header header;
//     if (blz_decoder_read_header(d, &header) == BLZ_STATUS_OK) {
//         ... check header.width * header.height, allocate width * height * channels bytes ...
//         blz_decoder_read_pixels(d, pixels, capacity);
//     }
//     ... on failure, blz_decoder_message(d) says why ...
//     blz_decoder_destroy(d);
//
// A JPEG can be decoded smaller, at 1/2, 1/4 or 1/8 of its size (libjpeg's DCT scaling, much cheaper than a
// full decode): call blz_decoder_set_scale between the two steps; it learns the output size without
// allocating, so the caller checks and allocates that size instead.
//
// A decoder is used by one thread at a time; different decoders are independent.
#ifndef BLAZE_IMAGE_CODECS_H
#define BLAZE_IMAGE_CODECS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Closed enums import into Swift as exhaustive enums.
#if defined(__has_attribute)
#if __has_attribute(enum_extensibility)
#define BLZ_CLOSED_ENUM __attribute__((enum_extensibility(closed)))
#endif
#endif
#ifndef BLZ_CLOSED_ENUM
#define BLZ_CLOSED_ENUM
#endif

/// The outcome of a codec call.
typedef enum BLZ_CLOSED_ENUM blz_status {
    BLZ_STATUS_OK = 0,
    /// The data is not a valid image of the codec's format (bad marker, CRC, compressed stream ...).
    BLZ_STATUS_CORRUPT = 1,
    /// The data ends before the image does.
    BLZ_STATUS_TRUNCATED = 2,
    /// The header declares a zero width or height.
    BLZ_STATUS_ZERO_SIZE = 3,
    /// Valid, but a variant this build cannot decode (12-bit or lossless JPEG, an odd colour space ...).
    BLZ_STATUS_UNSUPPORTED = 4,
    /// An allocation failed.
    BLZ_STATUS_OUT_OF_MEMORY = 5,
    /// The caller broke the calling sequence or passed inconsistent sizes.
    BLZ_STATUS_INVALID_ARGUMENT = 6,
} blz_status;

/// The compressed formats a decoder reads.
typedef enum BLZ_CLOSED_ENUM blz_codec {
    BLZ_CODEC_JPEG = 1,
    BLZ_CODEC_PNG = 2,
    // 10 and up: the formats added with issue 25's first part (libwebp, libtiff, giflib, FFmpeg's libavcodec).
    /// WebP, lossy or lossless, still or animated (the first frame); EXIF from the RIFF "EXIF" chunk.
    BLZ_CODEC_WEBP = 10,
    /// TIFF (classic and BigTIFF), the first directory; the Orientation tag becomes a one-tag EXIF payload.
    BLZ_CODEC_TIFF = 11,
    /// GIF87a/GIF89a, the first frame on the logical screen.
    BLZ_CODEC_GIF = 12,
    /// Windows BMP, through FFmpeg's libavcodec.
    BLZ_CODEC_BMP = 13,
    /// PBM, PGM, PPM (P1 to P6: ASCII and binary), through FFmpeg's libavcodec.
    BLZ_CODEC_PNM = 14,
    /// HEIF (HEIC) and AVIF, through libheif.
    BLZ_CODEC_HEIF = 16,
} blz_codec;

/// What `blz_decoder_read_header` learns before any pixel is decoded.
typedef struct blz_header {
    /// Image width and height in pixels, as the file declares them (both > 0 once the header is read).
    uint32_t width;
    uint32_t height;
    /// Bytes per decoded pixel: 1 (gray), 3 (RGB) or 4 (RGBA). Rows are `width * channels` bytes.
    uint32_t channels;
    /// The EXIF payload, starting at its TIFF header ("II*\0" or "MM\0*"), or NULL when the file has none:
    /// a JPEG's APP1 "Exif\0\0" segment without its 6-byte prefix, or a PNG's eXIf chunk. Owned by the
    /// decoder; valid until `blz_decoder_destroy`. Not validated: parse it with bounds checks.
    const uint8_t *exif;
    size_t exif_size;
    /// The size of the picture the codec decodes before it crops or turns it, when that differs from `width` x
    /// `height` (HEIF: the `ispe` size, before `clap`, `irot` and `imir`); 0 and 0 otherwise. The pixel budget
    /// applies to it too: that is what the codec allocates.
    uint32_t declared_width;
    uint32_t declared_height;
} blz_header;

typedef struct blz_decoder blz_decoder;

/// A decoder for `size` bytes at `data`, which must stay valid and unchanged until the decoder is
/// destroyed. Returns NULL only when memory is exhausted.
blz_decoder *blz_decoder_create(blz_codec codec, const uint8_t *data, size_t size);

/// Reads the header (up to the first scan or image-data chunk). Allocates nothing that grows with the
/// image's dimensions. Call once, first.
blz_status blz_decoder_read_header(blz_decoder *decoder, blz_header *header);

/// Asks for the image at 1/`denominator` of its declared size: 1, 2, 4 or 8. Call at most once, after a
/// successful `blz_decoder_read_header` and before `blz_decoder_read_pixels`. JPEG: libjpeg's DCT scaling;
/// the output is ceil(width / denominator) x ceil(height / denominator) pixels (what libjpeg's
/// jpeg_calc_output_dimensions says), written to `*output_width` and `*output_height`. Nothing that grows
/// with the image is allocated. The other formats have no scaled decode: only 1 is accepted
/// (INVALID_ARGUMENT otherwise).
/// Another denominator is INVALID_ARGUMENT. Without this call the output is the declared size.
blz_status blz_decoder_set_scale(blz_decoder *decoder, uint32_t denominator, uint32_t *output_width,
                                 uint32_t *output_height);

/// Decodes the whole image into `pixels`: `height` rows of `width * channels` bytes, top row first, where
/// `width` and `height` are the header's, or the output size `blz_decoder_set_scale` returned.
/// `capacity` must be exactly `width * height * channels`. Call once, after a successful
/// `blz_decoder_read_header`. On failure the buffer's contents are unspecified.
blz_status blz_decoder_read_pixels(blz_decoder *decoder, uint8_t *pixels, size_t capacity);

/// A NUL-terminated description of the last failure ("" after success). Valid until the next call on
/// the decoder or its destruction.
const char *blz_decoder_message(const blz_decoder *decoder);

/// Releases the decoder and everything it allocated. Accepts NULL.
void blz_decoder_destroy(blz_decoder *decoder);

// MARK: Limits and colour profiles

/// The largest width x height a file may declare; 0 (the default) leaves the codec's own limits. Call before
/// `blz_decoder_read_header`. JPEG and PNG ignore it (the caller checks the header); HEIF hands it to libheif,
/// whose own checks then cover the images that the header does not show (a grid's canvas, tiles).
void blz_decoder_set_pixel_limit(blz_decoder *decoder, uint64_t maximum_pixels);

/// What `blz_decoder_read_pixels` did with the file's colour profile.
typedef enum BLZ_CLOSED_ENUM blz_color_result {
    /// The file has no colour profile (its samples are taken as sRGB), or the conversion is turned off.
    BLZ_COLOR_NONE = 0,
    /// The profile describes sRGB (or a space treated as sRGB): the pixels are left as decoded.
    BLZ_COLOR_ALREADY_SRGB = 1,
    /// The pixels were converted from the profile to sRGB.
    BLZ_COLOR_CONVERTED = 2,
    /// The profile is malformed, or does not describe the pixels (a CMYK profile for pixels made RGB, a gray
    /// profile on RGB pixels ...): it was ignored and the pixels left as decoded.
    BLZ_COLOR_IGNORED = 3,
} blz_color_result;

/// Whether `blz_decoder_read_pixels` converts pixels from an embedded colour profile to sRGB: 1 (the default)
/// or 0. Call before `blz_decoder_read_pixels`.
void blz_decoder_set_color_conversion(blz_decoder *decoder, int enabled);

/// What the last successful `blz_decoder_read_pixels` did with the colour profile; `blz_decoder_message`
/// then says why a profile was ignored.
blz_color_result blz_decoder_color_result(const blz_decoder *decoder);

/// Encodes 8-bit pixels as a non-interlaced PNG (default compression and adaptive filtering).
/// `channels` is 1 (gray), 3 (RGB) or 4 (RGBA, not premultiplied); rows are `bytes_per_row` apart
/// (at least `width * channels`). `exif` (may be NULL) is written as an eXIf chunk: a TIFF-structured
/// payload of `exif_size` bytes. On success `*output` is a buffer of `*output_size` bytes to release with
/// `blz_free`. On failure `message` (of `message_capacity` bytes, may be NULL) receives a description.
blz_status blz_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, uint32_t channels,
                          size_t bytes_per_row, const uint8_t *exif, size_t exif_size,
                          uint8_t **output, size_t *output_size, char *message, size_t message_capacity);

/// Encodes 8-bit gray (`channels` 1) or RGB (3) pixels as a baseline JPEG with libjpeg's defaults (YCbCr 4:2:0
/// for RGB) at `quality` (1...100, libjpeg's scale); rows are `bytes_per_row` apart. `exif` (may be NULL) is
/// written as an APP1 "Exif" segment: a TIFF-structured payload of at most 65527 bytes. On success `*output` is a
/// buffer of `*output_size` bytes to release with `blz_free`. On failure `message` (of `message_capacity` bytes,
/// may be NULL) receives a description.
blz_status blz_jpeg_encode(const uint8_t *pixels, uint32_t width, uint32_t height, uint32_t channels,
                           size_t bytes_per_row, int quality, const uint8_t *exif, size_t exif_size,
                           uint8_t **output, size_t *output_size, char *message, size_t message_capacity);

/// Releases a buffer returned by this library. Accepts NULL.
void blz_free(void *buffer);

/// Asks the C allocator to serve blocks of up to `bytes` from its heap and to keep freed memory for the next
/// block, rather than mapping each large block afresh and unmapping it when freed (glibc's `M_MMAP_THRESHOLD`
/// and `M_TRIM_THRESHOLD`, to `bytes` and twice `bytes`, `bytes` capped at 1 GiB; and `M_ARENA_MAX` 1, so that
/// every thread allocates from the main heap, the only one glibc lets grow past 64 MiB). Returns 1 when the
/// allocator took the settings, 0 where there is no such setting (not glibc) or it refused one.
int blz_keep_large_blocks(size_t bytes);

#ifdef __cplusplus
}
#endif

#endif // BLAZE_IMAGE_CODECS_H
