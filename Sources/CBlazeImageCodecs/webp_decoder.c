// WebP decoding with libwebp: lossy (VP8) and lossless (VP8L), with or without alpha (ALPH), still or
// animated (the first frame, composited on the canvas by WebPAnimDecoder).
//
// Policy:
// - The header step runs WebPGetFeatures (size, alpha, animation; no allocation) and WebPDemux over the whole
//   RIFF container (the chunk index; no pixels). A container that ends before its RIFF size is TRUNCATED;
//   anything libwebp refuses is CORRUPT, or UNSUPPORTED for what it calls an unsupported feature.
// - The size is the canvas: for a still picture the bitstream's own, checked against it by libwebp; for an
//   animation VP8X's canvas (up to 2^24 x 2^24, refused by the caller's pixel limit before anything grows).
// - Alpha (an ALPH chunk, VP8L's alpha bit, an animation's alpha flag) gives 4 channels, RGBA not
//   premultiplied; otherwise 3 (RGB).
// - EXIF: the payload of the first "EXIF" chunk (a TIFF structure; a leading "Exif\0\0", which some writers
//   add, is skipped by the Swift parser). The first "ICCP" chunk is reported in `decoder->color` (decoder.c
//   converts the pixels to sRGB). XMP is ignored.
// - A still picture is decoded straight into the caller's buffer (WebPDecode with external memory); an
//   animation through WebPAnimDecoder, which allocates its own canvas (two, 8 bytes per pixel) once the size
//   was accepted, and its first frame is copied out.
#include "decoder_internal.h"

#include <stdlib.h>
#include <string.h>

#include <webp/decode.h>
#include <webp/demux.h>

struct blz_webp_state {
    WebPDemuxer *demux;
    int animated;
};

static blz_status status_for(VP8StatusCode code) {
    switch (code) {
    case VP8_STATUS_OK: return BLZ_STATUS_OK;
    case VP8_STATUS_OUT_OF_MEMORY: return BLZ_STATUS_OUT_OF_MEMORY;
    case VP8_STATUS_UNSUPPORTED_FEATURE: return BLZ_STATUS_UNSUPPORTED;
    case VP8_STATUS_NOT_ENOUGH_DATA: return BLZ_STATUS_TRUNCATED;
    default: return BLZ_STATUS_CORRUPT; // INVALID_PARAM, BITSTREAM_ERROR, SUSPENDED, USER_ABORT
    }
}

static const char *describe(VP8StatusCode code) {
    switch (code) {
    case VP8_STATUS_OUT_OF_MEMORY: return "out of memory";
    case VP8_STATUS_UNSUPPORTED_FEATURE: return "a feature libwebp does not support";
    case VP8_STATUS_NOT_ENOUGH_DATA: return "the data ends before the image does";
    case VP8_STATUS_BITSTREAM_ERROR: return "the bitstream is damaged";
    default: return "libwebp refuses the data";
    }
}

static blz_status blz_webp_read_header(blz_decoder *decoder) {
    WebPBitstreamFeatures features;
    const VP8StatusCode code = WebPGetFeatures(decoder->data, decoder->size, &features);
    if (code != VP8_STATUS_OK) {
        return blz_decoder_set_failure(decoder, status_for(code), "%s (libwebp status %d)", describe(code), (int)code);
    }
    struct blz_webp_state *state = blz_decoder_new_state(decoder, sizeof(struct blz_webp_state));
    if (state == NULL) return BLZ_STATUS_OUT_OF_MEMORY;

    const WebPData data = {decoder->data, decoder->size};
    state->demux = WebPDemux(&data);
    if (state->demux == NULL) {
        // Refused whole: either the container is cut short (a partial parse gets past the header) or invalid.
        WebPDemuxState parse = WEBP_DEMUX_PARSE_ERROR;
        WebPDemuxer *partial = WebPDemuxPartial(&data, &parse);
        WebPDemuxDelete(partial);
        if (partial != NULL && parse != WEBP_DEMUX_PARSE_ERROR && parse != WEBP_DEMUX_DONE) {
            return blz_decoder_set_failure(decoder, BLZ_STATUS_TRUNCATED,
                                           "the WebP container ends after %zu bytes, before its last chunk",
                                           decoder->size);
        }
        return blz_decoder_set_failure(decoder, BLZ_STATUS_CORRUPT, "libwebp's demuxer refuses the RIFF container");
    }
    const uint32_t width = WebPDemuxGetI(state->demux, WEBP_FF_CANVAS_WIDTH);
    const uint32_t height = WebPDemuxGetI(state->demux, WEBP_FF_CANVAS_HEIGHT);
    const uint32_t flags = WebPDemuxGetI(state->demux, WEBP_FF_FORMAT_FLAGS);
    if (width == 0 || height == 0) {
        return blz_decoder_set_failure(decoder, BLZ_STATUS_ZERO_SIZE, "the WebP canvas is %u x %u", width, height);
    }
    state->animated = features.has_animation || (flags & ANIMATION_FLAG) != 0;
    decoder->header.width = width;
    decoder->header.height = height;
    decoder->header.channels = features.has_alpha || (flags & ALPHA_FLAG) != 0 ? 4 : 3;

    WebPChunkIterator chunk;
    if (WebPDemuxGetChunk(state->demux, "EXIF", 1, &chunk)) {
        if (chunk.chunk.size > 0) { // Points into the caller's data, which outlives the decoder.
            decoder->header.exif = chunk.chunk.bytes;
            decoder->header.exif_size = chunk.chunk.size;
        }
        WebPDemuxReleaseChunkIterator(&chunk);
    }
    if (WebPDemuxGetChunk(state->demux, "ICCP", 1, &chunk)) {
        if (chunk.chunk.size > 0) { // Also in the caller's data.
            decoder->color.icc = chunk.chunk.bytes;
            decoder->color.icc_size = chunk.chunk.size;
        }
        WebPDemuxReleaseChunkIterator(&chunk);
    }
    return BLZ_STATUS_OK;
}

