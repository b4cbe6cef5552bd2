// JPEG decoding with libjpeg(-turbo), behind a longjmp error manager.
//
// Policy:
// - libjpeg's fatal errors jump back to the entry point with CORRUPT (or ZERO_SIZE, UNSUPPORTED,
//   OUT_OF_MEMORY for the codes that mean those).
// - Warnings that say the entropy-coded data is corrupt ("premature end of data segment", "bad Huffman
//   code", "must resync", ...) are CORRUPT too, so a damaged file never decodes to a half-gray picture.
//   Harmless warnings (extraneous bytes between markers, unknown Adobe transform or JFIF revision, a bad
//   ICC marker we do not read) are ignored.
// - Running out of data: like libjpeg's memory source, the source manager then feeds libjpeg an EOI marker,
//   but it remembers that the data ended, and from then on every error or corrupt-data warning is
//   TRUNCATED. libjpeg warns as soon as it needs entropy-coded bits it does not have, so a sequential
//   image cut anywhere fails; a file that lacks only its final EOI marker still decodes (as in libjpeg and
//   browsers). Multi-scan files are consumed whole by jpeg_start_decompress, and a cut between two scans
//   raises no warning, so for them the scans seen are checked when the data ended early: every
//   coefficient of every component must have been completed (progressive), or every component scanned
//   (sequential).
// - CMYK and YCCK are decoded to CMYK by libjpeg and converted to RGB here (libjpeg has no CMYK -> RGB).
// - An ICC profile (APP2 markers) is reported in `decoder->color`; decoder.c converts the pixels to sRGB.
#include "decoder_internal.h"

#include <stdio.h> // jpeglib.h needs FILE and size_t first.
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h> // After jpeglib.h: its message list depends on jconfig.h.

/// Progressive files with more scans than this are refused: each scan re-decodes the whole coefficient
/// buffer, so a crafted file with thousands of tiny scans is a denial of service. Real encoders emit ~10.
#define BLZ_JPEG_MAX_SCANS 500

struct blz_jpeg_state {
    struct jpeg_decompress_struct cinfo;
    struct jpeg_error_mgr error;
    struct jpeg_source_mgr source;
    struct jpeg_progress_mgr progress;
    /// jpeg_create_decompress was called (jpeg_destroy_decompress is then due).
    int created;
    /// The file is CMYK or YCCK, decoded to CMYK and converted to RGB row by row.
    int cmyk;
    /// Adobe's CMYK convention (an APP14 Adobe marker is present): libjpeg returns inverted C, M, Y, K.
    int cmyk_inverted;
    /// The data ran out and libjpeg was given a fake EOI marker.
    int ended;
    /// Components that appeared in some scan (bit i for component index i), seen by the progress monitor.
    unsigned scanned_components;
    /// The ICC profile of the APP2 "ICC_PROFILE" markers, joined by libjpeg-turbo (malloc'ed), or NULL.
    JOCTET *icc;
};

static blz_decoder *decoder_of(j_common_ptr cinfo) {
    return (blz_decoder *)cinfo->client_data;
}

static int data_ended(j_common_ptr cinfo) {
    return decoder_of(cinfo)->jpeg->ended;
}

static blz_status status_for_error(int code) {
    switch (code) {
    case JERR_EMPTY_IMAGE: return BLZ_STATUS_ZERO_SIZE;
    case JERR_IMAGE_TOO_BIG:
    case JERR_BAD_PRECISION:
    case JERR_SOF_UNSUPPORTED:
    case JERR_ARITH_NOTIMPL:
    case JERR_NOT_COMPILED:
    case JERR_NOTIMPL:
    case JERR_CONVERSION_NOTIMPL: return BLZ_STATUS_UNSUPPORTED;
    case JERR_OUT_OF_MEMORY: return BLZ_STATUS_OUT_OF_MEMORY;
    default: return BLZ_STATUS_CORRUPT;
    }
}

/// libjpeg's error_exit: never returns (the default one calls exit()).
static void on_error_exit(j_common_ptr cinfo) {
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    blz_decoder *decoder = decoder_of(cinfo);
    if (data_ended(cinfo)) {
        blz_decoder_fail(decoder, BLZ_STATUS_TRUNCATED, "the data ends after %zu bytes, before the image does (%s)",
                         decoder->size, text);
    }
    blz_decoder_fail(decoder, status_for_error(cinfo->err->msg_code), "%s", text);
}

