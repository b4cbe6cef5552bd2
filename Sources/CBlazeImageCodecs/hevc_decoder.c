// A libheif decoder plugin for HEVC over FFmpeg's libavcodec that allocates no picture beyond the caller's limit.
//
// Why: libheif before 1.19 hands the coded stream to its codec without a limit, and its HEVC codec, libde265
// (1.0.x), allocates the picture its sequence parameter set declares, up to 65,535 x 65,535, whatever the HEIF's
// `ispe` says: a 15 KB file with an ispe of 64x64 and an SPS of 8192x8192 made libheif 1.15 allocate 400 MB. And
// libde265 1.0.11 (Debian 12's) decodes a 12 MP picture in about 1.4 times the CPU time libavcodec's HEVC decoder
// takes, for the same pixels: both are conforming decoders, and their output is bit-identical. libheif 1.19 and
// later pass their security limits to the codecs themselves, and this plugin is not used with them
// (BLZ_HEIF_PLUGINS).
//
// How:
// - The picture size is read from each SPS NAL unit as it passes (the few fields before pic_width_in_luma_samples,
//   H.265 7.3.2.2) and one over the limit is refused before libavcodec sees it: libavcodec allocates its per-picture
//   tables when it activates an SPS, before any frame buffer. Its `max_pixels` checks the frame buffers again.
// - NAL units come from libheif with 4-byte lengths (the hvcC's parameter sets, then the image data); they go to
//   libavcodec as one Annex B packet (a start code in place of each length), on the calling thread (thread_count
//   1: a scan decodes pictures in parallel instead), with AV_EF_EXPLODE: damage is an error, never a concealed
//   picture.
// - Out: the planes with the bitstream's colour description (VUI) as a heif_image, as libheif 1.15's own plugin
//   gives them; or, when the calling thread asks for it (blz_heif_plugins_set_rgb_request), RGB planes converted
//   here (heif_ycbcr.c).
//
// The limit and the request are the calling thread's: heif_decoder.c sets them around heif_decode_image and has
// libheif decode grid tiles on that thread (heif_context_set_max_decoding_threads 0).
#include "heif_plugins.h"

#ifdef BLZ_HEIF_PLUGINS

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavcodec/avcodec.h>
#include <libavutil/error.h>
#include <libavutil/pixdesc.h>
#include <libheif/heif_plugin.h>

#include "decoder_internal.h"

typedef struct hevc_decoder {
    /// The NAL units pushed so far as Annex B, followed by AV_INPUT_BUFFER_PADDING_SIZE zero bytes.
    uint8_t *stream;
    size_t size, capacity;
    /// The most pixels one picture may have (0: no limit), taken from the thread when the decoder was made.
    uint64_t pixel_limit;
    blz_heif_rgb_request rgb;
} hevc_decoder;

static struct heif_error new_decoder(void **result) {
    hevc_decoder *decoder = calloc(1, sizeof(hevc_decoder));
    if (decoder == NULL) return blz_heif_plugin_out_of_memory();
    decoder->pixel_limit = blz_heif_plugins_pixel_limit();
    decoder->rgb = blz_heif_plugins_rgb_request();
    *result = decoder;
    return blz_heif_plugin_ok();
}

static void free_decoder(void *raw) {
    hevc_decoder *decoder = raw;
    if (decoder == NULL) return;
    free(decoder->stream);
    free(decoder);
}

// MARK: Data in

