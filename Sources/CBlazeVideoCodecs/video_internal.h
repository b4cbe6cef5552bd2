// Shared by the reader and the writer: the I/O over a descriptor or a memory buffer, FFmpeg's log, and the release
// of the codec objects both hold.
#ifndef BLAZE_VIDEO_INTERNAL_H
#define BLAZE_VIDEO_INTERNAL_H

#include "BlazeVideoCodecs.h"

#include <libavformat/avio.h>
#include <stdarg.h>

/// Where an AVIOContext reads or writes: a file descriptor, or a memory buffer (reading only).
typedef struct blzv_source {
    int fd;                 // -1 for memory
    const uint8_t *data;    // memory
    int64_t size;           // memory size; for a descriptor, the size at open (grows when writing)
    int64_t position;
    int reached_end;        // a read asked for bytes past the end
    int system_error;       // errno of the last failed read, write or seek
} blzv_source;

/// Silences FFmpeg's log for the process (once), keeping each thread's last error line.
void blzv_log_install(void);
/// The calling thread's last FFmpeg error line ("" when none), without the trailing newline.
const char *blzv_log_last(void);
void blzv_log_clear(void);

/// An AVIOContext over `source` (which must outlive it); NULL when memory is exhausted. `writable` for output.
AVIOContext *blzv_io_create(blzv_source *source, int writable);
/// Frees the context and its buffer. Accepts NULL.
void blzv_io_destroy(AVIOContext **io);

struct AVCodecContext;
struct AVFrame;
struct AVPacket;
struct SwsContext;

/// Frees the codec objects the reader and the writer both hold, and clears each pointer: the codec context, its
/// frame and packet, the scaler and the scaler's aligned buffer. Each may be NULL.
void blzv_free_codec_objects(struct AVCodecContext **codec, struct AVFrame **frame, struct AVPacket **packet,
                             struct SwsContext **scaler, uint8_t **buffer);

/// snprintf into `buffer` followed by ": " and FFmpeg's text for `error` when `error` < 0.
void blzv_describe(char *buffer, size_t capacity, int error, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

#endif // BLAZE_VIDEO_INTERNAL_H
