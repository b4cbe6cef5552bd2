// Private to CBlazeImageCodecs: bounded HEVC and AV1 decoder plugins for libheif before 1.19 (hevc_decoder.c,
// av1_decoder.c), which gives its codecs no size limit: libde265 allocates what a stream's SPS declares (up to
// 65,535 x 65,535) and libheif 1.15's dav1d plugin lets dav1d allocate frames of up to 32,768 x 32,768, whatever
// the HEIF's ispe says. heif_decoder.c registers these plugins on its contexts, above libheif's own. The HEVC
// plugin decodes with FFmpeg's libavcodec, and can hand libheif RGB planes converted here (heif_ycbcr.c), which
// libheif 1.15 then passes on without a conversion of its own.
#ifndef BLAZE_HEIF_PLUGINS_H
#define BLAZE_HEIF_PLUGINS_H

#include <stddef.h>
#include <stdint.h>

#include <libheif/heif.h>

#if LIBHEIF_NUMERIC_VERSION < 0x01130000
#define BLZ_HEIF_PLUGINS 1

/// The most pixels one coded picture may have in the decoders this thread creates from now on (0: no limit).
void blz_heif_plugins_set_pixel_limit(uint64_t maximum_pixels);
/// The calling thread's limit, read by the plugins when libheif makes a decoder.
uint64_t blz_heif_plugins_pixel_limit(void);

/// Where a plugin writes the message of an error it returns: the calling thread's buffer, not the decoder's, as
/// libheif 1.15 frees the decoder before it copies the message (fuzz-image found that use after free).
#define BLZ_HEIF_PLUGIN_MESSAGE_CAPACITY 192
char *blz_heif_plugins_message(void);

/// What the HEVC plugin outputs for the decoders this thread creates from now on. Off (the default): YCbCr or
/// monochrome planes with the stream's colour description, which libheif converts, as its own plugin does. On:
/// 8-bit RGB planes converted by the plugin, with the matrix and range libheif would use (the container's nclx
/// box when it has one, else the stream's), for pictures whose samples are 8-bit YCbCr and whose matrix
/// heif_ycbcr.c handles; other pictures come out as when off. Only for images without alpha: libheif takes an
/// alpha image's luma plane, which RGB output would not have.
typedef struct blz_heif_rgb_request {
    int enabled;
    /// The container's nclx box is known: its matrix and range replace the stream's.
    int has_nclx;
    uint16_t matrix_coefficients;
    int full_range;
} blz_heif_rgb_request;

void blz_heif_plugins_set_rgb_request(blz_heif_rgb_request request);

/// 8-bit YCbCr planes to 8-bit RGB planes, as libheif 1.15 converts them, to the bit (its coefficients for the matrix,
/// its limited-range constants, the nearest chroma sample, its single-precision arithmetic and rounding).
/// `chroma_shift_x`/`_y` are 1 where chroma is subsampled on that axis. Returns 0, writing nothing, for the matrices
/// it does not handle (0 identity, 8 YCgCo, 12 and 13, derived from the primaries) or when out of memory; 1 when done.
int blz_ycbcr_to_rgb(uint16_t matrix_coefficients, int full_range, int width, int height, int chroma_shift_x,
                     int chroma_shift_y, const uint8_t *const planes[3], const int strides[3], uint8_t *const rgb[3],
                     const int rgb_strides[3]);

/// The luma size a sequence parameter set NAL unit (type 33, with its 2-byte header) declares (H.265 7.3.2.2: the
/// fields before pic_width_in_luma_samples), emulation-prevention bytes skipped. Returns 0 when the unit ends first.
int blz_hevc_sps_picture_size(const uint8_t *nal, size_t size, uint32_t *width, uint32_t *height);

/// The calling thread's request, read by the HEVC plugin when libheif makes a decoder.
blz_heif_rgb_request blz_heif_plugins_rgb_request(void);

/// A plugin's error; `text` must outlive the call: a literal, or blz_heif_plugins_message().
struct heif_error blz_heif_plugin_error(enum heif_error_code code, enum heif_suberror_code subcode, const char *text);
/// libheif's out-of-memory error, as a plugin returns it.
struct heif_error blz_heif_plugin_out_of_memory(void);
/// Success, as a plugin returns it.
struct heif_error blz_heif_plugin_ok(void);
/// The plugins' init_plugin and deinit_plugin: neither has global state to set up.
void blz_heif_plugin_no_setup(void);
/// The plugins' set_strict_decoding: they are always strict (damage is an error, never a concealed picture).
void blz_heif_plugin_always_strict(void *decoder, int flag);

/// Defines a plugin for heif_register_decoder (API version 3) and `accessor`, which returns it: `name` is its
/// description, `id` its short name, and it claims `format` with priority 200 (above libheif's own plugins: at
/// most 150) and no other format. `new_decoder`, `free_decoder`, `push_data` and `decode_image` are the file's own.
#define BLZ_HEIF_DEFINE_PLUGIN(accessor, format, name, id)                                                          \
    static const char *plugin_name(void) { return name; }                                                           \
    static int does_support_format(enum heif_compression_format given) { return given == format ? 200 : 0; }        \
    static const struct heif_decoder_plugin plugin = {                                                              \
        3, plugin_name, blz_heif_plugin_no_setup, blz_heif_plugin_no_setup, does_support_format, new_decoder,       \
        free_decoder, push_data, decode_image, blz_heif_plugin_always_strict, id,                                   \
    };                                                                                                              \
    const struct heif_decoder_plugin *accessor(void) { return &plugin; }

/// The plugins, for heif_register_decoder.
const struct heif_decoder_plugin *blz_hevc_plugin(void);
const struct heif_decoder_plugin *blz_av1_plugin(void);
#endif

#endif // BLAZE_HEIF_PLUGINS_H
