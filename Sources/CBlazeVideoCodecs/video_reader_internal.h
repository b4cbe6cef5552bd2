// Shared by the reader's files (video_reader.c: demuxing and decoding; video_convert.c: pixel conversion).
#ifndef BLAZE_VIDEO_READER_INTERNAL_H
#define BLAZE_VIDEO_READER_INTERNAL_H

#include "video_internal.h"

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswscale/swscale.h>

struct blz_video_reader {
    blz_video_limits limits;
    blzv_source source;
    AVIOContext *io;
    AVFormatContext *format;
    AVCodecContext *codec;
    AVStream *stream;
    AVPacket *packet;
    AVFrame *frame;
    struct SwsContext *scaler;
    /// libswscale's output: rows 64-byte aligned, with a spare row and padding, because its SIMD output
    /// functions may write past a row's last pixel; copied row by row into the caller's buffer.
    uint8_t *converted;
    size_t converted_size;
    int opened;
    int has_frame;
    int draining;
    /// END or a failure once the stream is over (returned by every later `next`); OK while it runs.
    blz_video_status final_status;
    /// A failure met while frames were still buffered in the decoder: reported after they are delivered.
    blz_video_status pending_status;
    /// The presentation time (stream ticks) of the first damaged picture: buffered frames shown at or after it
    /// are dropped. INT64_MAX when every buffered frame is good.
    int64_t first_damaged_pts;
    double frame_rate;
    double duration;
    int64_t declared_frames;
    int64_t delivered;
    double last_time;
    int rejected_width, rejected_height;
    char message[512];
    char pending_message[512];
};

/// Describes the failure in `reader->message` and returns `status`.
static inline blz_video_status blzv_fail(blz_video_reader *reader, blz_video_status status, int error, const char *what) {
    blzv_describe(reader->message, sizeof reader->message, error, "%s", what);
    return status;
}

/// Whether the frame's samples are full range (JPEG's), by its colour range or its (deprecated) yuvj format.
static inline int blzv_is_full_range(const AVFrame *frame) {
    return frame->color_range == AVCOL_RANGE_JPEG || frame->format == AV_PIX_FMT_YUVJ420P
        || frame->format == AV_PIX_FMT_YUVJ422P || frame->format == AV_PIX_FMT_YUVJ444P;
}

#endif // BLAZE_VIDEO_READER_INTERNAL_H
