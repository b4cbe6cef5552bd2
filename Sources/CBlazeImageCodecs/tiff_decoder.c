// TIFF decoding with libtiff: the first directory (page), read from memory through TIFFClientOpenExt's
// procedures and the data "mapped" (never a path), converted by libtiff's TIFFRGBAImage interface.
//
// Policy:
// - libtiff's errors and warnings go to handlers of this decoder (TIFFOpenOptions, libtiff 4.5 and up): nothing
//   is printed, the first error becomes the message. A read past the end of the data makes the failure
//   TRUNCATED; other failures are CORRUPT, or UNSUPPORTED for what TIFFRGBAImageOK refuses (32-bit or
//   floating-point samples, odd photometric interpretations).
// - Channels: gray (min-is-black or min-is-white, no alpha) gives 1; an alpha channel (extra sample 0
//   associated or unassociated, or unspecified with 4 or more samples, as libtiff decides) gives 4; everything
//   else (RGB, palettes, CMYK, YCbCr and JPEG-compressed, CIE Lab, ...) gives 3. 16-bit samples become 8 bits
//   as libtiff makes them: colour rounded (n / 257 to nearest, as PNG's), gray by its high byte (n >> 8: at
//   most one level below PNG's rounding).
// - Alpha comes out straight, as PNG's: libtiff premultiplies unassociated alpha, so the directory is told that
//   the extra sample is associated (libtiff then passes it through), and samples that were truly associated
//   are divided by alpha afterwards.
// - The pixels are as stored, top row first: the Orientation tag (1...8, the values EXIF took over) is
//   reported as a one-tag EXIF payload, not applied (TIFFRGBAImage would flip for some values: its own
//   orientation handling is switched off).
// - An ICC profile (the ICCProfile tag, 34675) is reported in `decoder->color` by the pixel step, from its own
//   handle (the header step's is closed by then); decoder.c converts the pixels to sRGB. A profile that does not
//   describe the decoded RGB or gray (a CMYK one, which libtiff's RGBA interface has already turned to RGB) is
//   ignored there.
// - Before anything grows with the image: at most 8 samples of at most 16 bits per pixel, and tiles no larger
//   than the image (rounded up to 16) or 1024 x 1024 are accepted, so that libtiff's strip or tile buffer is
//   bounded by the size the caller accepted (or 16 MB). The pixels are read in bands of whole strips or tiles into a band buffer of
//   width x band rows x 4 bytes.
#include "decoder_internal.h"

#include <stdlib.h>
#include <string.h>

#include <tiffio.h>

struct blz_tiff_state {
    /// The handle of the header step (reads through read_proc, which sees a cut-off directory), then the one of
    /// the pixel step (the data "mapped": see map_proc).
    TIFF *tiff;
    /// Bytes of the caller's data before the read position.
    uint64_t offset;
    /// A read asked for bytes past the end of the data.
    int ended;
    /// libtiff reported an error (its first message is in the decoder's message).
    int failed;
    /// The alpha channel was associated (premultiplied) in the file: divide it out after reading.
    int premultiplied;
    /// The alpha channel is unassociated: the pixel step's directory is told it is associated (see below).
    int unassociated;
    /// Rows per band: a whole number of strips or tiles.
    uint32_t band;
    uint8_t exif[26];
};

static blz_decoder *decoder_of(thandle_t handle) {
    return (blz_decoder *)handle;
}

static tmsize_t read_proc(thandle_t handle, void *buffer, tmsize_t size) {
    blz_decoder *decoder = decoder_of(handle);
    struct blz_tiff_state *state = decoder->tiff;
    if (size <= 0) return 0;
    const uint64_t left = state->offset < decoder->size ? decoder->size - state->offset : 0;
    uint64_t count = (uint64_t)size;
    if (count > left) {
        count = left;
        state->ended = 1;
    }
    if (count > 0) memcpy(buffer, decoder->data + state->offset, (size_t)count);
    state->offset += count;
    return (tmsize_t)count;
}

static tmsize_t write_proc(thandle_t handle, void *buffer, tmsize_t size) {
    (void)handle;
    (void)buffer;
    (void)size;
    return -1;
}

static toff_t seek_proc(thandle_t handle, toff_t offset, int whence) {
    blz_decoder *decoder = decoder_of(handle);
    struct blz_tiff_state *state = decoder->tiff;
    uint64_t base = 0;
    if (whence == SEEK_CUR) base = state->offset;
    else if (whence == SEEK_END) base = decoder->size;
    if (offset > UINT64_MAX - base) return (toff_t)-1;
    state->offset = base + offset; // May lie past the end: the next read then comes up short.
    return state->offset;
}