/// libjpeg's emit_message: level -1 is a warning, 0 and up are trace messages.
static void on_emit_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return;
    switch (cinfo->err->msg_code) {
    case JWRN_JPEG_EOF: // Not emitted by our source manager; kept for safety.
    case JWRN_HIT_MARKER:
    case JWRN_HUFF_BAD_CODE:
    case JWRN_ARITH_BAD_CODE:
    case JWRN_MUST_RESYNC:
    case JWRN_NOT_SEQUENTIAL:
    case JWRN_BOGUS_PROGRESSION: {
        char text[JMSG_LENGTH_MAX];
        (*cinfo->err->format_message)(cinfo, text);
        blz_decoder *decoder = decoder_of(cinfo);
        if (data_ended(cinfo) || cinfo->err->msg_code == JWRN_JPEG_EOF) {
            blz_decoder_fail(decoder, BLZ_STATUS_TRUNCATED,
                             "the data ends after %zu bytes, before the image does (%s)", decoder->size, text);
        }
        blz_decoder_fail(decoder, BLZ_STATUS_CORRUPT, "%s", text);
    }
    default: cinfo->err->num_warnings++; return;
    }
}

/// libjpeg's output_message prints to stderr; a library must not.
static void on_output_message(j_common_ptr cinfo) {
    (void)cinfo;
}

// MARK: Source manager over the caller's bytes

static void source_init(j_decompress_ptr cinfo) {
    (void)cinfo;
}

/// Called when libjpeg has consumed every byte: feeds it an EOI marker (again and again if need be).
static boolean source_fill(j_decompress_ptr cinfo) {
    static const JOCTET fake_eoi[2] = {0xFF, JPEG_EOI};
    decoder_of((j_common_ptr)cinfo)->jpeg->ended = 1;
    cinfo->src->next_input_byte = fake_eoi;
    cinfo->src->bytes_in_buffer = sizeof fake_eoi;
    return TRUE;
}

static void source_skip(j_decompress_ptr cinfo, long count) {
    struct jpeg_source_mgr *source = cinfo->src;
    if (count <= 0) return;
    if ((unsigned long)count > source->bytes_in_buffer) {
        source_fill(cinfo); // Skipping past the end: what follows is the fake EOI.
        return;
    }
    source->next_input_byte += count;
    source->bytes_in_buffer -= (size_t)count;
}

static void source_term(j_decompress_ptr cinfo) {
    (void)cinfo;
}

/// Called by libjpeg after each unit of input is consumed: at least once during every scan.
static void on_progress(j_common_ptr cinfo) {
    j_decompress_ptr dinfo = (j_decompress_ptr)cinfo;
    blz_decoder *decoder = decoder_of(cinfo);
    if (dinfo->input_scan_number > BLZ_JPEG_MAX_SCANS) {
        blz_decoder_fail(decoder, BLZ_STATUS_CORRUPT, "the JPEG has more than %d scans", BLZ_JPEG_MAX_SCANS);
    }
    for (int i = 0; i < dinfo->comps_in_scan && i < MAX_COMPS_IN_SCAN; i++) {
        const jpeg_component_info *component = dinfo->cur_comp_info[i];
        if (component != NULL && component->component_index >= 0 && component->component_index < 32) {
            decoder->jpeg->scanned_components |= 1u << component->component_index;
        }
    }
}

/// After the data ended early in a multi-scan file: did every component get all its data?
static int scans_complete(j_decompress_ptr cinfo, const struct blz_jpeg_state *state) {
    if (cinfo->progressive_mode) {
        if (cinfo->coef_bits == NULL) return 0;
        for (int c = 0; c < cinfo->num_components; c++) {
            for (int k = 0; k < DCTSIZE2; k++) {
                if (cinfo->coef_bits[c][k] != 0) return 0; // -1: never sent; > 0: refinement missing.
            }
        }
        return 1;
    }
    const unsigned all = cinfo->num_components >= 32 ? ~0u : (1u << cinfo->num_components) - 1;
    return (state->scanned_components & all) == all;
}

// MARK: EXIF