/// NAL units, each after a 4-byte big-endian length (libheif writes the hvcC's parameter sets the same way),
/// appended to the stream with a start code in place of each length: the same number of bytes.
static struct heif_error push_data(void *raw, const void *data, size_t size) {
    hevc_decoder *decoder = raw;
    const uint8_t *bytes = data;
    if (size > SIZE_MAX - decoder->size - AV_INPUT_BUFFER_PADDING_SIZE) {
        return blz_heif_plugin_out_of_memory();
    }
    const size_t needed = decoder->size + size + AV_INPUT_BUFFER_PADDING_SIZE;
    if (needed > decoder->capacity) {
        uint8_t *grown = realloc(decoder->stream, needed);
        if (grown == NULL) return blz_heif_plugin_out_of_memory();
        decoder->stream = grown;
        decoder->capacity = needed;
    }
    size_t offset = 0;
    while (offset < size) {
        if (size - offset < 4) {
            return blz_heif_plugin_error(heif_error_Decoder_plugin_error, heif_suberror_End_of_data, "");
        }
        const uint32_t length = (uint32_t)bytes[offset] << 24 | (uint32_t)bytes[offset + 1] << 16
            | (uint32_t)bytes[offset + 2] << 8 | bytes[offset + 3];
        offset += 4;
        if (length > size - offset) {
            return blz_heif_plugin_error(heif_error_Decoder_plugin_error, heif_suberror_End_of_data, "");
        }
        if (length >= 2 && ((bytes[offset] >> 1) & 0x3F) == 33) {  // a sequence parameter set
            uint32_t width = 0, height = 0;
            if (!blz_hevc_sps_picture_size(bytes + offset, length, &width, &height)) {
                return blz_heif_plugin_error(heif_error_Decoder_plugin_error, heif_suberror_End_of_data,
                                    "the HEVC sequence parameter set ends early");
            }
            if (decoder->pixel_limit > 0 && (uint64_t)width * height > decoder->pixel_limit) {
                // The declared size passed the caller's limit; a coded picture beyond it contradicts the file.
                snprintf(blz_heif_plugins_message(), BLZ_HEIF_PLUGIN_MESSAGE_CAPACITY,
                         "the HEVC stream's picture is %ux%u, more than the %llu pixels the image's size allows",
                         width, height, (unsigned long long)decoder->pixel_limit);
                return blz_heif_plugin_error(heif_error_Decoder_plugin_error, heif_suberror_Invalid_image_size,
                                    blz_heif_plugins_message());
            }
        }
        uint8_t *unit = decoder->stream + decoder->size;
        unit[0] = 0;
        unit[1] = 0;
        unit[2] = 0;
        unit[3] = 1;
        memcpy(unit + 4, bytes + offset, length);
        decoder->size += 4 + (size_t)length;
        offset += length;
    }
    memset(decoder->stream + decoder->size, 0, AV_INPUT_BUFFER_PADDING_SIZE);
    return blz_heif_plugin_ok();
}

// MARK: Pictures out

/// libavcodec's error as the plugin's, its text in the thread's message buffer.
static struct heif_error codec_error(int error, const char *doing) {
    char text[AV_ERROR_MAX_STRING_SIZE] = {0};
    (void)av_strerror(error, text, sizeof text);
    snprintf(blz_heif_plugins_message(), BLZ_HEIF_PLUGIN_MESSAGE_CAPACITY, "HEVC: %s: %s", doing, text);
    const enum heif_error_code code =
        error == AVERROR(ENOMEM) ? heif_error_Memory_allocation_error : heif_error_Decoder_plugin_error;
    return blz_heif_plugin_error(code, heif_suberror_Unspecified, blz_heif_plugins_message());
}

/// The frame's colour description as libheif's: from the VUI, or unspecified where the stream has none.
static void attach_nclx(const AVFrame *frame, struct heif_image *image) {
    struct heif_color_profile_nclx *nclx = heif_nclx_color_profile_alloc();
    if (nclx == NULL) return;
    // Unknown code points keep libheif's defaults (its own plugin does the same when not strict).
    (void)heif_nclx_color_profile_set_color_primaries(nclx, (uint16_t)frame->color_primaries);
    (void)heif_nclx_color_profile_set_transfer_characteristics(nclx, (uint16_t)frame->color_trc);
    (void)heif_nclx_color_profile_set_matrix_coefficients(nclx, (uint16_t)frame->colorspace);
    nclx->full_range_flag = (uint8_t)(frame->color_range == AVCOL_RANGE_JPEG);
    (void)heif_image_set_nclx_color_profile(image, nclx);
    heif_nclx_color_profile_free(nclx);
}

/// A new plane of `image`, or NULL.
static uint8_t *add_plane(struct heif_image *image, enum heif_channel channel, int width, int height, int depth,
                          int *stride) {
    struct heif_error error = heif_image_add_plane(image, channel, width, height, depth);
    return error.code == heif_error_Ok ? heif_image_get_plane(image, channel, stride) : NULL;
}

