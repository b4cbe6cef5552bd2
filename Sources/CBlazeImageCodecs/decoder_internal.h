// Private to CBlazeImageCodecs: the decoder object every back end (JPEG, PNG, WebP, TIFF, GIF, BMP/PNM, HEIF) shares.
#ifndef BLAZE_DECODER_INTERNAL_H
#define BLAZE_DECODER_INTERNAL_H

#include "BlazeImageCodecs.h"
#include "icc_transform.h"

#include <setjmp.h>
#include <stdarg.h>

#define BLZ_MESSAGE_CAPACITY 256

/// Where a decoder is in its calling sequence.
typedef enum blz_stage {
    BLZ_STAGE_NEW = 0,
    BLZ_STAGE_HEADER_READ,
    BLZ_STAGE_DONE,
    BLZ_STAGE_FAILED,
} blz_stage;

struct blz_jpeg_state;
struct blz_png_state;
struct blz_webp_state;
struct blz_tiff_state;
struct blz_gif_state;
struct blz_av_state;
struct blz_heif_state;

struct blz_decoder {
    blz_codec codec;
    const uint8_t *data;
    size_t size;
    blz_stage stage;
    blz_header header;
    /// The size `read_pixels` writes: the header's, or the scaled size `set_scale` chose.
    uint32_t output_width;
    uint32_t output_height;
    /// `set_scale` was called (it runs once).
    int scale_set;
    /// The status a longjmp carries back to the entry point that called setjmp.
    blz_status failure;
    char message[BLZ_MESSAGE_CAPACITY];
    /// Set by every entry point before it calls into libjpeg or libpng; their error handlers jump here.
    jmp_buf jump;
    /// The codec's state, one block (a decoder decodes one codec), under its codec's name: allocated by the codec's
    /// read_header with blz_decoder_new_state, emptied by its back end's `release` and freed by blz_decoder_destroy.
    union {
        void *state;
        struct blz_jpeg_state *jpeg;
        struct blz_png_state *png;
        struct blz_webp_state *webp;
        struct blz_tiff_state *tiff;
        struct blz_gif_state *gif;
        struct blz_av_state *av; // BMP and PNM (FFmpeg)
        struct blz_heif_state *heif;
    };
    /// `blz_decoder_set_pixel_limit`'s value (0: none).
    uint64_t pixel_limit;
    /// The file's colour profile, set by the codec's read_header; converted to sRGB after read_pixels.
    blz_color_profile color;
    /// `blz_decoder_set_color_conversion(decoder, 0)` was called.
    int color_conversion_off;
    blz_color_result color_result;
};

/// Records a failure (status and printf-style message) without jumping; returns `status`, for a codec to return.
blz_status blz_decoder_set_failure(blz_decoder *decoder, blz_status status, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/// Records a failure and jumps back to the entry point's setjmp. Only valid while a codec call is active.
_Noreturn void blz_decoder_fail(blz_decoder *decoder, blz_status status, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/// A codec's state of `size` zeroed bytes for its read_header, which becomes `decoder->state` (the decoder frees
/// it), or NULL with the decoder's failure set to `BLZ_STATUS_OUT_OF_MEMORY` ("out of memory").
void *blz_decoder_new_state(blz_decoder *decoder, size_t size);

/// `a * b * c` in `*result`, or 0 when it overflows size_t.
int blz_checked_size(size_t a, size_t b, size_t c, size_t *result);

/// One format's back end, which the codec-independent entry points (decoder.c) call for its codec(s).
typedef struct blz_codec_backend {
    /// Reads the header into `decoder->header`, allocating the back end's state; a failure is recorded.
    blz_status (*read_header)(blz_decoder *decoder);
    /// Sets a scaled decode of 1/`denominator` (2, 4 or 8) and stores the output size in
    /// `output_width`/`output_height`; NULL for a format with no scaled decode (it decodes at 1/1 only).
    blz_status (*set_scale)(blz_decoder *decoder, unsigned denominator);
    /// Decodes the `output_width` x `output_height` image into `pixels` (`header.channels` bytes a pixel).
    blz_status (*read_pixels)(blz_decoder *decoder, uint8_t *pixels);
    /// Releases what the back end's state holds (its library's objects, its own allocations), not the state block
    /// itself: called once, when a decoder whose codec has a state is destroyed.
    void (*release)(blz_decoder *decoder);
} blz_codec_backend;

extern const blz_codec_backend blz_jpeg_backend;
extern const blz_codec_backend blz_png_backend;
extern const blz_codec_backend blz_webp_backend;
extern const blz_codec_backend blz_tiff_backend;
extern const blz_codec_backend blz_gif_backend;
/// BMP and PNM through FFmpeg's libavcodec (av_image_decoder.c).
extern const blz_codec_backend blz_av_backend;

/// Sets FFmpeg's log level to quiet, once per process (its default callback then prints nothing).
void blz_av_quiet(void);

/// Writes a 26-byte TIFF-structured EXIF payload whose IFD0 holds one tag, the orientation `value` (1...8), to
/// `output`: for formats whose own header carries the orientation (TIFF).
void blz_orientation_exif(uint8_t output[26], uint16_t value);

/// HEIF (heif_decoder.c); decoder.c makes these its back end.
blz_status blz_heif_read_header(blz_decoder *decoder);
/// The most images a path of derived-image ('dimg') and auxiliary-image ('auxl') references may pass through.
#define BLZ_HEIF_MAX_DERIVATION 16
/// Whether the HEIF file's item references (heif_references.c) form no cycle and no path through more than
/// BLZ_HEIF_MAX_DERIVATION images: 1 when so, 0 when not, -1 when out of memory.
int blz_heif_references_are_bounded(const uint8_t *data, size_t size);
blz_status blz_heif_read_pixels(blz_decoder *decoder, uint8_t *pixels);
void blz_heif_release(blz_decoder *decoder);

#endif // BLAZE_DECODER_INTERNAL_H
