// blz_video_reader: demuxing (libavformat) and decoding (libavcodec), one frame at a time; the conversion of a
// decoded frame is in video_convert.c.
#include "video_reader_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avstring.h>
#include <libavutil/display.h>
#include <libswscale/swscale.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/// The demuxers a reader accepts (FFmpeg's names): containers of video, and raw video elementary streams.
/// Nothing that follows references to other files or URLs (playlists, concat, image sequences).
static const char *const accepted_formats =
    "mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,avi,flv,mpegts,mpeg,asf,ogg,ivf,nut,h264,hevc,m4v";

blz_video_reader *blz_video_reader_create(const blz_video_limits *limits) {
    if (limits == NULL) return NULL;
    blz_video_reader *reader = calloc(1, sizeof(blz_video_reader));
    if (reader == NULL) return NULL;
    reader->limits = *limits;
    reader->source.fd = -1;
    return reader;
}

/// True when the demuxer has consumed every byte, or looked past the end (an MP4's index beyond a cut): damage
/// found then is the end of the data, not bad bytes. (`source.reached_end` alone says only that the
/// read-ahead buffer reached the end.)
static int at_end_of_data(const blz_video_reader *reader) {
    if (reader->io == NULL || !reader->source.reached_end) return 0;
    return avio_feof(reader->io) || avio_tell(reader->io) >= reader->source.size;
}

/// Damage met at the end of the data is truncation; anywhere else it is corruption.
static blz_video_status damage_status(const blz_video_reader *reader) {
    return at_end_of_data(reader) ? BLZ_VIDEO_TRUNCATED : BLZ_VIDEO_CORRUPT;
}

static int refuse_nested_open(AVFormatContext *format, AVIOContext **io, const char *url, int flags,
                              AVDictionary **options) {
    (void)format; (void)io; (void)url; (void)flags; (void)options;
    return AVERROR(EPERM);
}

static int size_within_limits(const blz_video_limits *limits, int width, int height) {
    if (width <= 0 || height <= 0) return 0;
    if ((uint32_t)width > limits->max_width || (uint32_t)height > limits->max_height) return 0;
    return (uint64_t)width * (uint64_t)height <= limits->max_pixels;
}

static blz_video_status reject_size(blz_video_reader *reader, int width, int height) {
    reader->rejected_width = width;
    reader->rejected_height = height;
    snprintf(reader->message, sizeof reader->message, "%dx%d", width, height);
    return BLZ_VIDEO_TOO_LARGE;
}

static void read_display_matrix(const AVStream *stream, blz_video_info *info) {
    const int32_t *matrix = NULL;
#if LIBAVCODEC_VERSION_INT >= AV_VERSION_INT(60, 29, 100)
    const AVPacketSideData *side = av_packet_side_data_get(stream->codecpar->coded_side_data,
                                                           stream->codecpar->nb_coded_side_data,
                                                           AV_PKT_DATA_DISPLAYMATRIX);
    if (side != NULL && side->size >= 9 * sizeof(int32_t)) matrix = (const int32_t *)side->data;
#else
    size_t size = 0;
    const uint8_t *data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (data != NULL && size >= 9 * sizeof(int32_t)) matrix = (const int32_t *)data;
#endif
    if (matrix == NULL) return;
    info->has_display_matrix = 1;
    info->display_matrix[0] = matrix[0] / 65536.0;
    info->display_matrix[1] = matrix[1] / 65536.0;
    info->display_matrix[2] = matrix[3] / 65536.0;
    info->display_matrix[3] = matrix[4] / 65536.0;
}

