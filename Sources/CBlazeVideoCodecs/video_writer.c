// blz_video_writer: RGB/BGRA frames to H.264 (libx264) or MPEG-4 Part 2, in the container the file name says.
#include "video_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct blz_video_writer {
    blz_video_writer_config config;
    blzv_source target;
    AVIOContext *io;
    AVFormatContext *format;
    AVStream *stream;
    AVCodecContext *codec;
    AVFrame *frame;
    AVPacket *packet;
    struct SwsContext *scaler;
    /// The caller's rows copied 64-byte aligned with padding, as libswscale's SIMD input functions may read
    /// past a row's last pixel.
    uint8_t *staged;
    size_t staged_stride;
    int header_written;
    int finished;
    blz_video_status finish_status;
    char message[512];
};

static blz_video_status fail(blz_video_writer *writer, blz_video_status status, int error, const char *what) {
    blzv_describe(writer->message, sizeof writer->message, error, "%s", what);
    return status;
}

static blz_video_status write_failure(blz_video_writer *writer, int error, const char *what) {
    return fail(writer, writer->target.system_error != 0 ? BLZ_VIDEO_WRITE_FAILED : BLZ_VIDEO_ENCODING_FAILED,
                error, what);
}

static const AVCodec *find_encoder(blz_video_codec codec) {
    const AVCodec *h264 = avcodec_find_encoder_by_name("libx264");
    switch (codec) {
    case BLZ_VIDEO_CODEC_H264: return h264;
    case BLZ_VIDEO_CODEC_MPEG4: return avcodec_find_encoder(AV_CODEC_ID_MPEG4);
    default: return h264 != NULL ? h264 : avcodec_find_encoder(AV_CODEC_ID_MPEG4);
    }
}

static void write_display_matrix(blz_video_writer *writer) {
    const blz_video_writer_config *config = &writer->config;
    if (!config->has_display_matrix) return;
    int32_t matrix[9] = {config->display_matrix[0] * 65536, config->display_matrix[1] * 65536, 0,
                         config->display_matrix[2] * 65536, config->display_matrix[3] * 65536, 0,
                         0, 0, 1 << 30};
#if LIBAVCODEC_VERSION_INT >= AV_VERSION_INT(60, 29, 100)
    AVPacketSideData *side = av_packet_side_data_new(&writer->stream->codecpar->coded_side_data,
                                                     &writer->stream->codecpar->nb_coded_side_data,
                                                     AV_PKT_DATA_DISPLAYMATRIX, sizeof matrix, 0);
    if (side != NULL) memcpy(side->data, matrix, sizeof matrix);
#else
    uint8_t *side = av_stream_new_side_data(writer->stream, AV_PKT_DATA_DISPLAYMATRIX, sizeof matrix);
    if (side != NULL) memcpy(side, matrix, sizeof matrix);
#endif
}

static blz_video_status open_encoder(blz_video_writer *writer, const AVCodec *encoder) {
    const blz_video_writer_config *config = &writer->config;
    AVCodecContext *codec = avcodec_alloc_context3(encoder);
    writer->codec = codec;
    if (codec == NULL) return fail(writer, BLZ_VIDEO_OUT_OF_MEMORY, 0, "cannot allocate the encoder");
    codec->width = (int)config->width;
    codec->height = (int)config->height;
    codec->pix_fmt = AV_PIX_FMT_YUV420P;
    codec->time_base = (AVRational){config->time_base_num, config->time_base_den};
    codec->framerate = (AVRational){config->frame_rate_num, config->frame_rate_den};
    codec->gop_size = config->key_frame_interval;
    codec->thread_count = (int)config->threads;
    if (writer->format->oformat->flags & AVFMT_GLOBALHEADER) codec->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    AVDictionary *options = NULL;
    if (encoder->id == AV_CODEC_ID_H264) {
        av_dict_set_int(&options, "crf", config->quality, 0);
        av_dict_set(&options, "preset", "veryfast", 0);
    } else {
        codec->flags |= AV_CODEC_FLAG_QSCALE;
        codec->global_quality = FF_QP2LAMBDA * config->quality;
    }
    int error = avcodec_open2(codec, encoder, &options);
    av_dict_free(&options);
    if (error < 0) return fail(writer, BLZ_VIDEO_ENCODING_FAILED, error, "cannot open the encoder");
    writer->stream = avformat_new_stream(writer->format, NULL);
    if (writer->stream == NULL) return fail(writer, BLZ_VIDEO_OUT_OF_MEMORY, 0, "cannot add the stream");
    writer->stream->time_base = codec->time_base;
    writer->stream->avg_frame_rate = codec->framerate;
    error = avcodec_parameters_from_context(writer->stream->codecpar, codec);
    if (error < 0) return fail(writer, BLZ_VIDEO_ENCODING_FAILED, error, "cannot describe the stream");
    write_display_matrix(writer);
    writer->frame = av_frame_alloc();
    writer->packet = av_packet_alloc();
    if (writer->frame == NULL || writer->packet == NULL) return fail(writer, BLZ_VIDEO_OUT_OF_MEMORY, 0, "out of memory");
    writer->frame->format = codec->pix_fmt;
    writer->frame->width = codec->width;
    writer->frame->height = codec->height;
    error = av_frame_get_buffer(writer->frame, 0);
    if (error < 0) return fail(writer, BLZ_VIDEO_OUT_OF_MEMORY, error, "cannot allocate the frame");
    enum AVPixelFormat input = config->input == BLZ_VIDEO_PIXELS_RGB24 ? AV_PIX_FMT_RGB24
                             : config->input == BLZ_VIDEO_PIXELS_RGBA ? AV_PIX_FMT_RGBA : AV_PIX_FMT_BGRA;
    writer->scaler = sws_getContext(codec->width, codec->height, input, codec->width, codec->height,
                                    codec->pix_fmt, SWS_BILINEAR, NULL, NULL, NULL);
    if (writer->scaler == NULL) return fail(writer, BLZ_VIDEO_ENCODING_FAILED, 0, "cannot convert to YUV");
    error = avformat_write_header(writer->format, NULL);
    if (error < 0) return write_failure(writer, error, "cannot write the container's header");
    writer->header_written = 1;
    return BLZ_VIDEO_OK;
}

