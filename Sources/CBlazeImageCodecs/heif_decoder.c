// HEIF (HEIC) and AVIF decoding with libheif, from memory.
//
// Policy:
// - The primary image only: thumbnails, depth maps and other auxiliary images are never decoded (a thumbnail is
//   not the picture). Its alpha plane, when it has one, makes the output RGBA (premultiplied alpha is divided out,
//   so alpha is straight as for PNG); otherwise RGB. Monochrome images come out RGB, gray replicated.
// - libheif applies the container's transformations (clap crop, irot rotation, imir mirroring, in the order the
//   file lists them): the output is the picture as it is meant to be shown. The EXIF orientation tag, which the
//   HEIF standard makes informative only (iPhones write it equal to their irot), is not read: applying it as
//   well would turn the picture twice. libvips and pillow-heif follow the same rule.
// - Samples deeper than 8 bits (10-bit HEIC, 10/12-bit AVIF) are reduced to 8 bits by libheif
//   (convert_hdr_to_8bit); HDR transfer functions (PQ, HLG) are not tone-mapped.
// - Item references: a file whose derived or alpha images refer to one another in a cycle, or nest deeper than
//   BLZ_HEIF_MAX_DERIVATION, is CORRUPT before anything is decoded (heif_references.c): libheif 1.15 would
//   recurse until the stack overflows.
// - Strict decoding: what libheif and its codec report as a warning on damaged data is an error, so a picture
//   that decodes has no concealed blocks.
// - Limits: the caller's pixel limit (`blz_decoder_set_pixel_limit`) is checked by the caller on the header's
//   `ispe` size (what libheif allocates before it crops), and handed to libheif before the pixels are decoded:
//   libheif 1.19 and later take it as their image-size security limit and pass it to their codecs; older
//   versions (Debian 12 has 1.15) have only a limit on each side, set to the declared longer side so that a grid
//   whose canvas claims more than its `ispe` is refused, and give libde265 no limit at all and dav1d only
//   32,768 x 32,768 per frame: there HEVC and AV1 go through this package's bounded plugins (hevc_decoder.c over
//   libavcodec, av1_decoder.c over dav1d), whose pictures may not exceed the declared size plus a coding block.
// - Output: with those plugins, a picture without alpha is asked for as RGB planes, which the HEVC plugin
//   converts from 8-bit YCbCr itself with libheif's rule (heif_ycbcr.c) and libheif then passes on; they are
//   interleaved here. With alpha, libheif's interleaved RGBA.
// - A file whose codec this libheif has no decoder for (a build without libde265 has no HEVC, one without dav1d
//   or aom no AV1) is UNSUPPORTED, naming the codec.
#include "decoder_internal.h"
#include "heif_plugins.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <libheif/heif.h>

#if LIBHEIF_NUMERIC_VERSION >= 0x01130000
#define BLZ_HEIF_SECURITY_LIMITS 1 // libheif 1.19: heif_context_get_security_limits
#endif

/// The largest colour profile kept; larger ones are ignored (real ones are a few kilobytes to a few megabytes).
#define BLZ_HEIF_MAX_ICC_SIZE ((size_t)16 << 20)

struct blz_heif_state {
    struct heif_context *context;
    struct heif_image_handle *handle;
    /// A copy of the raw (ICC) colour profile, or NULL.
    uint8_t *icc;
    /// The primary image has an alpha plane.
    int alpha;
    /// The size before libheif's transformations (ispe).
    uint32_t ispe_width, ispe_height;
    /// "AV1" or "HEVC", from the file's brands, for messages.
    const char *codec;
};

static pthread_once_t libheif_once = PTHREAD_ONCE_INIT;

/// heif_init registers libheif's codecs (and loads its plugin folder, where a build has one: Homebrew's codecs
/// are plugins). Once per process, never undone: other parts of a process may use libheif too.
static void initialize_libheif(void) {
    (void)heif_init(NULL);
}