static void find_exif(blz_decoder *decoder, j_decompress_ptr cinfo) {
    static const uint8_t prefix[6] = {'E', 'x', 'i', 'f', 0, 0};
    for (jpeg_saved_marker_ptr marker = cinfo->marker_list; marker != NULL; marker = marker->next) {
        if (marker->marker != JPEG_APP0 + 1 || marker->data_length < sizeof prefix) continue;
        if (memcmp(marker->data, prefix, sizeof prefix) != 0) continue;
        decoder->header.exif = marker->data + sizeof prefix;
        decoder->header.exif_size = marker->data_length - sizeof prefix;
        return;
    }
}

// MARK: ICC profile

/// The ICC profile, for the conversion to sRGB after decoding (decoder.c). libjpeg-turbo's jpeg_read_icc_profile
/// joins the APP2 "ICC_PROFILE" chunks in their sequence numbers' order and returns nothing (with a warning,
/// ignored) when they are inconsistent: a missing, repeated or out-of-range chunk. CMYK files keep their
/// profile too; the conversion ignores it, as the pixels are made RGB without one.
static void find_icc_profile(blz_decoder *decoder, j_decompress_ptr cinfo) {
#if defined(LIBJPEG_TURBO_VERSION_NUMBER) && LIBJPEG_TURBO_VERSION_NUMBER >= 1005090
    struct blz_jpeg_state *state = decoder->jpeg;
    JOCTET *icc = NULL;
    unsigned int size = 0;
    if (jpeg_read_icc_profile(cinfo, &icc, &size) && icc != NULL && size > 0) {
        state->icc = icc;
        decoder->color.icc = icc;
        decoder->color.icc_size = size;
    } else {
        free(icc);
    }
#else
    (void)decoder;
    (void)cinfo; // IJG's libjpeg has no jpeg_read_icc_profile: the profile is not read.
#endif
}

// MARK: Entry points