/// RGB planes converted here, when the thread asked for them and the picture allows it; NULL otherwise.
static struct heif_image *converted(const hevc_decoder *decoder, const AVFrame *frame,
                                    const AVPixFmtDescriptor *format) {
    if (!decoder->rgb.enabled || format->nb_components != 3 || format->comp[0].depth != 8) {
        return NULL;
    }
    const int full_range = decoder->rgb.has_nclx ? decoder->rgb.full_range
                                                 : frame->color_range == AVCOL_RANGE_JPEG;
    const uint16_t matrix = decoder->rgb.has_nclx ? decoder->rgb.matrix_coefficients : (uint16_t)frame->colorspace;
    struct heif_image *image = NULL;
    if (heif_image_create(frame->width, frame->height, heif_colorspace_RGB, heif_chroma_444, &image).code
        != heif_error_Ok) {
        return NULL;
    }
    static const enum heif_channel channels[3] = {heif_channel_R, heif_channel_G, heif_channel_B};
    uint8_t *planes[3] = {NULL, NULL, NULL};
    int strides[3] = {0, 0, 0};
    for (int c = 0; c < 3; c++) {
        planes[c] = add_plane(image, channels[c], frame->width, frame->height, 8, &strides[c]);
        if (planes[c] == NULL) {
            heif_image_release(image);
            return NULL;
        }
    }
    const uint8_t *sources[3] = {frame->data[0], frame->data[1], frame->data[2]};
    const int source_strides[3] = {frame->linesize[0], frame->linesize[1], frame->linesize[2]};
    if (!blz_ycbcr_to_rgb(matrix, full_range, frame->width, frame->height, format->log2_chroma_w,
                          format->log2_chroma_h, sources, source_strides, planes, strides)) {
        heif_image_release(image);
        return NULL;
    }
    attach_nclx(frame, image);
    return image;
}

/// The decoded picture as a heif_image: RGB planes (converted) or its own planes and colour description.
static struct heif_error convert(const hevc_decoder *decoder, const AVFrame *frame, struct heif_image **result) {
    const AVPixFmtDescriptor *format = av_pix_fmt_desc_get((enum AVPixelFormat)frame->format);
    if (format == NULL || (format->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_FLOAT | AV_PIX_FMT_FLAG_BE))
        || !(format->flags & AV_PIX_FMT_FLAG_PLANAR || format->nb_components == 1)
        || (format->nb_components != 1 && format->nb_components != 3) || format->comp[0].depth > 16
        || format->log2_chroma_w > 1 || format->log2_chroma_h > format->log2_chroma_w
        || frame->width <= 0 || frame->height <= 0) {
        return blz_heif_plugin_error(heif_error_Decoder_plugin_error, heif_suberror_Unspecified,
                            "the HEVC picture has a sample layout libheif does not take");
    }
    *result = converted(decoder, frame, format);
    if (*result != NULL) return blz_heif_plugin_ok();

    const int mono = format->nb_components == 1;
    enum heif_chroma chroma = heif_chroma_444;
    if (mono) {
        chroma = heif_chroma_monochrome;
    } else if (format->log2_chroma_w == 1) {
        chroma = format->log2_chroma_h == 1 ? heif_chroma_420 : heif_chroma_422;
    }
    struct heif_image *image = NULL;
    struct heif_error error = heif_image_create(frame->width, frame->height,
                                                mono ? heif_colorspace_monochrome : heif_colorspace_YCbCr, chroma,
                                                &image);
    if (error.code != heif_error_Ok) return error;
    static const enum heif_channel channels[3] = {heif_channel_Y, heif_channel_Cb, heif_channel_Cr};
    const int depth = format->comp[0].depth;
    for (int c = 0; c < (mono ? 1 : 3); c++) {
        const int width = c == 0 ? frame->width : AV_CEIL_RSHIFT(frame->width, format->log2_chroma_w);
        const int height = c == 0 ? frame->height : AV_CEIL_RSHIFT(frame->height, format->log2_chroma_h);
        int target_stride = 0;
        uint8_t *target = add_plane(image, channels[c], width, height, depth, &target_stride);
        if (target == NULL || frame->data[c] == NULL) {
            heif_image_release(image);
            return blz_heif_plugin_out_of_memory();
        }
        const size_t row = (size_t)width * (size_t)((depth + 7) / 8);
        for (int y = 0; y < height; y++) {
            memcpy(target + (size_t)y * (size_t)target_stride,
                   frame->data[c] + (ptrdiff_t)y * frame->linesize[c], row);
        }
    }
    attach_nclx(frame, image);
    *result = image;
    return blz_heif_plugin_ok();
}

