// What the reader and the writer share: their own I/O (FFmpeg never opens a path, URL or nested file itself),
// FFmpeg's log, error text, and the release of their codec objects.
#include "video_internal.h"

#include <errno.h>
#include <libavcodec/avcodec.h>
#include <libavformat/version.h>
#include <libavutil/error.h>
#include <libavutil/log.h>
#include <libavutil/mem.h>
#include <libswscale/swscale.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static pthread_once_t log_once = PTHREAD_ONCE_INIT;
static __thread char last_log[256];

static void log_callback(void *context, int level, const char *format, va_list arguments) {
    (void)context;
    if (level > AV_LOG_ERROR) return;
    char line[256];
    vsnprintf(line, sizeof line, format, arguments);
    size_t length = strlen(line);
    while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r')) line[--length] = '\0';
    if (length > 0) memcpy(last_log, line, length + 1);
}

static void install(void) { av_log_set_callback(log_callback); }

void blzv_log_install(void) { pthread_once(&log_once, install); }
const char *blzv_log_last(void) { return last_log; }
void blzv_log_clear(void) { last_log[0] = '\0'; }

void blzv_describe(char *buffer, size_t capacity, int error, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    int written = vsnprintf(buffer, capacity, format, arguments);
    va_end(arguments);
    if (written < 0 || (size_t)written >= capacity) return;
    if (error < 0) {
        char text[AV_ERROR_MAX_STRING_SIZE] = {0};
        av_strerror(error, text, sizeof text);
        snprintf(buffer + written, capacity - (size_t)written, ": %s", text);
    }
    const char *line = blzv_log_last();
    size_t used = strlen(buffer);
    if (line[0] != '\0' && used + 4 < capacity) snprintf(buffer + used, capacity - used, " (%s)", line);
}

static int read_packet(void *opaque, uint8_t *buffer, int size) {
    blzv_source *source = opaque;
    if (source->fd < 0) {
        int64_t left = source->size - source->position;
        if (left <= 0) { source->reached_end = 1; return AVERROR_EOF; }
        int count = left < size ? (int)left : size;
        memcpy(buffer, source->data + source->position, (size_t)count);
        source->position += count;
        if (count < size) source->reached_end = 1;
        return count;
    }
    for (;;) {
        ssize_t count = read(source->fd, buffer, (size_t)size);
        if (count < 0 && errno == EINTR) continue;
        if (count < 0) { source->system_error = errno; return AVERROR(errno); }
        if (count == 0) { source->reached_end = 1; return AVERROR_EOF; }
        source->position += count;
        return (int)count;
    }
}

// FFmpeg 7 (libavformat 61) made the written buffer const.
#if LIBAVFORMAT_VERSION_MAJOR >= 61
#define BLZV_WRITE_CONST const
#else
#define BLZV_WRITE_CONST
#endif

static int write_packet(void *opaque, BLZV_WRITE_CONST uint8_t *buffer, int size) {
    blzv_source *source = opaque;
    int done = 0;
    while (done < size) {
        ssize_t count = write(source->fd, buffer + done, (size_t)(size - done));
        if (count < 0 && errno == EINTR) continue;
        if (count < 0) { source->system_error = errno; return AVERROR(errno); }
        done += (int)count;
    }
    source->position += size;
    if (source->position > source->size) source->size = source->position;
    return size;
}

static int64_t seek(void *opaque, int64_t offset, int whence) {
    blzv_source *source = opaque;
    whence &= ~AVSEEK_FORCE;
    if (whence == AVSEEK_SIZE) return source->size;
    int64_t target;
    switch (whence) {
    case SEEK_SET: target = offset; break;
    case SEEK_CUR: target = source->position + offset; break;
    case SEEK_END: target = source->size + offset; break;
    default: return AVERROR(EINVAL);
    }
    if (target < 0) return AVERROR(EINVAL);
    if (source->fd >= 0) {
        off_t result = lseek(source->fd, (off_t)target, SEEK_SET);
        if (result < 0) { source->system_error = errno; return AVERROR(errno); }
    } else if (target > source->size) {
        target = source->size;
    }
    source->position = target;
    return target;
}

AVIOContext *blzv_io_create(blzv_source *source, int writable) {
    const int capacity = 1 << 16;
    uint8_t *buffer = av_malloc(capacity);
    if (buffer == NULL) return NULL;
    AVIOContext *io = avio_alloc_context(buffer, capacity, writable, source, writable ? NULL : read_packet,
                                         writable ? write_packet : NULL, seek);
    if (io == NULL) av_free(buffer);
    return io;
}

void blzv_free_codec_objects(AVCodecContext **codec, AVFrame **frame, AVPacket **packet, struct SwsContext **scaler,
                             uint8_t **buffer) {
    sws_freeContext(*scaler);
    *scaler = NULL;
    av_freep(buffer);
    av_frame_free(frame);
    av_packet_free(packet);
    avcodec_free_context(codec);
}

void blzv_io_destroy(AVIOContext **io) {
    if (io == NULL || *io == NULL) return;
    av_freep(&(*io)->buffer);
    avio_context_free(io);
}