/// Whether the file's top-level boxes (ftyp, meta, mdat ...) all end within the data. libheif reports a file cut
/// short as a missing box or a codec error; a top-level box that declares more bytes than are left tells that it
/// was cut. Only the 8- or 16-byte box headers are read (size, type, 64-bit size), to classify libheif's error.
static int boxes_fit(const uint8_t *data, size_t size) {
    size_t offset = 0;
    while (size - offset >= 8) {
        uint64_t box = (uint64_t)data[offset] << 24 | (uint64_t)data[offset + 1] << 16
            | (uint64_t)data[offset + 2] << 8 | data[offset + 3];
        if (box == 0) return 1;  // the last box, to the end of the file
        if (box == 1) {
            if (size - offset < 16) return 0;
            box = 0;
            for (int i = 8; i < 16; i++) box = box << 8 | data[offset + i];
            if (box < 16) return 1;  // malformed, not cut
        } else if (box < 8) {
            return 1;
        }
        if (box > size - offset) return 0;
        offset += (size_t)box;
    }
    return offset == size;  // 1 to 7 bytes left: a box header cut short
}

/// Maps a libheif error to a status and records it.
static blz_status heif_failure(blz_decoder *decoder, struct heif_error error) {
    const struct blz_heif_state *state = decoder->heif;
    const char *text = error.message != NULL ? error.message : "";
    if ((error.code == heif_error_Invalid_input || error.code == heif_error_Decoder_plugin_error)
        && !boxes_fit(decoder->data, decoder->size)) {
        return blz_decoder_set_failure(decoder, BLZ_STATUS_TRUNCATED,
                                       "the data ends after %zu bytes, inside a box that declares more (%s)",
                                       decoder->size, text);
    }
    blz_status status = BLZ_STATUS_CORRUPT;
    switch (error.code) {
    case heif_error_Invalid_input:
        status = error.subcode == heif_suberror_End_of_data ? BLZ_STATUS_TRUNCATED : BLZ_STATUS_CORRUPT;
        break;
    case heif_error_Unsupported_filetype:
    case heif_error_Unsupported_feature:
        if (error.subcode == heif_suberror_Unsupported_codec) {
            return blz_decoder_set_failure(decoder, BLZ_STATUS_UNSUPPORTED,
                                           "this libheif has no %s decoder (%s)", state->codec, text);
        }
        status = BLZ_STATUS_UNSUPPORTED;
        break;
    case heif_error_Memory_allocation_error:
        if (error.subcode == heif_suberror_Security_limit_exceeded) {
            return blz_decoder_set_failure(decoder, BLZ_STATUS_UNSUPPORTED, "beyond libheif's security limits (%s)",
                                           text);
        }
        status = BLZ_STATUS_OUT_OF_MEMORY;
        break;
    default: status = BLZ_STATUS_CORRUPT; break; // the codec's errors (damaged streams), inconsistent items
    }
    return blz_decoder_set_failure(decoder, status, "%s", text);
}

/// The colour description of the primary image: its ICC profile, or its nclx primaries when they are not sRGB's.
static void read_color_profile(blz_decoder *decoder) {
    struct blz_heif_state *state = decoder->heif;
    const size_t icc_size = heif_image_handle_get_raw_color_profile_size(state->handle);
    if (icc_size > 0 && icc_size <= BLZ_HEIF_MAX_ICC_SIZE) {
        state->icc = malloc(icc_size);
        if (state->icc != NULL) {
            struct heif_error error = heif_image_handle_get_raw_color_profile(state->handle, state->icc);
            if (error.code == heif_error_Ok) {
                decoder->color.icc = state->icc;
                decoder->color.icc_size = icc_size;
                return;
            }
        }
    }
    struct heif_color_profile_nclx *nclx = NULL;
    // libheif allocates the profile before it checks the code points: an error can come with a profile to free.
    if (heif_image_handle_get_nclx_color_profile(state->handle, &nclx).code != heif_error_Ok || nclx == NULL) {
        heif_nclx_color_profile_free(nclx);
        return;
    }
    // H.273 code points. Primaries 1 (BT.709, sRGB's) and 2 (unspecified) are taken as sRGB; so are the SDR
    // transfer functions (sRGB's 13, the BT.709/601/2020 video curves, unspecified): what browsers show.
    blz_transfer transfer = BLZ_TRANSFER_SRGB;
    double gamma = 1.0;
    switch (nclx->transfer_characteristics) {
    case heif_transfer_characteristic_linear: transfer = BLZ_TRANSFER_LINEAR; break;
    case heif_transfer_characteristic_ITU_R_BT_470_6_System_M: transfer = BLZ_TRANSFER_GAMMA; gamma = 2.2; break;
    case heif_transfer_characteristic_ITU_R_BT_470_6_System_B_G: transfer = BLZ_TRANSFER_GAMMA; gamma = 2.8; break;
    default: break;
    }
    const int srgb_primaries = nclx->color_primaries == heif_color_primaries_ITU_R_BT_709_5
        || nclx->color_primaries == heif_color_primaries_unspecified;
    if (!srgb_primaries || transfer != BLZ_TRANSFER_SRGB) {
        blz_color_profile *color = &decoder->color;
        color->has_primaries = 1;
        color->red_x = nclx->color_primary_red_x;
        color->red_y = nclx->color_primary_red_y;
        color->green_x = nclx->color_primary_green_x;
        color->green_y = nclx->color_primary_green_y;
        color->blue_x = nclx->color_primary_blue_x;
        color->blue_y = nclx->color_primary_blue_y;
        color->white_x = nclx->color_primary_white_x;
        color->white_y = nclx->color_primary_white_y;
        color->transfer = transfer;
        color->gamma = gamma;
    }
    heif_nclx_color_profile_free(nclx);
}