/// A codec context for one picture: one thread, strict, pictures bounded by the limit.
static AVCodecContext *open_codec(const hevc_decoder *decoder) {
    blz_av_quiet();
    const AVCodec *codec = avcodec_find_decoder(AV_CODEC_ID_HEVC);
    if (codec == NULL) return NULL;
    AVCodecContext *context = avcodec_alloc_context3(codec);
    if (context == NULL) return NULL;
    context->thread_count = 1;
    context->err_recognition = AV_EF_EXPLODE;
    if (decoder->pixel_limit > 0) {
        context->max_pixels = decoder->pixel_limit < INT64_MAX ? (int64_t)decoder->pixel_limit : INT64_MAX;
    }
    if (avcodec_open2(context, codec, NULL) < 0) avcodec_free_context(&context);
    return context;
}

static struct heif_error decode_image(void *raw, struct heif_image **result) {
    hevc_decoder *decoder = raw;
    *result = NULL;
    if (decoder->size == 0 || decoder->size > INT_MAX) {
        return blz_heif_plugin_error(heif_error_Decoder_plugin_error, heif_suberror_Unspecified,
                            decoder->size == 0 ? "the HEVC stream is empty" : "the HEVC stream is too long");
    }
    AVCodecContext *context = open_codec(decoder);
    if (context == NULL) {
        return blz_heif_plugin_error(heif_error_Unsupported_feature, heif_suberror_Unsupported_codec,
                            "libavcodec has no HEVC decoder");
    }
    AVPacket *packet = av_packet_alloc();
    AVFrame *frame = av_frame_alloc(), *last = av_frame_alloc();
    struct heif_error error = blz_heif_plugin_ok();
    if (packet == NULL || frame == NULL || last == NULL) {
        error = blz_heif_plugin_out_of_memory();
        goto done;
    }
    packet->data = decoder->stream;
    packet->size = (int)decoder->size;
    int status = avcodec_send_packet(context, packet);
    if (status >= 0) status = avcodec_send_packet(context, NULL);  // the end: output what is decoded
    if (status < 0) {
        error = codec_error(status, "decoding");
        goto done;
    }
    int pictures = 0;
    while ((status = avcodec_receive_frame(context, frame)) >= 0) {
        if (frame->decode_error_flags != 0 || (frame->flags & AV_FRAME_FLAG_CORRUPT)) {
            error = blz_heif_plugin_error(heif_error_Decoder_plugin_error, heif_suberror_Unspecified,
                                 "the HEVC picture is damaged");
            goto done;
        }
        av_frame_unref(last);
        av_frame_move_ref(last, frame);
        pictures++;
    }
    if (status != AVERROR_EOF) {
        error = codec_error(status, "decoding");
    } else if (pictures == 0) {
        error = blz_heif_plugin_error(heif_error_Decoder_plugin_error, heif_suberror_Unspecified,
                                      "the HEVC stream has no picture");
    } else {
        error = convert(decoder, last, result);
    }
done:
    av_frame_free(&frame);
    av_frame_free(&last);
    av_packet_free(&packet);
    avcodec_free_context(&context);
    return error;
}

// MARK: Registration

// libheif 1.15's own libde265 plugin has priority 100: this one is chosen for the contexts it is registered on.
BLZ_HEIF_DEFINE_PLUGIN(blz_hevc_plugin, heif_compression_HEVC,
                       "swift-blazeface HEVC decoder (libavcodec, bounded pictures)", "blazeface-libavcodec")

#endif // BLZ_HEIF_PLUGINS