static blz_video_status open_decoder(blz_video_reader *reader) {
    const AVCodec *decoder = NULL;
    int index = av_find_best_stream(reader->format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0);
    if (index == AVERROR_STREAM_NOT_FOUND) return blzv_fail(reader, BLZ_VIDEO_NO_VIDEO_STREAM, 0, "no video stream");
    if (index == AVERROR_DECODER_NOT_FOUND || (index >= 0 && decoder == NULL)) {
        int first = av_find_best_stream(reader->format, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0);
        const char *name = first >= 0 ? avcodec_get_name(reader->format->streams[first]->codecpar->codec_id) : "?";
        snprintf(reader->message, sizeof reader->message, "no decoder for %s in this FFmpeg", name);
        return BLZ_VIDEO_UNSUPPORTED_CODEC;
    }
    if (index < 0) return blzv_fail(reader, BLZ_VIDEO_CORRUPT, index, "cannot select the video stream");
    AVStream *stream = reader->format->streams[index];
    reader->stream = stream;
    for (unsigned i = 0; i < reader->format->nb_streams; i++) {
        if ((int)i != index) reader->format->streams[i]->discard = AVDISCARD_ALL;
    }
    const AVCodecParameters *parameters = stream->codecpar;
    if ((parameters->width != 0 || parameters->height != 0)
        && !size_within_limits(&reader->limits, parameters->width, parameters->height)) {
        return reject_size(reader, parameters->width, parameters->height);
    }
    reader->codec = avcodec_alloc_context3(decoder);
    if (reader->codec == NULL) return blzv_fail(reader, BLZ_VIDEO_OUT_OF_MEMORY, 0, "cannot allocate the decoder");
    int error = avcodec_parameters_to_context(reader->codec, parameters);
    if (error < 0) return blzv_fail(reader, BLZ_VIDEO_CORRUPT, error, "invalid stream parameters");
    reader->codec->pkt_timebase = stream->time_base;
    reader->codec->thread_count = (int)reader->limits.threads;
    reader->codec->max_pixels = (int64_t)reader->limits.max_pixels;
    if (reader->limits.strict) reader->codec->err_recognition |= AV_EF_EXPLODE;
    error = avcodec_open2(reader->codec, decoder, NULL);
    if (error < 0) {
        return blzv_fail(reader, error == AVERROR_INVALIDDATA ? BLZ_VIDEO_CORRUPT : BLZ_VIDEO_UNSUPPORTED_CODEC, error,
                    "cannot open the decoder");
    }
    if (stream->avg_frame_rate.num > 0 && stream->avg_frame_rate.den > 0) {
        reader->frame_rate = av_q2d(stream->avg_frame_rate);
    } else if (stream->r_frame_rate.num > 0 && stream->r_frame_rate.den > 0) {
        reader->frame_rate = av_q2d(stream->r_frame_rate);
    }
    reader->duration = -1;
    if (stream->duration != AV_NOPTS_VALUE && stream->duration > 0) {
        reader->duration = stream->duration * av_q2d(stream->time_base);
    } else if (reader->format->duration != AV_NOPTS_VALUE && reader->format->duration > 0) {
        reader->duration = reader->format->duration / (double)AV_TIME_BASE;
    }
    reader->declared_frames = stream->nb_frames > 0 ? stream->nb_frames : -1;
    reader->packet = av_packet_alloc();
    reader->frame = av_frame_alloc();
    if (reader->packet == NULL || reader->frame == NULL) {
        return blzv_fail(reader, BLZ_VIDEO_OUT_OF_MEMORY, 0, "cannot allocate a frame");
    }
    return BLZ_VIDEO_OK;
}

