// PNG decoding with libpng, behind a longjmp error handler.
//
// Every PNG is decoded to 8-bit gray, RGB or RGBA: 16-bit samples are scaled (rounded, not truncated),
// 1/2/4-bit gray is expanded, palettes become RGB, tRNS becomes an alpha channel, and gray with alpha
// becomes RGBA (gray replicated). Adam7 interlacing is undone. An iCCP profile is reported in `decoder->color`
// (decoder.c converts the pixels to sRGB); gAMA and cHRM without a profile are ignored. Chunks after the image data (and the final zlib checksum there) are not
// read, so an eXIf chunk placed after IDAT is ignored.
//
// Running out of data is TRUNCATED, and so is a chunk before the image data that declares more bytes than are
// left (checked before libpng allocates it); everything libpng reports as an error is CORRUPT (bad CRC on a
// critical chunk, bad zlib stream, missing PLTE ...). libpng's own 1,000,000-pixel dimension limits are
// lifted to the PNG maximum: the caller's pixel budget decides.
#include "decoder_internal.h"

#include <stdlib.h>
#include <string.h>

#include <png.h>

struct blz_png_state {
    png_structp png;
    png_infop info;
    /// Bytes of the caller's data consumed so far.
    size_t offset;
    /// The read callback ran out of data: the failure is TRUNCATED, whatever libpng says next.
    int ended;
    /// Passes to read: 7 for Adam7, 1 otherwise.
    int passes;
};

static void on_png_error(png_structp png, png_const_charp text) {
    blz_decoder *decoder = (blz_decoder *)png_get_error_ptr(png);
    blz_status status = BLZ_STATUS_CORRUPT;
    if (decoder->png != NULL && decoder->png->ended) status = BLZ_STATUS_TRUNCATED;
    else if (strcmp(text, "Out of memory") == 0 || strstr(text, "out of memory") != NULL)
        status = BLZ_STATUS_OUT_OF_MEMORY;
    blz_decoder_fail(decoder, status, "%s", text);
}

static void on_png_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void read_data(png_structp png, png_bytep output, size_t length) {
    blz_decoder *decoder = (blz_decoder *)png_get_io_ptr(png);
    struct blz_png_state *state = decoder->png;
    if (length > decoder->size - state->offset) {
        state->ended = 1;
        png_error(png, "the PNG data ends before the image does");
    }
    memcpy(output, decoder->data + state->offset, length);
    state->offset += length;
}