static blz_video_status open_writer(blz_video_writer *writer, const char *path) {
    const blz_video_writer_config *config = &writer->config;
    if (config->width == 0 || config->height == 0 || config->width % 2 || config->height % 2
        || config->width > 16384 || config->height > 16384) {
        return fail(writer, BLZ_VIDEO_INVALID_ARGUMENT, 0, "the frame size must be even, 2 ... 16384 pixels");
    }
    if (config->time_base_num <= 0 || config->time_base_den <= 0 || config->frame_rate_num <= 0
        || config->frame_rate_den <= 0) {
        return fail(writer, BLZ_VIDEO_INVALID_ARGUMENT, 0, "the time base and frame rate must be positive");
    }
    const AVOutputFormat *container = av_guess_format(NULL, path, NULL);
    if (container == NULL) {
        snprintf(writer->message, sizeof writer->message, "no container for the file name %s", path);
        return BLZ_VIDEO_UNSUPPORTED_CONTAINER;
    }
    const AVCodec *encoder = find_encoder(config->codec);
    if (encoder == NULL) {
        return fail(writer, BLZ_VIDEO_UNSUPPORTED_CODEC, 0,
                    config->codec == BLZ_VIDEO_CODEC_H264 ? "this FFmpeg has no libx264" : "no MPEG-4 encoder");
    }
    if (avformat_query_codec(container, encoder->id, FF_COMPLIANCE_NORMAL) != 1) {
        snprintf(writer->message, sizeof writer->message, "the %s container does not take %s", container->name,
                 encoder->name);
        return BLZ_VIDEO_UNSUPPORTED_CONTAINER;
    }
    int error = avformat_alloc_output_context2(&writer->format, container, NULL, NULL);
    if (error < 0) return fail(writer, BLZ_VIDEO_OUT_OF_MEMORY, error, "cannot allocate the muxer");
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        writer->target.system_error = errno;
        return fail(writer, BLZ_VIDEO_WRITE_FAILED, 0, strerror(errno));
    }
    writer->target.fd = fd;
    writer->io = blzv_io_create(&writer->target, 1);
    if (writer->io == NULL) return fail(writer, BLZ_VIDEO_OUT_OF_MEMORY, 0, "cannot allocate the I/O context");
    writer->format->pb = writer->io;
    writer->format->flags |= AVFMT_FLAG_CUSTOM_IO;
    return open_encoder(writer, encoder);
}

blz_video_writer *blz_video_writer_open(const char *path, const blz_video_writer_config *config,
                                        blz_video_status *status, char *message, size_t message_capacity,
                                        int *system_error) {
    blz_video_status ignored;
    if (status == NULL) status = &ignored;
    if (path == NULL || config == NULL) { *status = BLZ_VIDEO_INVALID_ARGUMENT; return NULL; }
    blz_video_writer *writer = calloc(1, sizeof(blz_video_writer));
    if (writer == NULL) { *status = BLZ_VIDEO_OUT_OF_MEMORY; return NULL; }
    blzv_log_install();
    blzv_log_clear();
    writer->config = *config;
    writer->target.fd = -1;
    *status = open_writer(writer, path);
    if (*status == BLZ_VIDEO_OK) return writer;
    if (message != NULL && message_capacity > 0) snprintf(message, message_capacity, "%s", writer->message);
    if (system_error != NULL) *system_error = writer->target.system_error;
    writer->finished = 1;  // nothing to finalize
    blz_video_writer_destroy(writer);
    return NULL;
}

const char *blz_video_writer_codec_name(const blz_video_writer *writer) {
    return writer == NULL || writer->codec == NULL ? "" : writer->codec->codec->name;
}