static blz_video_status open_container(blz_video_reader *reader) {
    blzv_log_install();
    blzv_log_clear();
    if (reader->source.size == 0) return blzv_fail(reader, BLZ_VIDEO_NOT_A_VIDEO, 0, "the file is empty");
    reader->io = blzv_io_create(&reader->source, 0);
    if (reader->io == NULL) return blzv_fail(reader, BLZ_VIDEO_OUT_OF_MEMORY, 0, "cannot allocate the I/O context");
    const AVInputFormat *input = NULL;
    int error = av_probe_input_buffer2(reader->io, &input, "", NULL, 0, 0);
    if (error < 0 || input == NULL) return blzv_fail(reader, BLZ_VIDEO_NOT_A_VIDEO, 0, "no video container recognised");
    if (av_match_list(input->name, accepted_formats, ',') <= 0) {
        snprintf(reader->message, sizeof reader->message, "%s data, not a video container", input->name);
        return BLZ_VIDEO_NOT_A_VIDEO;
    }
    reader->format = avformat_alloc_context();
    if (reader->format == NULL) return blzv_fail(reader, BLZ_VIDEO_OUT_OF_MEMORY, 0, "cannot allocate the demuxer");
    reader->format->pb = reader->io;
    reader->format->io_open = refuse_nested_open;
    reader->format->max_streams = 100;
    AVDictionary *options = NULL;
    av_dict_set(&options, "format_whitelist", accepted_formats, 0);
    error = avformat_open_input(&reader->format, "", input, &options);
    av_dict_free(&options);
    if (error < 0) {  // avformat_open_input freed the context (not our I/O)
        if (error == AVERROR(ENOMEM)) return blzv_fail(reader, BLZ_VIDEO_OUT_OF_MEMORY, error, "out of memory");
        return blzv_fail(reader, damage_status(reader), error, "cannot read the container's header");
    }
    // The stream analysis decodes a few frames: it gets the same pixel limit and one thread.
    unsigned count = reader->format->nb_streams;
    AVDictionary **stream_options = count > 0 ? calloc(count, sizeof(AVDictionary *)) : NULL;
    if (count > 0 && stream_options == NULL) return blzv_fail(reader, BLZ_VIDEO_OUT_OF_MEMORY, 0, "out of memory");
    for (unsigned i = 0; i < count; i++) {
        av_dict_set_int(&stream_options[i], "max_pixels", (int64_t)reader->limits.max_pixels, 0);
        av_dict_set(&stream_options[i], "threads", "1", 0);
    }
    error = avformat_find_stream_info(reader->format, stream_options);
    for (unsigned i = 0; i < count; i++) av_dict_free(&stream_options[i]);
    free(stream_options);
    if (error < 0) return blzv_fail(reader, damage_status(reader), error, "cannot analyse the streams");
    blz_video_status status = open_decoder(reader);
    if (status == BLZ_VIDEO_OK) reader->opened = 1;
    return status;
}

blz_video_status blz_video_reader_open_file(blz_video_reader *reader, const char *path) {
    if (reader == NULL || path == NULL || reader->io != NULL) return BLZ_VIDEO_INVALID_ARGUMENT;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        reader->source.system_error = errno;
        return blzv_fail(reader, BLZ_VIDEO_CANNOT_OPEN, 0, strerror(errno));
    }
    reader->source.fd = fd;
    struct stat info;
    if (fstat(fd, &info) != 0) {
        reader->source.system_error = errno;
        return blzv_fail(reader, BLZ_VIDEO_CANNOT_OPEN, 0, strerror(errno));
    }
    if (!S_ISREG(info.st_mode)) {
        const char *kind = S_ISDIR(info.st_mode) ? "a directory" : S_ISFIFO(info.st_mode) ? "a FIFO (named pipe)"
                         : S_ISCHR(info.st_mode) ? "a character device" : S_ISBLK(info.st_mode) ? "a block device"
                         : S_ISSOCK(info.st_mode) ? "a socket" : "not a regular file";
        snprintf(reader->message, sizeof reader->message, "%s", kind);
        return BLZ_VIDEO_NOT_REGULAR_FILE;
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0) fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    reader->source.size = info.st_size;
    return open_container(reader);
}

blz_video_status blz_video_reader_open_memory(blz_video_reader *reader, const uint8_t *data, size_t size) {
    if (reader == NULL || (data == NULL && size > 0) || reader->io != NULL || size > INT64_MAX) {
        return BLZ_VIDEO_INVALID_ARGUMENT;
    }
    reader->source.data = data;
    reader->source.size = (int64_t)size;
    return open_container(reader);
}

blz_video_status blz_video_reader_info(const blz_video_reader *reader, blz_video_info *info) {
    if (reader == NULL || info == NULL || !reader->opened) return BLZ_VIDEO_INVALID_ARGUMENT;
    memset(info, 0, sizeof *info);
    info->width = (uint32_t)reader->codec->width;
    info->height = (uint32_t)reader->codec->height;
    info->frame_rate = reader->frame_rate;
    info->duration = reader->duration;
    info->frame_count = reader->declared_frames;
    info->time_base_num = reader->stream->time_base.num;
    info->time_base_den = reader->stream->time_base.den;
    read_display_matrix(reader->stream, info);
    snprintf(info->codec_name, sizeof info->codec_name, "%s", avcodec_get_name(reader->codec->codec_id));
    snprintf(info->container_name, sizeof info->container_name, "%s", reader->format->iformat->name);
    return BLZ_VIDEO_OK;
}