/// Sets libheif's image-size limit: `side` on each side (libheif before 1.19), or `pixels` in all (0: none).
static void set_size_limit(struct heif_context *context, int side, uint64_t pixels) {
#ifdef BLZ_HEIF_SECURITY_LIMITS
    (void)side;
    struct heif_security_limits *limits = heif_context_get_security_limits(context);
    if (limits != NULL) limits->max_image_size_pixels = pixels;
#else
    (void)pixels;
    heif_context_set_maximum_image_size_limit(context, side);
#endif
}

blz_status blz_heif_read_header(blz_decoder *decoder) {
    pthread_once(&libheif_once, initialize_libheif);
    struct blz_heif_state *state = blz_decoder_new_state(decoder, sizeof(struct blz_heif_state));
    if (state == NULL) return BLZ_STATUS_OUT_OF_MEMORY;
    const int length = decoder->size < INT_MAX ? (int)decoder->size : INT_MAX;
    const int is_avif = length >= 12 && (heif_has_compatible_brand(decoder->data, length, "avif") == 1
                                         || heif_has_compatible_brand(decoder->data, length, "avis") == 1);
    state->codec = is_avif ? "AV1" : "HEVC";
    state->context = heif_context_alloc();
    if (state->context == NULL) {
        return blz_decoder_set_failure(decoder, BLZ_STATUS_OUT_OF_MEMORY, "cannot create a libheif context");
    }
#ifdef BLZ_HEIF_PLUGINS
    // HEVC (libavcodec) and AV1 (dav1d) bounded by the pixel limit (heif_plugins.h); grid tiles decoded on this
    // thread, which holds the limit.
    (void)heif_register_decoder(state->context, blz_hevc_plugin());
    (void)heif_register_decoder(state->context, blz_av1_plugin());
    heif_context_set_max_decoding_threads(state->context, 0);
#endif
    // While the file is parsed, no image-size limit: libheif only reads sizes then, and the caller checks them
    // against its own limit with the numbers in hand. The limit is set before decoding (read_pixels).
    set_size_limit(state->context, INT_MAX, 0);
    struct heif_error error =
        heif_context_read_from_memory_without_copy(state->context, decoder->data, decoder->size, NULL);
    if (error.code != heif_error_Ok) return heif_failure(decoder, error);
    error = heif_context_get_primary_image_handle(state->context, &state->handle);
    if (error.code != heif_error_Ok) return heif_failure(decoder, error);
    // libheif (1.15) follows derived and alpha images recursively without a cycle or depth check.
    const int bounded = blz_heif_references_are_bounded(decoder->data, decoder->size);
    if (bounded < 0) {
        return blz_decoder_set_failure(decoder, BLZ_STATUS_OUT_OF_MEMORY, "out of memory");
    }
    if (bounded == 0) {
        return blz_decoder_set_failure(decoder, BLZ_STATUS_CORRUPT,
                                       "its images derive from one another in a cycle, or through more than %d images",
                                       BLZ_HEIF_MAX_DERIVATION);
    }

    const int width = heif_image_handle_get_width(state->handle);
    const int height = heif_image_handle_get_height(state->handle);
    const int ispe_width = heif_image_handle_get_ispe_width(state->handle);
    const int ispe_height = heif_image_handle_get_ispe_height(state->handle);
    if (width <= 0 || height <= 0 || ispe_width <= 0 || ispe_height <= 0) {
        return blz_decoder_set_failure(decoder, BLZ_STATUS_ZERO_SIZE, "the primary image is %dx%d (ispe %dx%d)", width,
                                       height, ispe_width, ispe_height);
    }
    state->alpha = heif_image_handle_has_alpha_channel(state->handle) != 0;
    state->ispe_width = (uint32_t)ispe_width;
    state->ispe_height = (uint32_t)ispe_height;
    decoder->header.width = (uint32_t)width;
    decoder->header.height = (uint32_t)height;
    decoder->header.channels = state->alpha ? 4 : 3;
    if (state->ispe_width != decoder->header.width || state->ispe_height != decoder->header.height) {
        decoder->header.declared_width = state->ispe_width;
        decoder->header.declared_height = state->ispe_height;
    }
    read_color_profile(decoder);
    return BLZ_STATUS_OK;
}