/// Sends `frame` (NULL to flush) and writes every packet the encoder returns.
static blz_video_status encode(blz_video_writer *writer, AVFrame *frame) {
    int error = avcodec_send_frame(writer->codec, frame);
    if (error < 0) return fail(writer, BLZ_VIDEO_ENCODING_FAILED, error, "cannot encode the frame");
    for (;;) {
        error = avcodec_receive_packet(writer->codec, writer->packet);
        if (error == AVERROR(EAGAIN) || error == AVERROR_EOF) return BLZ_VIDEO_OK;
        if (error < 0) return fail(writer, BLZ_VIDEO_ENCODING_FAILED, error, "cannot encode the frame");
        av_packet_rescale_ts(writer->packet, writer->codec->time_base, writer->stream->time_base);
        writer->packet->stream_index = writer->stream->index;
        error = av_interleaved_write_frame(writer->format, writer->packet);
        if (error < 0) return write_failure(writer, error, "cannot write a packet");
    }
}

blz_video_status blz_video_writer_write(blz_video_writer *writer, const uint8_t *pixels, size_t bytes_per_row,
                                        size_t capacity, int64_t timestamp) {
    if (writer == NULL || pixels == NULL) return BLZ_VIDEO_INVALID_ARGUMENT;
    if (writer->finished) return fail(writer, BLZ_VIDEO_INVALID_ARGUMENT, 0, "the writer is finished");
    blzv_log_clear();
    size_t width = writer->config.width, height = writer->config.height;
    size_t bytes_per_pixel = writer->config.input == BLZ_VIDEO_PIXELS_RGB24 ? 3 : 4;
    if (bytes_per_row < width * bytes_per_pixel || bytes_per_row > INT32_MAX
        || capacity < bytes_per_row * (height - 1) + width * bytes_per_pixel) {
        return fail(writer, BLZ_VIDEO_INVALID_ARGUMENT, 0, "the pixel buffer is too small for the frame size");
    }
    int error = av_frame_make_writable(writer->frame);
    if (error < 0) return fail(writer, BLZ_VIDEO_OUT_OF_MEMORY, error, "cannot allocate the frame");
    size_t row = width * bytes_per_pixel;
    if (writer->staged == NULL) {
        writer->staged_stride = (row + 63) & ~(size_t)63;
        writer->staged = av_mallocz(writer->staged_stride * (height + 1) + 64);
        if (writer->staged == NULL) return fail(writer, BLZ_VIDEO_OUT_OF_MEMORY, 0, "cannot allocate the frame");
    }
    for (size_t y = 0; y < height; y++) memcpy(writer->staged + y * writer->staged_stride, pixels + y * bytes_per_row, row);
    const uint8_t *planes[4] = {writer->staged, NULL, NULL, NULL};
    int strides[4] = {(int)writer->staged_stride, 0, 0, 0};
    sws_scale(writer->scaler, planes, strides, 0, (int)height, writer->frame->data, writer->frame->linesize);
    writer->frame->pts = timestamp;
    return encode(writer, writer->frame);
}

blz_video_status blz_video_writer_finish(blz_video_writer *writer) {
    if (writer == NULL) return BLZ_VIDEO_INVALID_ARGUMENT;
    if (writer->finished) return writer->finish_status;
    writer->finished = 1;
    blzv_log_clear();
    blz_video_status status = encode(writer, NULL);
    if (writer->header_written) {
        int error = av_write_trailer(writer->format);
        if (error < 0 && status == BLZ_VIDEO_OK) status = write_failure(writer, error, "cannot write the trailer");
    }
    if (writer->io != NULL) {
        avio_flush(writer->io);
        if (writer->io->error < 0 && status == BLZ_VIDEO_OK) status = write_failure(writer, writer->io->error, "cannot write");
    }
    if (writer->target.fd >= 0) {
        if (close(writer->target.fd) != 0 && status == BLZ_VIDEO_OK) {
            writer->target.system_error = errno;
            status = fail(writer, BLZ_VIDEO_WRITE_FAILED, 0, strerror(errno));
        }
        writer->target.fd = -1;
    }
    return writer->finish_status = status;
}

const char *blz_video_writer_message(const blz_video_writer *writer) {
    return writer == NULL ? "no writer" : writer->message;
}

int blz_video_writer_errno(const blz_video_writer *writer) {
    return writer == NULL ? 0 : writer->target.system_error;
}

void blz_video_writer_destroy(blz_video_writer *writer) {
    if (writer == NULL) return;
    if (!writer->finished) blz_video_writer_finish(writer);
    blzv_free_codec_objects(&writer->codec, &writer->frame, &writer->packet, &writer->scaler, &writer->staged);
    blzv_io_destroy(&writer->io);
    avformat_free_context(writer->format);
    if (writer->target.fd >= 0) close(writer->target.fd);
    free(writer);
}
