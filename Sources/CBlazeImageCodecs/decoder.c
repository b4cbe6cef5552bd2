// The codec-independent part of blz_decoder: creation, the calling sequence, messages.
#include "decoder_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

blz_decoder *blz_decoder_create(blz_codec codec, const uint8_t *data, size_t size) {
    blz_decoder *decoder = calloc(1, sizeof(blz_decoder));
    if (decoder == NULL) return NULL;
    decoder->codec = codec;
    decoder->data = data;
    decoder->size = data == NULL ? 0 : size;
    decoder->stage = BLZ_STAGE_NEW;
    return decoder;
}

static void set_failure_v(blz_decoder *decoder, blz_status status, const char *format, va_list arguments) {
    decoder->failure = status;
    vsnprintf(decoder->message, sizeof decoder->message, format, arguments);
}

blz_status blz_decoder_set_failure(blz_decoder *decoder, blz_status status, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    set_failure_v(decoder, status, format, arguments);
    va_end(arguments);
    return status;
}

void blz_decoder_fail(blz_decoder *decoder, blz_status status, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    set_failure_v(decoder, status, format, arguments);
    va_end(arguments);
    longjmp(decoder->jump, 1);
}

void *blz_decoder_new_state(blz_decoder *decoder, size_t size) {
    void *state = calloc(1, size);
    if (state == NULL) blz_decoder_set_failure(decoder, BLZ_STATUS_OUT_OF_MEMORY, "out of memory");
    decoder->state = state;
    return state;
}

int blz_checked_size(size_t a, size_t b, size_t c, size_t *result) {
    size_t ab;
    if (__builtin_mul_overflow(a, b, &ab) || __builtin_mul_overflow(ab, c, result)) return 0;
    return 1;
}

static const blz_codec_backend heif_backend = {blz_heif_read_header, NULL, blz_heif_read_pixels, blz_heif_release};

/// The back end that decodes `codec`, or NULL for a value that names no codec.
static const blz_codec_backend *backend(blz_codec codec) {
    switch (codec) {
    case BLZ_CODEC_JPEG: return &blz_jpeg_backend;
    case BLZ_CODEC_PNG: return &blz_png_backend;
    case BLZ_CODEC_WEBP: return &blz_webp_backend;
    case BLZ_CODEC_TIFF: return &blz_tiff_backend;
    case BLZ_CODEC_GIF: return &blz_gif_backend;
    case BLZ_CODEC_BMP:
    case BLZ_CODEC_PNM: return &blz_av_backend;
    case BLZ_CODEC_HEIF: return &heif_backend;
    }
    return NULL;
}

blz_status blz_decoder_read_header(blz_decoder *decoder, blz_header *header) {
    if (decoder == NULL || header == NULL) return BLZ_STATUS_INVALID_ARGUMENT;
    if (decoder->stage != BLZ_STAGE_NEW) {
        return blz_decoder_set_failure(decoder, BLZ_STATUS_INVALID_ARGUMENT, "the header was already read");
    }
    decoder->message[0] = '\0';
    blz_status status;
    const blz_codec_backend *codec_backend = backend(decoder->codec);
    if (codec_backend != NULL) {
        status = codec_backend->read_header(decoder);
    } else {
        blz_decoder_set_failure(decoder, BLZ_STATUS_INVALID_ARGUMENT, "unknown codec %d", (int)decoder->codec);
        status = BLZ_STATUS_INVALID_ARGUMENT;
    }
    decoder->stage = status == BLZ_STATUS_OK ? BLZ_STAGE_HEADER_READ : BLZ_STAGE_FAILED;
    if (status == BLZ_STATUS_OK) {
        *header = decoder->header;
        decoder->output_width = decoder->header.width;
        decoder->output_height = decoder->header.height;
    }
    return status;
}