/// Remembers a failure to report once the frames still inside the decoder and shown before the damaged picture
/// (at `damaged_pts`; INT64_MAX: none was decoded; AV_NOPTS_VALUE: unknown, so none) are delivered, and starts
/// draining the decoder.
static void defer_failure(blz_video_reader *reader, blz_video_status status, int error, const char *what,
                          int64_t damaged_pts) {
    if (reader->pending_status == BLZ_VIDEO_OK) {
        reader->pending_status = status;
        blzv_describe(reader->pending_message, sizeof reader->pending_message, error, "%s", what);
        reader->first_damaged_pts = damaged_pts == AV_NOPTS_VALUE ? INT64_MIN : damaged_pts;
    }
    if (!reader->draining) {
        avcodec_send_packet(reader->codec, NULL);
        reader->draining = 1;
    }
}

/// The end of the stream: a deferred failure, truncation (the data ended before the frames or the duration
/// the container declares), or END.
static blz_video_status finish_stream(blz_video_reader *reader) {
    if (reader->pending_status != BLZ_VIDEO_OK) {
        memcpy(reader->message, reader->pending_message, sizeof reader->message);
        return reader->final_status = reader->pending_status;
    }
    if (reader->source.reached_end) {
        if (reader->declared_frames > 0 && reader->delivered < reader->declared_frames) {
            snprintf(reader->message, sizeof reader->message,
                     "the data ends after %lld of the %lld frames the container declares",
                     (long long)reader->delivered, (long long)reader->declared_frames);
            return reader->final_status = BLZ_VIDEO_TRUNCATED;
        }
        double period = reader->frame_rate > 0 ? 1.0 / reader->frame_rate : 0;
        double start = reader->stream->start_time != AV_NOPTS_VALUE
                     ? reader->stream->start_time * av_q2d(reader->stream->time_base) : 0;
        if (reader->declared_frames < 0 && reader->duration > 0 && period > 0
            && (reader->delivered == 0 || reader->last_time + 2.5 * period < start + reader->duration)) {
            snprintf(reader->message, sizeof reader->message,
                     "the data ends at %.3f s of the %.3f s the container declares",
                     reader->delivered == 0 ? start : reader->last_time + period, start + reader->duration);
            return reader->final_status = BLZ_VIDEO_TRUNCATED;
        }
    }
    snprintf(reader->message, sizeof reader->message, "end of stream");
    return reader->final_status = BLZ_VIDEO_END;
}

/// Takes the frame the decoder just returned: checks it and fills `out`.
static blz_video_status accept_frame(blz_video_reader *reader, blz_video_frame *out) {
    AVFrame *frame = reader->frame;
    if (reader->limits.strict && (frame->decode_error_flags != 0 || (frame->flags & AV_FRAME_FLAG_CORRUPT))) {
        int64_t pts = frame->best_effort_timestamp;
        av_frame_unref(frame);
        defer_failure(reader, BLZ_VIDEO_CORRUPT, 0, "the decoder reports a damaged frame", pts);
        return BLZ_VIDEO_OK;  // not delivered; the caller keeps draining
    }
    if (reader->pending_status != BLZ_VIDEO_OK && (frame->best_effort_timestamp == AV_NOPTS_VALUE
                                                   || frame->best_effort_timestamp >= reader->first_damaged_pts)) {
        av_frame_unref(frame);
        return BLZ_VIDEO_OK;  // shown at or after the damaged picture: dropped
    }
    if (!size_within_limits(&reader->limits, frame->width, frame->height)) {
        blz_video_status status = reject_size(reader, frame->width, frame->height);
        av_frame_unref(frame);
        return reader->final_status = status;
    }
    if (reader->delivered >= (int64_t)reader->limits.max_frames) {
        av_frame_unref(frame);
        snprintf(reader->message, sizeof reader->message, "more than %llu frames",
                 (unsigned long long)reader->limits.max_frames);
        return reader->final_status = BLZ_VIDEO_TOO_MANY_FRAMES;
    }
    double period = reader->frame_rate > 0 ? 1.0 / reader->frame_rate : 0;
    out->color_matrix = frame->colorspace == AVCOL_SPC_BT709 ? 709 : 601;
    out->full_range = blzv_is_full_range(frame);
    out->width = (uint32_t)frame->width;
    out->height = (uint32_t)frame->height;
    out->index = reader->delivered;
    if (frame->best_effort_timestamp != AV_NOPTS_VALUE) {
        out->time = frame->best_effort_timestamp * av_q2d(reader->stream->time_base);
        out->has_time = 1;
    } else {
        out->time = reader->delivered == 0 ? 0 : reader->last_time + period;
        out->has_time = 0;
    }
    reader->last_time = out->time;
    reader->delivered += 1;
    reader->has_frame = 1;
    return BLZ_VIDEO_OK;
}