/// Divides premultiplied colour by alpha, rounding to nearest; fully transparent pixels stay as they are.
static void unpremultiply(uint8_t *pixels, size_t count) {
    for (size_t i = 0; i < count; i++, pixels += 4) {
        const unsigned alpha = pixels[3];
        if (alpha == 0 || alpha == 255) continue;
        for (int c = 0; c < 3; c++) {
            const unsigned value = (pixels[c] * 255u + alpha / 2) / alpha;
            pixels[c] = (uint8_t)(value > 255 ? 255 : value);
        }
    }
}

/// The size, depth and layout libheif gave do not match the header's.
static blz_status mismatch(blz_decoder *decoder, const struct heif_image *image, enum heif_channel channel) {
    return blz_decoder_set_failure(decoder, BLZ_STATUS_CORRUPT,
                                   "libheif decoded a %dx%d image of %d bits, the header says %ux%u",
                                   heif_image_get_width(image, channel), heif_image_get_height(image, channel),
                                   heif_image_get_bits_per_pixel_range(image, channel), decoder->header.width,
                                   decoder->header.height);
}

/// libheif's interleaved 8-bit RGBA rows into `pixels`, alpha made straight.
static blz_status copy_interleaved(blz_decoder *decoder, struct heif_image *image, uint8_t *pixels) {
    const uint32_t width = decoder->header.width, height = decoder->header.height;
    int stride = 0;
    const uint8_t *plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride);
    if (plane == NULL || heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved) != 8
        || heif_image_get_width(image, heif_channel_interleaved) != (int)width
        || heif_image_get_height(image, heif_channel_interleaved) != (int)height || stride < 0
        || (size_t)stride < (size_t)width * 4) {
        return mismatch(decoder, image, heif_channel_interleaved);
    }
    const size_t row_bytes = (size_t)width * 4;
    for (uint32_t y = 0; y < height; y++) {
        memcpy(pixels + (size_t)y * row_bytes, plane + (size_t)y * (size_t)stride, row_bytes);
    }
    if (heif_image_is_premultiplied_alpha(image)) unpremultiply(pixels, (size_t)width * height);
    return BLZ_STATUS_OK;
}

/// libheif's R, G and B planes interleaved into `pixels`; samples deeper than 8 bits (stored in 16) shifted down
/// to 8, as libheif's own reduction (convert_hdr_to_8bit) does.
static blz_status interleave(blz_decoder *decoder, const struct heif_image *image, uint8_t *pixels) {
    const uint32_t width = decoder->header.width, height = decoder->header.height;
    static const enum heif_channel channels[3] = {heif_channel_R, heif_channel_G, heif_channel_B};
    const uint8_t *planes[3] = {NULL, NULL, NULL};
    int strides[3] = {0, 0, 0};
    const int depth = heif_image_get_bits_per_pixel_range(image, heif_channel_R);
    const size_t sample_bytes = depth > 8 ? 2 : 1;
    for (int c = 0; c < 3; c++) {
        planes[c] = heif_image_get_plane_readonly(image, channels[c], &strides[c]);
        if (planes[c] == NULL || depth < 8 || depth > 16
            || heif_image_get_bits_per_pixel_range(image, channels[c]) != depth
            || heif_image_get_width(image, channels[c]) != (int)width
            || heif_image_get_height(image, channels[c]) != (int)height || strides[c] < 0
            || (size_t)strides[c] < (size_t)width * sample_bytes) {
            return mismatch(decoder, image, channels[c]);
        }
    }
    for (uint32_t y = 0; y < height; y++) {
        uint8_t *row = pixels + (size_t)y * width * 3;
        if (depth == 8) {
            const uint8_t *red = planes[0] + (size_t)y * (size_t)strides[0];
            const uint8_t *green = planes[1] + (size_t)y * (size_t)strides[1];
            const uint8_t *blue = planes[2] + (size_t)y * (size_t)strides[2];
            for (uint32_t x = 0; x < width; x++) {
                row[3 * x] = red[x];
                row[3 * x + 1] = green[x];
                row[3 * x + 2] = blue[x];
            }
        } else {
            const int shift = depth - 8;
            for (int c = 0; c < 3; c++) {
                const uint16_t *samples = (const uint16_t *)(const void *)(planes[c] + (size_t)y * (size_t)strides[c]);
                for (uint32_t x = 0; x < width; x++) row[3 * x + (uint32_t)c] = (uint8_t)(samples[x] >> shift);
            }
        }
    }
    return BLZ_STATUS_OK;
}

