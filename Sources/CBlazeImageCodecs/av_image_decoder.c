// BMP and PNM (PBM, PGM, PPM; P1 to P6, ASCII and binary) decoding with FFmpeg's libavcodec image decoders.
//
// Policy:
// - The header step runs the decoder with a buffer callback (get_buffer2) that records the frame's size and
//   pixel format and refuses the buffer: FFmpeg parses the header, then stops before allocating the picture.
//   The caller checks that size; the pixel step decodes again with a fresh context and FFmpeg's own buffers
//   (`max_pixels` set to the accepted size), then converts into the caller's rows.
// - FFmpeg refuses sizes above about 16,000 x 16,000 itself (av_image_check_size) before the callback, and its
//   BMP and PNM decoders then say "invalid data": such a file is CORRUPT, not tooLarge, as the size never
//   reaches the caller.
// - Channels from the pixel format: palettes, RGB and the X-padded RGB layouts give 3; gray and bilevel give
//   1; gray with alpha and RGB with alpha give 4 (a 32-bit BMP that FFmpeg finds all-transparent comes back
//   as opaque BGR0: alpha 255). Samples deeper than 8 bits are rounded (v * 255 / max, to nearest: 16-bit PNM
//   as PNG's 16-bit samples); shallower ones (RGB565, RGB555) scaled to 0...255 the same way.
// - Errors: FFmpeg says only "invalid data" for both damage and a cut-off file. A BMP shorter than the file
//   size its header declares (bytes 2...5) is TRUNCATED; anything else FFmpeg refuses is CORRUPT.
// - FFmpeg logs through av_log; its level is set to quiet once (a process-wide setting: the default log
//   callback prints nothing then; a callback installed elsewhere, such as BlazeVideoIO's, still gets the lines).
#include "decoder_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <libavcodec/avcodec.h>
#include <libavutil/error.h>
#include <libavutil/pixdesc.h>

struct blz_av_state {
    /// The data followed by AV_INPUT_BUFFER_PADDING_SIZE zero bytes, as FFmpeg's decoders require.
    uint8_t *padded;
    enum AVPixelFormat format;
    int probed_width;
    int probed_height;
};

/// The error get_buffer2 returns after recording the size: not one FFmpeg uses.
#define BLZ_AV_HEADER_ONLY FFERRTAG('B', 'L', 'Z', 'H')

static pthread_once_t quiet_once = PTHREAD_ONCE_INIT;

static void make_quiet(void) {
    av_log_set_level(AV_LOG_QUIET);
}

void blz_av_quiet(void) {
    pthread_once(&quiet_once, make_quiet);
}

static int record_size(AVCodecContext *context, AVFrame *frame, int flags) {
    (void)flags;
    struct blz_av_state *state = context->opaque;
    state->probed_width = frame->width;
    state->probed_height = frame->height;
    state->format = (enum AVPixelFormat)frame->format;
    return BLZ_AV_HEADER_ONLY;
}

static enum AVCodecID codec_id(const blz_decoder *decoder) {
    if (decoder->codec == BLZ_CODEC_BMP) return AV_CODEC_ID_BMP;
    // FFmpeg's PNM decoders share one parser that reads the type from the data ("P1" ... "P6").
    switch (decoder->size >= 2 ? decoder->data[1] : 0) {
    case '1':
    case '4': return AV_CODEC_ID_PBM;
    case '2':
    case '5': return AV_CODEC_ID_PGM;
    default: return AV_CODEC_ID_PPM;
    }
}

static const char *format_name(const blz_decoder *decoder) {
    return decoder->codec == BLZ_CODEC_BMP ? "BMP" : "PNM";
}

/// Opens a decoder for the format, with one thread; `probe` installs the size-recording buffer callback.
static AVCodecContext *open_context(blz_decoder *decoder, int probe) {
    const AVCodec *codec = avcodec_find_decoder(codec_id(decoder));
    if (codec == NULL) return NULL;
    AVCodecContext *context = avcodec_alloc_context3(codec);
    if (context == NULL) return NULL;
    context->thread_count = 1;
    context->opaque = decoder->av;
    if (probe) {
        context->get_buffer2 = record_size;
    } else {
        // FFmpeg checks its limit against the width rounded up to its row alignment: leave room for that.
        context->max_pixels = ((int64_t)decoder->header.width + 128) * ((int64_t)decoder->header.height + 1);
    }
    if (avcodec_open2(context, codec, NULL) < 0) avcodec_free_context(&context);
    return context;
}

/// Sends the whole data as one packet and receives the frame (into `frame`, which may be NULL for the probe).
static int decode(blz_decoder *decoder, AVCodecContext *context, AVFrame *frame) {
    AVPacket *packet = av_packet_alloc();
    if (packet == NULL) return AVERROR(ENOMEM);
    packet->data = decoder->av->padded;
    packet->size = (int)decoder->size;
    int result = avcodec_send_packet(context, packet);
    av_packet_free(&packet);
    if (result < 0 || frame == NULL) return result;
    return avcodec_receive_frame(context, frame);
}