blz_status blz_decoder_set_scale(blz_decoder *decoder, uint32_t denominator, uint32_t *output_width,
                                 uint32_t *output_height) {
    if (decoder == NULL || output_width == NULL || output_height == NULL) return BLZ_STATUS_INVALID_ARGUMENT;
    if (decoder->stage != BLZ_STAGE_HEADER_READ || decoder->scale_set) {
        return blz_decoder_set_failure(decoder, BLZ_STATUS_INVALID_ARGUMENT,
                                       "set_scale needs a successful read_header, runs once, and precedes read_pixels");
    }
    if (denominator != 1 && denominator != 2 && denominator != 4 && denominator != 8) {
        return blz_decoder_set_failure(decoder, BLZ_STATUS_INVALID_ARGUMENT, "scale 1/%u is not 1/1, 1/2, 1/4 or 1/8",
                                       denominator);
    }
    decoder->message[0] = '\0';
    blz_status status = BLZ_STATUS_OK;
    const blz_codec_backend *codec_backend = backend(decoder->codec);
    if (denominator != 1 && codec_backend != NULL && codec_backend->set_scale != NULL) {
        status = codec_backend->set_scale(decoder, denominator);
    } else if (denominator != 1) {
        blz_decoder_set_failure(decoder, BLZ_STATUS_INVALID_ARGUMENT, "%s has no scaled decode (1/%u asked)",
                                decoder->codec == BLZ_CODEC_PNG ? "PNG" : "this format", denominator);
        status = BLZ_STATUS_INVALID_ARGUMENT;
    }
    if (status != BLZ_STATUS_OK) {
        // An unsupported denominator leaves the decoder usable at full size; a libjpeg failure does not.
        if (status != BLZ_STATUS_INVALID_ARGUMENT) decoder->stage = BLZ_STAGE_FAILED;
        return status;
    }
    decoder->scale_set = 1;
    *output_width = decoder->output_width;
    *output_height = decoder->output_height;
    return BLZ_STATUS_OK;
}

/// The one place where decoded pixels go from the file's colour profile to sRGB, whatever the codec.
static void convert_color(blz_decoder *decoder, uint8_t *pixels) {
    const blz_color_profile *profile = &decoder->color;
    decoder->color_result = BLZ_COLOR_NONE;
    if (decoder->color_conversion_off || (profile->icc == NULL && !profile->has_primaries)) return;
    decoder->color_result = blz_color_convert_to_srgb(profile, pixels, decoder->output_width, decoder->output_height,
                                                      decoder->header.channels, decoder->message,
                                                      sizeof decoder->message);
}

blz_status blz_decoder_read_pixels(blz_decoder *decoder, uint8_t *pixels, size_t capacity) {
    if (decoder == NULL) return BLZ_STATUS_INVALID_ARGUMENT;
    if (decoder->stage != BLZ_STAGE_HEADER_READ) {
        return blz_decoder_set_failure(decoder, BLZ_STATUS_INVALID_ARGUMENT,
                                       "read_pixels needs a successful read_header, and runs once");
    }
    size_t needed;
    const blz_header *header = &decoder->header;
    if (pixels == NULL
        || !blz_checked_size(decoder->output_width, decoder->output_height, header->channels, &needed)
        || capacity != needed) {
        return blz_decoder_set_failure(decoder, BLZ_STATUS_INVALID_ARGUMENT,
                                       "the pixel buffer must hold exactly %u x %u x %u bytes", decoder->output_width,
                                       decoder->output_height, header->channels);
    }
    decoder->message[0] = '\0';
    const blz_codec_backend *codec_backend = backend(decoder->codec);
    blz_status status = BLZ_STATUS_INVALID_ARGUMENT; // for an unknown codec, which read_header refused already
    if (codec_backend != NULL) status = codec_backend->read_pixels(decoder, pixels);
    decoder->stage = status == BLZ_STATUS_OK ? BLZ_STAGE_DONE : BLZ_STAGE_FAILED;
    if (status == BLZ_STATUS_OK) convert_color(decoder, pixels);
    return status;
}

const char *blz_decoder_message(const blz_decoder *decoder) {
    return decoder == NULL ? "no decoder" : decoder->message;
}

void blz_decoder_destroy(blz_decoder *decoder) {
    if (decoder == NULL) return;
    const blz_codec_backend *codec_backend = backend(decoder->codec);
    if (decoder->state != NULL && codec_backend != NULL) codec_backend->release(decoder);
    free(decoder->state);
    free(decoder);
}

void blz_orientation_exif(uint8_t output[26], uint16_t value) {
    // Little-endian TIFF header, IFD0 at offset 8 with one entry: tag 0x0112, type SHORT, count 1, the value.
    static const uint8_t layout[26] = {'I', 'I', 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0,
                                       0, 0, 0, 0, 0, 0, 0, 0};
    memcpy(output, layout, sizeof layout);
    output[18] = (uint8_t)(value & 0xFF);
    output[19] = (uint8_t)(value >> 8);
}

void blz_decoder_set_pixel_limit(blz_decoder *decoder, uint64_t maximum_pixels) {
    if (decoder != NULL) decoder->pixel_limit = maximum_pixels;
}

void blz_decoder_set_color_conversion(blz_decoder *decoder, int enabled) {
    if (decoder != NULL) decoder->color_conversion_off = !enabled;
}

blz_color_result blz_decoder_color_result(const blz_decoder *decoder) {
    return decoder == NULL ? BLZ_COLOR_NONE : decoder->color_result;
}

void blz_free(void *buffer) {
    free(buffer);
}