static blz_status blz_jpeg_read_header(blz_decoder *decoder) {
    struct blz_jpeg_state *state = blz_decoder_new_state(decoder, sizeof(struct blz_jpeg_state));
    if (state == NULL) return BLZ_STATUS_OUT_OF_MEMORY;
    j_decompress_ptr cinfo = &state->cinfo;
    cinfo->err = jpeg_std_error(&state->error);
    state->error.error_exit = on_error_exit;
    state->error.emit_message = on_emit_message;
    state->error.output_message = on_output_message;
    cinfo->client_data = decoder;
    if (setjmp(decoder->jump)) return decoder->failure;

    // jpeg_create_decompress keeps err and client_data; destroying a half-created object is safe.
    state->created = 1;
    jpeg_create_decompress(cinfo);
    state->source.init_source = source_init;
    state->source.fill_input_buffer = source_fill;
    state->source.skip_input_data = source_skip;
    state->source.resync_to_restart = jpeg_resync_to_restart;
    state->source.term_source = source_term;
    state->source.next_input_byte = decoder->data;
    state->source.bytes_in_buffer = decoder->size;
    cinfo->src = &state->source;
    state->progress.progress_monitor = on_progress;
    cinfo->progress = &state->progress;
    jpeg_save_markers(cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(cinfo, JPEG_APP0 + 2, 0xFFFF); // ICC profiles, possibly split over several markers

    jpeg_read_header(cinfo, TRUE);

    switch (cinfo->jpeg_color_space) {
    case JCS_GRAYSCALE:
        cinfo->out_color_space = JCS_GRAYSCALE;
        decoder->header.channels = 1;
        break;
    case JCS_YCbCr:
    case JCS_RGB:
        cinfo->out_color_space = JCS_RGB;
        decoder->header.channels = 3;
        break;
    case JCS_CMYK:
    case JCS_YCCK:
        cinfo->out_color_space = JCS_CMYK;
        decoder->header.channels = 3;
        state->cmyk = 1;
        state->cmyk_inverted = cinfo->saw_Adobe_marker;
        break;
    default:
        return blz_decoder_set_failure(decoder, BLZ_STATUS_UNSUPPORTED,
                                       "unsupported JPEG colour space (%d components)", cinfo->num_components);
    }
    if (cinfo->image_width == 0 || cinfo->image_height == 0) { // libjpeg refuses these; be sure.
        return blz_decoder_set_failure(decoder, BLZ_STATUS_ZERO_SIZE, "the JPEG declares a zero width or height");
    }
    decoder->header.width = cinfo->image_width;
    decoder->header.height = cinfo->image_height;
    find_exif(decoder, cinfo);
    find_icc_profile(decoder, cinfo);
    return BLZ_STATUS_OK;
}

/// Sets libjpeg's scale to 1/`denominator` and stores the output size in `output_width`/`output_height`.
static blz_status blz_jpeg_set_scale(blz_decoder *decoder, unsigned denominator) {
    j_decompress_ptr cinfo = &decoder->jpeg->cinfo;
    if (setjmp(decoder->jump)) return decoder->failure;
    cinfo->scale_num = 1;
    cinfo->scale_denom = denominator;
    jpeg_calc_output_dimensions(cinfo); // Computes sizes only; allocates nothing.
    if (cinfo->output_width == 0 || cinfo->output_height == 0) {
        return blz_decoder_set_failure(decoder, BLZ_STATUS_CORRUPT, "libjpeg's output at 1/%u is %ux%u", denominator,
                                       cinfo->output_width, cinfo->output_height);
    }
    decoder->output_width = cinfo->output_width;
    decoder->output_height = cinfo->output_height;
    return BLZ_STATUS_OK;
}

/// CMYK to RGB, `count` pixels. Adobe files store inverted ink (255 = no ink), so R = C * K / 255 with
/// the stored values; other files store ink, so R = (255 - C) * (255 - K) / 255. Rounded to nearest.
static void cmyk_to_rgb(const uint8_t *cmyk, uint8_t *rgb, size_t count, int inverted) {
    for (size_t i = 0; i < count; i++, cmyk += 4, rgb += 3) {
        unsigned c = cmyk[0], m = cmyk[1], y = cmyk[2], k = cmyk[3];
        if (!inverted) {
            c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k;
        }
        rgb[0] = (uint8_t)((c * k + 127) / 255);
        rgb[1] = (uint8_t)((m * k + 127) / 255);
        rgb[2] = (uint8_t)((y * k + 127) / 255);
    }
}

static blz_status blz_jpeg_read_pixels(blz_decoder *decoder, uint8_t *pixels) {
    struct blz_jpeg_state *state = decoder->jpeg;
    j_decompress_ptr cinfo = &state->cinfo;
    const size_t width = decoder->output_width; // The header's, or the scaled size set_scale chose.
    const size_t stride = width * decoder->header.channels; // Checked by the caller with the height.
    if (setjmp(decoder->jump)) return decoder->failure;

    jpeg_start_decompress(cinfo);
    const int expected_components = state->cmyk ? 4 : (int)decoder->header.channels;
    if (cinfo->output_width != width || cinfo->output_height != decoder->output_height
        || cinfo->output_components != expected_components) {
        return blz_decoder_set_failure(decoder, BLZ_STATUS_CORRUPT, "libjpeg's output is %ux%u with %d components",
                                       cinfo->output_width, cinfo->output_height, cinfo->output_components);
    }
    JSAMPARRAY cmyk_row = NULL;
    if (state->cmyk) { // From libjpeg's pool: freed with the decompressor, out-of-memory handled by it.
        cmyk_row = (*cinfo->mem->alloc_sarray)((j_common_ptr)cinfo, JPOOL_IMAGE, (JDIMENSION)(width * 4), 1);
    }
    while (cinfo->output_scanline < cinfo->output_height) {
        size_t y = cinfo->output_scanline;
        JSAMPROW row = state->cmyk ? cmyk_row[0] : pixels + y * stride;
        if (jpeg_read_scanlines(cinfo, &row, 1) != 1) {
            return blz_decoder_set_failure(decoder, BLZ_STATUS_TRUNCATED, "libjpeg returned no scanline at row %zu", y);
        }
        if (state->cmyk) cmyk_to_rgb(cmyk_row[0], pixels + y * stride, width, state->cmyk_inverted);
    }
    if (state->ended && !scans_complete(cinfo, state)) {
        return blz_decoder_set_failure(decoder, BLZ_STATUS_TRUNCATED,
                                       "the data ends after %zu bytes, before the last scan", decoder->size);
    }
    // jpeg_finish_decompress is not called: every pixel is decoded, and it would only read on to the EOI
    // marker (a file missing its EOI still decodes).
    return BLZ_STATUS_OK;
}

static void blz_jpeg_release(blz_decoder *decoder) {
    struct blz_jpeg_state *state = decoder->jpeg;
    if (state->created) jpeg_destroy_decompress(&state->cinfo);
    free(state->icc);
}

const blz_codec_backend blz_jpeg_backend = {blz_jpeg_read_header, blz_jpeg_set_scale, blz_jpeg_read_pixels,
                                             blz_jpeg_release};