static uint32_t read_le32(const uint8_t *bytes) {
    return (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 | (uint32_t)bytes[3] << 24;
}

static blz_status failure(blz_decoder *decoder, int error, const char *step) {
    char text[AV_ERROR_MAX_STRING_SIZE] = {0};
    av_strerror(error, text, sizeof text);
    if (error == AVERROR(ENOMEM)) {
        return blz_decoder_set_failure(decoder, BLZ_STATUS_OUT_OF_MEMORY, "out of memory %s", step);
    }
    if (decoder->codec == BLZ_CODEC_BMP && decoder->size >= 6 && read_le32(decoder->data + 2) > decoder->size) {
        return blz_decoder_set_failure(decoder, BLZ_STATUS_TRUNCATED,
                                       "the data ends after %zu of the %u bytes declared", decoder->size,
                                       read_le32(decoder->data + 2));
    }
    const int header = strcmp(step, "in the header") == 0;
    return blz_decoder_set_failure(decoder, BLZ_STATUS_CORRUPT, "FFmpeg refuses the data %s (%s)%s", step, text,
                                   header ? ": damaged, or past FFmpeg's size limit of about 16,000 x 16,000" : "");
}

/// Bytes per decoded pixel for an FFmpeg pixel format, or 0 when it is not one this decoder converts.
static uint32_t channels_of(enum AVPixelFormat format) {
    const AVPixFmtDescriptor *descriptor = av_pix_fmt_desc_get(format);
    if (descriptor == NULL || (descriptor->flags & (AV_PIX_FMT_FLAG_FLOAT | AV_PIX_FMT_FLAG_HWACCEL))) return 0;
    if (descriptor->flags & AV_PIX_FMT_FLAG_PAL) return format == AV_PIX_FMT_PAL8 ? 3 : 0;
    switch (descriptor->nb_components) {
    case 1: return 1;
    case 2: return 4; // gray and alpha
    case 3: return (descriptor->flags & AV_PIX_FMT_FLAG_RGB) ? 3 : 0;
    case 4: return (descriptor->flags & AV_PIX_FMT_FLAG_RGB) && (descriptor->flags & AV_PIX_FMT_FLAG_ALPHA) ? 4 : 0;
    default: return 0;
    }
}

static blz_status blz_av_read_header(blz_decoder *decoder) {
    blz_av_quiet();
    struct blz_av_state *state = blz_decoder_new_state(decoder, sizeof(struct blz_av_state));
    if (state == NULL) return BLZ_STATUS_OUT_OF_MEMORY;
    if (decoder->size > INT32_MAX - AV_INPUT_BUFFER_PADDING_SIZE
        || (state->padded = calloc(1, decoder->size + AV_INPUT_BUFFER_PADDING_SIZE)) == NULL) {
        return blz_decoder_set_failure(decoder, BLZ_STATUS_OUT_OF_MEMORY, "out of memory (or over 2 GB of data)");
    }
    memcpy(state->padded, decoder->data, decoder->size);
    state->format = AV_PIX_FMT_NONE;
    AVCodecContext *context = open_context(decoder, 1);
    if (context == NULL) {
        return blz_decoder_set_failure(decoder, BLZ_STATUS_UNSUPPORTED, "this FFmpeg has no %s decoder",
                                       format_name(decoder));
    }
    const int result = decode(decoder, context, NULL);
    avcodec_free_context(&context);
    if (result != BLZ_AV_HEADER_ONLY) {
        // A decoder that returned without asking for a buffer decoded nothing.
        return failure(decoder, result < 0 ? result : AVERROR_INVALIDDATA, "in the header");
    }
    if (state->probed_width <= 0 || state->probed_height <= 0) {
        return blz_decoder_set_failure(decoder, BLZ_STATUS_ZERO_SIZE, "the %s is %d x %d", format_name(decoder),
                                       state->probed_width, state->probed_height);
    }
    const uint32_t channels = channels_of(state->format);
    if (channels == 0) {
        const char *name = av_get_pix_fmt_name(state->format);
        return blz_decoder_set_failure(decoder, BLZ_STATUS_UNSUPPORTED, "FFmpeg's pixel format %s",
                                       name != NULL ? name : "(unknown)");
    }
    decoder->header.width = (uint32_t)state->probed_width;
    decoder->header.height = (uint32_t)state->probed_height;
    decoder->header.channels = channels;
    return BLZ_STATUS_OK;
}

/// `value` of `depth` bits as 8 bits, rounded to nearest.
static uint8_t to_8_bits(unsigned value, int depth) {
    if (depth == 8) return (uint8_t)value;
    const unsigned top = (1u << depth) - 1;
    return (uint8_t)((value * 255u + top / 2) / top);
}

/// Converts one decoded frame into the caller's rows (`channels` bytes per pixel).
static blz_status convert(blz_decoder *decoder, const AVFrame *frame, uint8_t *pixels) {
    const enum AVPixelFormat format = (enum AVPixelFormat)frame->format;
    const AVPixFmtDescriptor *descriptor = av_pix_fmt_desc_get(format);
    const uint32_t channels = decoder->header.channels, found = channels_of(format);
    // The same class of layout as the header said (BGRA may come back as BGR0: alpha is then opaque).
    if (descriptor == NULL || found == 0 || (found == 1) != (channels == 1)) {
        return blz_decoder_set_failure(decoder, BLZ_STATUS_CORRUPT, "FFmpeg's frame format changed while decoding");
    }
    const size_t width = decoder->header.width;
    uint16_t *line = malloc(width * 4 * sizeof(uint16_t));
    if (line == NULL) return blz_decoder_set_failure(decoder, BLZ_STATUS_OUT_OF_MEMORY, "out of memory");
    const uint8_t *planes[4] = {frame->data[0], frame->data[1], frame->data[2], frame->data[3]};
    const int components = descriptor->nb_components;
    for (size_t y = 0; y < decoder->header.height; y++) {
        uint8_t *output = pixels + y * width * channels;
        if (format == AV_PIX_FMT_PAL8) {
            const uint8_t *indices = frame->data[0] + (ptrdiff_t)y * frame->linesize[0];
            const uint32_t *palette = (const uint32_t *)frame->data[1];
            for (size_t x = 0; x < width; x++) {
                const uint32_t entry = palette[indices[x]]; // native-endian 0xAARRGGBB
                uint8_t *pixel = output + x * channels;
                pixel[0] = (uint8_t)(entry >> 16);
                pixel[1] = (uint8_t)(entry >> 8);
                pixel[2] = (uint8_t)entry;
                if (channels == 4) pixel[3] = 255;
            }
            continue;
        }
        // av_read_image_line2 unpacks any layout (bit-packed, 16-bit either endian, RGB565, ...); components
        // come as R, G, B, A for RGB formats, Y (and A) for gray ones.
        for (int c = 0; c < components && c < 4; c++) {
            av_read_image_line2(line + c * width, planes, frame->linesize, descriptor, 0, (int)y, c, (int)width, 0, 2);
        }
        for (size_t x = 0; x < width; x++) {
            uint8_t *pixel = output + x * channels;
            if (components <= 2) {
                uint8_t gray = to_8_bits(line[x], descriptor->comp[0].depth);
                if (format == AV_PIX_FMT_MONOWHITE) gray = 255 - gray; // 1 is black
                if (channels == 1) {
                    pixel[0] = gray;
                    continue;
                }
                pixel[0] = pixel[1] = pixel[2] = gray;
                if (channels == 4) pixel[3] = components == 2 ? to_8_bits(line[width + x], descriptor->comp[1].depth) : 255;
                continue;
            }
            for (int c = 0; c < 3; c++) pixel[c] = to_8_bits(line[c * width + x], descriptor->comp[c].depth);
            if (channels == 4) pixel[3] = components == 4 ? to_8_bits(line[3 * width + x], descriptor->comp[3].depth) : 255;
        }
    }
    free(line);
    return BLZ_STATUS_OK;
}

static blz_status blz_av_read_pixels(blz_decoder *decoder, uint8_t *pixels) {
    AVCodecContext *context = open_context(decoder, 0);
    AVFrame *frame = av_frame_alloc();
    blz_status status = BLZ_STATUS_OK;
    if (context == NULL || frame == NULL) {
        blz_decoder_set_failure(decoder, BLZ_STATUS_OUT_OF_MEMORY, "cannot open FFmpeg's %s decoder",
                                format_name(decoder));
        status = BLZ_STATUS_OUT_OF_MEMORY;
    } else {
        const int result = decode(decoder, context, frame);
        if (result < 0) {
            status = failure(decoder, result, "in the image data");
        } else if (frame->width != (int)decoder->header.width || frame->height != (int)decoder->header.height) {
            blz_decoder_set_failure(decoder, BLZ_STATUS_CORRUPT, "FFmpeg decoded %d x %d, not the header's size",
                                    frame->width, frame->height);
            status = BLZ_STATUS_CORRUPT;
        } else {
            status = convert(decoder, frame, pixels);
        }
    }
    av_frame_free(&frame);
    avcodec_free_context(&context);
    return status;
}

static void blz_av_release(blz_decoder *decoder) {
    free(decoder->av->padded);
}

const blz_codec_backend blz_av_backend = {blz_av_read_header, NULL, blz_av_read_pixels, blz_av_release};