/// libwebp's initializers fail only when the library's ABI is not the one its header declares.
static blz_status abi_mismatch(blz_decoder *decoder, const char *part) {
    return blz_decoder_set_failure(decoder, BLZ_STATUS_UNSUPPORTED, "libwebp's %s ABI does not match its header", part);
}

static blz_status read_still(blz_decoder *decoder, uint8_t *pixels) {
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) return abi_mismatch(decoder, "decoder");
    const uint32_t channels = decoder->header.channels;
    config.output.colorspace = channels == 4 ? MODE_RGBA : MODE_RGB;
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = pixels;
    config.output.u.RGBA.stride = (int)(decoder->header.width * channels);
    config.output.u.RGBA.size = (size_t)decoder->header.width * decoder->header.height * channels;
    const VP8StatusCode code = WebPDecode(decoder->data, decoder->size, &config);
    if (code != VP8_STATUS_OK) {
        WebPFreeDecBuffer(&config.output);
        return blz_decoder_set_failure(decoder, status_for(code), "%s (libwebp status %d)", describe(code), (int)code);
    }
    const int same = config.output.width == (int)decoder->header.width
                     && config.output.height == (int)decoder->header.height;
    WebPFreeDecBuffer(&config.output); // external memory: releases nothing of ours
    if (!same) return blz_decoder_set_failure(decoder, BLZ_STATUS_CORRUPT, "the decoded WebP is not the canvas size");
    return BLZ_STATUS_OK;
}

static blz_status read_first_frame(blz_decoder *decoder, uint8_t *pixels) {
    WebPAnimDecoderOptions options;
    if (!WebPAnimDecoderOptionsInit(&options)) return abi_mismatch(decoder, "demuxer");
    options.color_mode = MODE_RGBA;
    options.use_threads = 0;
    const WebPData data = {decoder->data, decoder->size};
    WebPAnimDecoder *animation = WebPAnimDecoderNew(&data, &options);
    if (animation == NULL) return blz_decoder_set_failure(decoder, BLZ_STATUS_CORRUPT, "libwebp refuses the animation");
    WebPAnimInfo info;
    uint8_t *canvas = NULL;
    int timestamp = 0;
    blz_status status = BLZ_STATUS_OK;
    if (!WebPAnimDecoderGetInfo(animation, &info) || info.canvas_width != decoder->header.width
        || info.canvas_height != decoder->header.height) {
        blz_decoder_set_failure(decoder, BLZ_STATUS_CORRUPT, "the animation's canvas is not the header's");
        status = BLZ_STATUS_CORRUPT;
    } else if (!WebPAnimDecoderGetNext(animation, &canvas, &timestamp) || canvas == NULL) {
        blz_decoder_set_failure(decoder, BLZ_STATUS_CORRUPT, "libwebp cannot decode the animation's first frame");
        status = BLZ_STATUS_CORRUPT;
    } else {
        const size_t count = (size_t)decoder->header.width * decoder->header.height;
        if (decoder->header.channels == 4) {
            memcpy(pixels, canvas, count * 4);
        } else {
            for (size_t i = 0; i < count; i++) memcpy(pixels + 3 * i, canvas + 4 * i, 3);
        }
    }
    WebPAnimDecoderDelete(animation);
    return status;
}

static blz_status blz_webp_read_pixels(blz_decoder *decoder, uint8_t *pixels) {
    return decoder->webp->animated ? read_first_frame(decoder, pixels) : read_still(decoder, pixels);
}

static void blz_webp_release(blz_decoder *decoder) {
    struct blz_webp_state *state = decoder->webp;
    WebPDemuxDelete(state->demux);
}

const blz_codec_backend blz_webp_backend = {blz_webp_read_header, NULL, blz_webp_read_pixels, blz_webp_release};