blz_status blz_heif_read_pixels(blz_decoder *decoder, uint8_t *pixels) {
    struct blz_heif_state *state = decoder->heif;
    // The limit for decoding: the caller's, and no side longer than the declared longer side (a grid's canvas
    // is read from its item data only now, and libheif 1.15 checks it against this alone).
    const uint32_t longer = state->ispe_width > state->ispe_height ? state->ispe_width : state->ispe_height;
    set_size_limit(state->context, longer < INT_MAX ? (int)longer + 1 : INT_MAX, decoder->pixel_limit);

    struct heif_decoding_options *options = heif_decoding_options_alloc();
    if (options == NULL) return blz_decoder_set_failure(decoder, BLZ_STATUS_OUT_OF_MEMORY, "out of memory");
    options->ignore_transformations = 0;
    options->convert_hdr_to_8bit = 1;
    options->strict_decoding = 1;
    struct heif_image *image = NULL;
#ifdef BLZ_HEIF_PLUGINS
    // No coded picture larger than the declared size plus a 64-pixel coding block on each side (HEVC codes whole
    // blocks and crops them; AV1 frames are the ispe size), nor than the caller's limit: tiles and alpha planes
    // are smaller.
    uint64_t coded_limit = ((uint64_t)state->ispe_width + 64) * ((uint64_t)state->ispe_height + 64);
    if (decoder->pixel_limit > 0 && decoder->pixel_limit < coded_limit) coded_limit = decoder->pixel_limit;
    blz_heif_plugins_set_pixel_limit(coded_limit);
    // Without alpha, RGB planes: the HEVC plugin converts 8-bit YCbCr to them itself, and libheif 1.15 then
    // converts nothing (heif_plugins.h). With alpha, libheif's interleaved RGBA, the alpha plane attached.
    blz_heif_rgb_request request = {!state->alpha, 0, 0, 0};
    struct heif_color_profile_nclx *nclx = NULL;
    if (heif_image_handle_get_nclx_color_profile(state->handle, &nclx).code == heif_error_Ok && nclx != NULL) {
        request.has_nclx = 1;
        request.matrix_coefficients = (uint16_t)nclx->matrix_coefficients;
        request.full_range = nclx->full_range_flag != 0;
    }
    heif_nclx_color_profile_free(nclx);
    blz_heif_plugins_set_rgb_request(request);
#endif
    struct heif_error error = heif_decode_image(state->handle, &image, heif_colorspace_RGB,
                                                state->alpha ? heif_chroma_interleaved_RGBA : heif_chroma_444,
                                                options);
#ifdef BLZ_HEIF_PLUGINS
    blz_heif_plugins_set_pixel_limit(0);
    blz_heif_plugins_set_rgb_request((blz_heif_rgb_request){0, 0, 0, 0});
#endif
    heif_decoding_options_free(options);
    if (error.code != heif_error_Ok) {
        if (image != NULL) heif_image_release(image);
        return heif_failure(decoder, error);
    }
    const blz_status status = state->alpha ? copy_interleaved(decoder, image, pixels) : interleave(decoder, image, pixels);
    heif_image_release(image);
    return status;
}

void blz_heif_release(blz_decoder *decoder) {
    struct blz_heif_state *state = decoder->heif;
    if (state->handle != NULL) heif_image_handle_release(state->handle);
    if (state->context != NULL) heif_context_free(state->context);
    free(state->icc);
}