static uint32_t read_be32(const uint8_t *bytes) {
    return (uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 | (uint32_t)bytes[2] << 8 | bytes[3];
}

/// Whether every chunk before the first IDAT fits in the data, its CRC included. libpng allocates an
/// ancillary chunk's declared length before reading it (a 225-byte file declaring a 2 GB iTXt made it allocate
/// 2 GB; Debian's libpng only warns about lengths above its chunk limit), so a chunk longer than the bytes left
/// is refused here, as TRUNCATED: reading it would run out of data. IDAT is read in pieces, never whole.
static int chunks_fit_before_idat(const uint8_t *data, size_t size) {
    size_t offset = 8;  // after the signature
    while (size - offset >= 8) {
        const uint32_t length = read_be32(data + offset);
        if (memcmp(data + offset + 4, "IDAT", 4) == 0) return 1;
        if ((uint64_t)length + 12 > (uint64_t)(size - offset)) return 0;
        offset += 12 + (size_t)length;
    }
    return 1;  // the data ends at or near a chunk boundary: libpng reports that itself
}

/// The iCCP chunk's profile (decompressed by libpng, which drops a profile whose header or tag table is
/// inconsistent, and caps it at its chunk-size limit), for the conversion to sRGB after decoding (decoder.c). An
/// sRGB chunk has no profile to convert: the samples are sRGB already.
static void find_icc_profile(blz_decoder *decoder) {
#ifdef PNG_iCCP_SUPPORTED
    struct blz_png_state *state = decoder->png;
    png_charp name = NULL;
    int compression = 0;
    png_bytep profile = NULL;
    png_uint_32 size = 0;
    if (png_get_iCCP(state->png, state->info, &name, &compression, &profile, &size) != 0 && profile != NULL
        && size > 0) {
        decoder->color.icc = profile;  // owned by libpng's info structure
        decoder->color.icc_size = size;
    }
#else
    (void)decoder;
#endif
}

static blz_status blz_png_read_header(blz_decoder *decoder) {
    // libpng reports a zero dimension as a generic IHDR error; look at the IHDR ourselves first.
    if (decoder->size >= 24 && memcmp(decoder->data + 12, "IHDR", 4) == 0
        && (read_be32(decoder->data + 16) == 0 || read_be32(decoder->data + 20) == 0)) {
        return blz_decoder_set_failure(decoder, BLZ_STATUS_ZERO_SIZE, "the PNG declares a zero width or height");
    }
    if (decoder->size < 8 || !chunks_fit_before_idat(decoder->data, decoder->size)) {
        return blz_decoder_set_failure(decoder, BLZ_STATUS_TRUNCATED, "a PNG chunk is longer than the data left");
    }
    struct blz_png_state *state = blz_decoder_new_state(decoder, sizeof(struct blz_png_state));
    if (state == NULL) return BLZ_STATUS_OUT_OF_MEMORY;
    if (setjmp(decoder->jump)) return decoder->failure;

    state->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, decoder, on_png_error, on_png_warning);
    if (state->png == NULL) {
        return blz_decoder_set_failure(decoder, BLZ_STATUS_OUT_OF_MEMORY, "cannot create libpng's read structure");
    }
    state->info = png_create_info_struct(state->png);
    if (state->info == NULL) {
        return blz_decoder_set_failure(decoder, BLZ_STATUS_OUT_OF_MEMORY, "cannot create libpng's info structure");
    }
    png_set_read_fn(state->png, decoder, read_data);
    png_set_user_limits(state->png, PNG_UINT_31_MAX, PNG_UINT_31_MAX);
    png_read_info(state->png, state->info);

    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(state->png, state->info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    const int has_trns = png_get_valid(state->png, state->info, PNG_INFO_tRNS) != 0;
    uint32_t channels;
    switch (color_type) {
    case PNG_COLOR_TYPE_GRAY:
        if (bit_depth < 8) png_set_expand_gray_1_2_4_to_8(state->png);
        if (has_trns) {
            png_set_tRNS_to_alpha(state->png);
            png_set_gray_to_rgb(state->png);
        }
        channels = has_trns ? 4 : 1;
        break;
    case PNG_COLOR_TYPE_GRAY_ALPHA:
        png_set_gray_to_rgb(state->png);
        channels = 4;
        break;
    case PNG_COLOR_TYPE_PALETTE:
        png_set_palette_to_rgb(state->png);
        if (has_trns) png_set_tRNS_to_alpha(state->png);
        channels = has_trns ? 4 : 3;
        break;
    case PNG_COLOR_TYPE_RGB:
        if (has_trns) png_set_tRNS_to_alpha(state->png);
        channels = has_trns ? 4 : 3;
        break;
    case PNG_COLOR_TYPE_RGB_ALPHA: channels = 4; break;
    default:
        return blz_decoder_set_failure(decoder, BLZ_STATUS_CORRUPT, "invalid PNG colour type %d", color_type);
    }
    if (bit_depth == 16) png_set_scale_16(state->png);
    state->passes = png_set_interlace_handling(state->png);

    decoder->header.width = width;
    decoder->header.height = height;
    decoder->header.channels = channels;
    find_icc_profile(decoder);
#ifdef PNG_eXIf_SUPPORTED
    png_uint_32 exif_size = 0;
    png_bytep exif = NULL;
    if (png_get_eXIf_1(state->png, state->info, &exif_size, &exif) != 0 && exif != NULL && exif_size > 0) {
        decoder->header.exif = exif;
        decoder->header.exif_size = exif_size;
    }
#endif
    return BLZ_STATUS_OK;
}

static blz_status blz_png_read_pixels(blz_decoder *decoder, uint8_t *pixels) {
    struct blz_png_state *state = decoder->png;
    const size_t stride = (size_t)decoder->header.width * decoder->header.channels; // Checked by the caller.
    if (setjmp(decoder->jump)) return decoder->failure;

    png_read_update_info(state->png, state->info);
    if (png_get_channels(state->png, state->info) != decoder->header.channels
        || png_get_bit_depth(state->png, state->info) != 8
        || png_get_rowbytes(state->png, state->info) != stride) {
        return blz_decoder_set_failure(decoder, BLZ_STATUS_UNSUPPORTED,
                                       "libpng's transformed layout (%d channels, %d bits) is not the expected one",
                                       png_get_channels(state->png, state->info),
                                       png_get_bit_depth(state->png, state->info));
    }
    // With interlace handling on, each pass writes only its own pixels into the full rows, so after the
    // last pass every pixel is set (this is what png_read_image does, without its row-pointer array).
    const size_t height = decoder->header.height;
    for (int pass = 0; pass < state->passes; pass++) {
        for (size_t y = 0; y < height; y++) png_read_row(state->png, pixels + y * stride, NULL);
    }
    return BLZ_STATUS_OK;
}

static void blz_png_release(blz_decoder *decoder) {
    struct blz_png_state *state = decoder->png;
    if (state->png != NULL) png_destroy_read_struct(&state->png, state->info != NULL ? &state->info : NULL, NULL);
}

const blz_codec_backend blz_png_backend = {blz_png_read_header, NULL, blz_png_read_pixels, blz_png_release};