static int close_proc(thandle_t handle) {
    (void)handle;
    return 0;
}

static toff_t size_proc(thandle_t handle) {
    return decoder_of(handle)->size;
}

/// The data as a "mapped file" for the pixel step: libtiff then reads strips and tiles in place. It never writes
/// to a file opened for reading (it copies a strip first when bits must be reversed). Without mapping, libtiff
/// 4.5 refuses uncompressed tiles whose size is not a multiple of 1,024 bytes ("Invalid tile byte count"): its
/// read buffer is rounded up and then compared with the tile size. The header step does not map, so that a
/// directory cut off by the end of the data is a short read (TRUNCATED) rather than an error of libtiff's.
static int map_proc(thandle_t handle, void **base, toff_t *size) {
    blz_decoder *decoder = decoder_of(handle);
    *base = (void *)decoder->data;
    *size = decoder->size;
    return 1;
}

static void unmap_proc(thandle_t handle, void *base, toff_t size) {
    (void)handle;
    (void)base;
    (void)size;
}

static int on_error(TIFF *tiff, void *user_data, const char *module, const char *format, va_list arguments) {
    (void)tiff;
    (void)module;
    blz_decoder *decoder = (blz_decoder *)user_data;
    if (decoder->tiff != NULL && !decoder->tiff->failed) {
        decoder->tiff->failed = 1;
        vsnprintf(decoder->message, sizeof decoder->message, format, arguments);
    }
    return 1; // handled: libtiff's global handler (which prints) is not called
}

static int on_warning(TIFF *tiff, void *user_data, const char *module, const char *format, va_list arguments) {
    (void)tiff;
    (void)user_data;
    (void)module;
    (void)format;
    (void)arguments;
    return 1;
}

/// Whether some strip or tile of the open directory lies (partly) past the end of the data.
static int data_missing(const blz_decoder *decoder, TIFF *tiff) {
    if (tiff == NULL) return 0;
    const uint32_t count = TIFFIsTiled(tiff) ? TIFFNumberOfTiles(tiff) : TIFFNumberOfStrips(tiff);
    for (uint32_t i = 0; i < count; i++) {
        const uint64_t offset = TIFFGetStrileOffset(tiff, i), bytes = TIFFGetStrileByteCount(tiff, i);
        if (offset > decoder->size || bytes > decoder->size - offset) return 1;
    }
    return 0;
}

/// The status of a failure libtiff reported (or that a call returned without a report).
static blz_status fail(blz_decoder *decoder, blz_status otherwise, const char *fallback) {
    struct blz_tiff_state *state = decoder->tiff;
    if (!state->ended && otherwise != BLZ_STATUS_UNSUPPORTED) state->ended = data_missing(decoder, state->tiff);
    char detail[BLZ_MESSAGE_CAPACITY];
    snprintf(detail, sizeof detail, "%s", state->failed ? decoder->message : fallback);
    const blz_status status = state->ended ? BLZ_STATUS_TRUNCATED : otherwise;
    if (state->ended) {
        blz_decoder_set_failure(decoder, status, "the data ends after %zu bytes, before the image does (%s)",
                                decoder->size, detail);
    } else {
        blz_decoder_set_failure(decoder, status, "%s", detail);
    }
    return status;
}

/// Opens the data and reads its first directory into `state->tiff`: "rm" (read, no mapping: every read through
/// read_proc) for the header step, "r" with the data mapped for the pixel step. 0 on failure.
static int open_tiff(blz_decoder *decoder, int mapped) {
    struct blz_tiff_state *state = decoder->tiff;
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (options == NULL) return 0;
    TIFFOpenOptionsSetErrorHandlerExtR(options, on_error, decoder);
    TIFFOpenOptionsSetWarningHandlerExtR(options, on_warning, decoder);
    state->offset = 0;
    state->tiff = TIFFClientOpenExt("memory", mapped ? "r" : "rm", decoder, read_proc, write_proc, seek_proc,
                                    close_proc, size_proc, mapped ? map_proc : NULL, mapped ? unmap_proc : NULL,
                                    options);
    TIFFOpenOptionsFree(options);
    return state->tiff != NULL;
}