blz_video_status blz_video_reader_next(blz_video_reader *reader, blz_video_frame *out) {
    if (reader == NULL || out == NULL || !reader->opened) return BLZ_VIDEO_INVALID_ARGUMENT;
    if (reader->final_status != BLZ_VIDEO_OK) return reader->final_status;
    blzv_log_clear();
    memset(out, 0, sizeof *out);
    if (reader->has_frame) { av_frame_unref(reader->frame); reader->has_frame = 0; }
    uint32_t packets_without_frame = 0;
    for (;;) {
        int error = avcodec_receive_frame(reader->codec, reader->frame);
        if (error == 0) {
            blz_video_status status = accept_frame(reader, out);
            if (status != BLZ_VIDEO_OK || reader->has_frame) return status;
            continue;
        }
        if (error == AVERROR_EOF) return finish_stream(reader);
        if (error != AVERROR(EAGAIN)) {
            if (reader->draining) return finish_stream(reader);
            if (reader->limits.strict) {
                defer_failure(reader, damage_status(reader), error, "cannot decode a frame", AV_NOPTS_VALUE);
            }
            continue;
        }
        if (reader->draining) return finish_stream(reader);
        if (++packets_without_frame > reader->limits.max_packets_without_frame) {
            snprintf(reader->message, sizeof reader->message, "no frame in %u packets",
                     reader->limits.max_packets_without_frame);
            return reader->final_status = BLZ_VIDEO_TOO_MANY_FRAMES;
        }
        error = av_read_frame(reader->format, reader->packet);
        if (error == AVERROR_EOF) {
            avcodec_send_packet(reader->codec, NULL);
            reader->draining = 1;
            continue;
        }
        if (error < 0) {
            defer_failure(reader, error == AVERROR(ENOMEM) ? BLZ_VIDEO_OUT_OF_MEMORY : damage_status(reader), error,
                          "cannot read a packet", INT64_MAX);
            continue;
        }
        if (reader->packet->stream_index != reader->stream->index) {
            av_packet_unref(reader->packet);
            continue;
        }
        if (reader->limits.strict && (reader->packet->flags & AV_PKT_FLAG_CORRUPT)) {
            av_packet_unref(reader->packet);
            defer_failure(reader, damage_status(reader), 0, "a damaged or incomplete packet", INT64_MAX);
            continue;
        }
        int64_t pts = reader->packet->pts;
        error = avcodec_send_packet(reader->codec, reader->packet);
        av_packet_unref(reader->packet);
        if (error < 0 && error != AVERROR(EAGAIN) && reader->limits.strict) {
            defer_failure(reader, damage_status(reader), error, "cannot decode a packet", pts);
        }
    }
}

const char *blz_video_reader_message(const blz_video_reader *reader) {
    return reader == NULL ? "no reader" : reader->message;
}

int blz_video_reader_errno(const blz_video_reader *reader) {
    return reader == NULL ? 0 : reader->source.system_error;
}

void blz_video_reader_rejected_size(const blz_video_reader *reader, int *width, int *height) {
    if (reader == NULL || width == NULL || height == NULL) return;
    *width = reader->rejected_width;
    *height = reader->rejected_height;
}

void blz_video_reader_destroy(blz_video_reader *reader) {
    if (reader == NULL) return;
    blzv_free_codec_objects(&reader->codec, &reader->frame, &reader->packet, &reader->scaler, &reader->converted);
    avformat_close_input(&reader->format);
    blzv_io_destroy(&reader->io);
    if (reader->source.fd >= 0) close(reader->source.fd);
    free(reader);
}