static blz_status blz_tiff_read_header(blz_decoder *decoder) {
    struct blz_tiff_state *state = blz_decoder_new_state(decoder, sizeof(struct blz_tiff_state));
    if (state == NULL) return BLZ_STATUS_OUT_OF_MEMORY;
    if (!open_tiff(decoder, 0)) return fail(decoder, BLZ_STATUS_CORRUPT, "libtiff cannot read the first directory");
    TIFF *tiff = state->tiff;

    uint32_t width = 0, height = 0;
    uint16_t samples = 1, bits = 1, orientation = ORIENTATION_TOPLEFT, photometric = 0;
    TIFFGetField(tiff, TIFFTAG_IMAGEWIDTH, &width);
    TIFFGetField(tiff, TIFFTAG_IMAGELENGTH, &height);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_SAMPLESPERPIXEL, &samples);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_BITSPERSAMPLE, &bits);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_ORIENTATION, &orientation);
    const int has_photometric = TIFFGetField(tiff, TIFFTAG_PHOTOMETRIC, &photometric);
    if (width == 0 || height == 0) {
        return blz_decoder_set_failure(decoder, BLZ_STATUS_ZERO_SIZE, "the TIFF declares %u x %u pixels", width,
                                       height);
    }
    if (samples == 0 || samples > 8 || bits == 0 || bits > 16) {
        return blz_decoder_set_failure(decoder, BLZ_STATUS_UNSUPPORTED, "%u samples of %u bits per pixel", samples,
                                       bits);
    }
    if (TIFFIsTiled(tiff)) {
        uint32_t tile_width = 0, tile_height = 0;
        TIFFGetField(tiff, TIFFTAG_TILEWIDTH, &tile_width);
        TIFFGetField(tiff, TIFFTAG_TILELENGTH, &tile_height);
        // Tiles may be larger than a small image (256 x 256 tiles over 100 x 100 pixels is valid), but not by
        // much: the tile buffer libtiff allocates must stay near the size the caller accepts.
        const uint64_t most_wide = width > 1024 ? ((uint64_t)width + 15) / 16 * 16 : 1024;
        const uint64_t most_high = height > 1024 ? ((uint64_t)height + 15) / 16 * 16 : 1024;
        if (tile_width == 0 || tile_height == 0 || tile_width > most_wide || tile_height > most_high) {
            return blz_decoder_set_failure(decoder, BLZ_STATUS_CORRUPT, "tiles of %u x %u for a %u x %u image",
                                           tile_width, tile_height, width, height);
        }
        state->band = tile_height;
    } else {
        uint32_t rows_per_strip = height;
        TIFFGetFieldDefaulted(tiff, TIFFTAG_ROWSPERSTRIP, &rows_per_strip);
        state->band = rows_per_strip == 0 ? height : rows_per_strip;
    }
    if (state->band > height) state->band = height;

    char reason[1024] = "";
    if (!TIFFRGBAImageOK(tiff, reason)) {
        if (state->failed || state->ended) return fail(decoder, BLZ_STATUS_CORRUPT, reason);
        return blz_decoder_set_failure(decoder, BLZ_STATUS_UNSUPPORTED, "%s", reason);
    }

    // Alpha as libtiff's TIFFRGBAImageBegin decides it.
    uint16_t extra_count = 0;
    uint16_t *extra = NULL;
    TIFFGetFieldDefaulted(tiff, TIFFTAG_EXTRASAMPLES, &extra_count, &extra);
    int alpha = 0;
    if (extra_count >= 1 && extra != NULL) {
        if (extra[0] == EXTRASAMPLE_ASSOCALPHA) {
            alpha = 1;
            state->premultiplied = 1;
        } else if (extra[0] == EXTRASAMPLE_UNASSALPHA) {
            alpha = 1;
            state->unassociated = 1;
        } else if (extra[0] == EXTRASAMPLE_UNSPECIFIED && samples > 3) {
            alpha = 1; // libtiff takes it as associated alpha and passes it through.
        }
    }
    const int gray = has_photometric && (photometric == PHOTOMETRIC_MINISBLACK
                                         || photometric == PHOTOMETRIC_MINISWHITE);
    decoder->header.width = width;
    decoder->header.height = height;
    decoder->header.channels = alpha ? 4 : (gray ? 1 : 3);
    if (orientation >= 1 && orientation <= 8 && orientation != ORIENTATION_TOPLEFT) {
        blz_orientation_exif(state->exif, orientation);
        decoder->header.exif = state->exif;
        decoder->header.exif_size = sizeof state->exif;
    }
    return BLZ_STATUS_OK;
}

/// Straight (unpremultiplied) colour from a premultiplied sample: c * 255 / a, rounded, at most 255.
static uint8_t unpremultiply(uint32_t c, uint32_t a) {
    if (a == 0) return 0;
    const uint32_t value = (c * 255 + a / 2) / a;
    return value > 255 ? 255 : (uint8_t)value;
}

/// Tells the pixel step's directory that an unassociated alpha is associated: libtiff then copies the samples
/// instead of premultiplying them (its RGBA interface always returns premultiplied colour).
static int keep_alpha_straight(TIFF *tiff) {
    uint16_t count = 0;
    uint16_t *extra = NULL;
    if (!TIFFGetField(tiff, TIFFTAG_EXTRASAMPLES, &count, &extra) || count == 0 || extra == NULL || count > 8) return 0;
    uint16_t changed[8];
    memcpy(changed, extra, count * sizeof(uint16_t));
    changed[0] = EXTRASAMPLE_ASSOCALPHA;
    return TIFFSetField(tiff, TIFFTAG_EXTRASAMPLES, count, changed);
}

static blz_status blz_tiff_read_pixels(blz_decoder *decoder, uint8_t *pixels) {
    struct blz_tiff_state *state = decoder->tiff;
    const uint32_t width = decoder->header.width, height = decoder->header.height;
    const uint32_t channels = decoder->header.channels;
    TIFFClose(state->tiff);
    if (!open_tiff(decoder, 1)) return fail(decoder, BLZ_STATUS_CORRUPT, "libtiff cannot read the first directory");
    uint32_t check_width = 0, check_height = 0;
    TIFFGetField(state->tiff, TIFFTAG_IMAGEWIDTH, &check_width);
    TIFFGetField(state->tiff, TIFFTAG_IMAGELENGTH, &check_height);
    if (check_width != width || check_height != height
        || (state->unassociated && !keep_alpha_straight(state->tiff))) {
        return fail(decoder, BLZ_STATUS_CORRUPT, "the first directory reads differently the second time");
    }
    uint32_t icc_size = 0;
    void *icc = NULL;
    if (TIFFGetField(state->tiff, TIFFTAG_ICCPROFILE, &icc_size, &icc) && icc != NULL && icc_size > 0) {
        decoder->color.icc = icc; // owned by this handle, open until blz_tiff_release
        decoder->color.icc_size = icc_size;
    }
    char reason[1024] = "";
    TIFFRGBAImage image;
    if (!TIFFRGBAImageBegin(&image, state->tiff, 1, reason)) {
        return fail(decoder, BLZ_STATUS_UNSUPPORTED, reason);
    }
    // Rows as stored, top first: no flips for the file's orientation (reported as EXIF instead).
    image.req_orientation = ORIENTATION_TOPLEFT;
    image.orientation = ORIENTATION_TOPLEFT;
    size_t band_pixels;
    uint32_t *band = NULL;
    if (!blz_checked_size(width, state->band, 1, &band_pixels)
        || (band = malloc(band_pixels * sizeof(uint32_t))) == NULL) {
        TIFFRGBAImageEnd(&image);
        return blz_decoder_set_failure(decoder, BLZ_STATUS_OUT_OF_MEMORY, "out of memory for %u rows", state->band);
    }
    blz_status status = BLZ_STATUS_OK;
    for (uint32_t top = 0; top < height && status == BLZ_STATUS_OK; top += state->band) {
        const uint32_t rows = height - top < state->band ? height - top : state->band;
        image.row_offset = (int)top;
        image.col_offset = 0;
        if (!TIFFRGBAImageGet(&image, band, width, rows) || state->failed) {
            status = fail(decoder, BLZ_STATUS_CORRUPT, "libtiff cannot decode the image data");
            break;
        }
        const size_t count = (size_t)width * rows;
        uint8_t *output = pixels + (size_t)top * width * channels;
        for (size_t i = 0; i < count; i++) {
            const uint32_t value = band[i];
            const uint32_t r = TIFFGetR(value), g = TIFFGetG(value), b = TIFFGetB(value), a = TIFFGetA(value);
            if (channels == 1) {
                output[i] = (uint8_t)r; // libtiff replicates gray into R, G and B.
            } else if (channels == 3) {
                output[3 * i] = (uint8_t)r;
                output[3 * i + 1] = (uint8_t)g;
                output[3 * i + 2] = (uint8_t)b;
            } else if (state->premultiplied && a < 255) {
                output[4 * i] = unpremultiply(r, a);
                output[4 * i + 1] = unpremultiply(g, a);
                output[4 * i + 2] = unpremultiply(b, a);
                output[4 * i + 3] = (uint8_t)a;
            } else {
                output[4 * i] = (uint8_t)r;
                output[4 * i + 1] = (uint8_t)g;
                output[4 * i + 2] = (uint8_t)b;
                output[4 * i + 3] = (uint8_t)a;
            }
        }
    }
    free(band);
    TIFFRGBAImageEnd(&image);
    return status;
}

static void blz_tiff_release(blz_decoder *decoder) {
    struct blz_tiff_state *state = decoder->tiff;
    if (state->tiff != NULL) TIFFClose(state->tiff);
}

const blz_codec_backend blz_tiff_backend = {blz_tiff_read_header, NULL, blz_tiff_read_pixels, blz_tiff_release};
