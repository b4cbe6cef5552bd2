// BlazeVideoCodecs: video reading and writing through FFmpeg's libraries (libavformat, libavcodec, libswscale,
// libavutil) for BlazeVideoIO.
//
// Every FFmpeg call happens in C, here; the functions return a status and never exit, abort or print (FFmpeg's
// log is silenced for the whole process on first use, and its last error line is kept for the messages).
//
// Reading is a loop of two steps, so that the caller checks a frame's size and owns the pixel buffer:
//
//     blz_video_reader *r = blz_video_reader_create(&limits);
//     blz_video_reader_open_file(r, path)              (or _open_memory)
//     blz_video_reader_info(r, &info)
//     while (blz_video_reader_next(r, &frame) == BLZ_VIDEO_OK) {
//         ... allocate frame.height rows of bytes_per_row bytes (once; reuse it) ...
//         blz_video_reader_convert(r, format, pixels, bytes_per_row, capacity)
//     }
//     ... BLZ_VIDEO_END at the end, else a failure: blz_video_reader_message(r) says why ...
//     blz_video_reader_destroy(r);
//
// The file is read through the reader's own I/O (a descriptor or a memory buffer): no FFmpeg protocol, URL or
// nested file is ever opened. A reader or writer is used by one thread at a time; different ones are
// independent.
#ifndef BLAZE_VIDEO_CODECS_H
#define BLAZE_VIDEO_CODECS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__has_attribute)
#if __has_attribute(enum_extensibility)
#define BLZV_CLOSED_ENUM __attribute__((enum_extensibility(closed)))
#endif
#endif
#ifndef BLZV_CLOSED_ENUM
#define BLZV_CLOSED_ENUM
#endif

/// The outcome of a call.
typedef enum BLZV_CLOSED_ENUM blz_video_status {
    BLZ_VIDEO_OK = 0,
    /// The stream ended normally: every frame was delivered.
    BLZ_VIDEO_END = 1,
    /// open(2) or fstat(2) failed; `blz_video_reader_errno` has the system's error number.
    BLZ_VIDEO_CANNOT_OPEN = 2,
    /// The path is a FIFO, device, directory or socket (refused before any read).
    BLZ_VIDEO_NOT_REGULAR_FILE = 3,
    /// No container format recognises the data (text, an image, an empty file).
    BLZ_VIDEO_NOT_A_VIDEO = 4,
    /// A container without a video stream.
    BLZ_VIDEO_NO_VIDEO_STREAM = 5,
    /// The video stream's codec has no decoder (or encoder) in this FFmpeg.
    BLZ_VIDEO_UNSUPPORTED_CODEC = 6,
    /// Damaged data: the container or the compressed stream is invalid.
    BLZ_VIDEO_CORRUPT = 7,
    /// The data ends before the container says it does.
    BLZ_VIDEO_TRUNCATED = 8,
    /// A frame size beyond the limits (or zero).
    BLZ_VIDEO_TOO_LARGE = 9,
    /// More frames, or more packets without a frame, than the limits allow.
    BLZ_VIDEO_TOO_MANY_FRAMES = 10,
    BLZ_VIDEO_OUT_OF_MEMORY = 11,
    /// The caller broke the calling sequence or passed inconsistent sizes.
    BLZ_VIDEO_INVALID_ARGUMENT = 12,
    /// The encoder or the muxer failed.
    BLZ_VIDEO_ENCODING_FAILED = 13,
    /// The output file could not be created or written; `blz_video_writer_errno` has the error number.
    BLZ_VIDEO_WRITE_FAILED = 14,
    /// The output file name has an extension no muxer writes.
    BLZ_VIDEO_UNSUPPORTED_CONTAINER = 15,
} blz_video_status;

/// The pixel layouts frames are converted to and encoded from.
typedef enum BLZV_CLOSED_ENUM blz_video_pixels {
    BLZ_VIDEO_PIXELS_RGB24 = 1,
    BLZ_VIDEO_PIXELS_RGBA = 2,
    BLZ_VIDEO_PIXELS_BGRA = 3,
    /// YUV 4:2:0 in three planes one after the other (reading only): `height` luma rows `bytes_per_row` apart,
    /// then (height + 1) / 2 rows of (width + 1) / 2 Cb samples, then as many of Cr, both `(bytes_per_row + 1) / 2`
    /// apart. A yuv420p (or yuvj420p) frame is copied as it is; other formats are converted by libswscale.
    BLZ_VIDEO_PIXELS_I420 = 4,
} blz_video_pixels;

/// Limits checked before anything that grows with them is allocated or done.
typedef struct blz_video_limits {
    uint32_t max_width;
    uint32_t max_height;
    uint64_t max_pixels;
    /// Frames delivered before BLZ_VIDEO_TOO_MANY_FRAMES.
    uint64_t max_frames;
    /// Packets read in a row without a frame coming out (other streams' packets included).
    uint32_t max_packets_without_frame;
    /// Decoder threads (0: FFmpeg chooses).
    uint32_t threads;
    /// Nonzero: frames the decoder reports as damaged, and any decoding error, end the stream with
    /// BLZ_VIDEO_CORRUPT. Zero: FFmpeg's concealment is used and such frames are delivered.
    int32_t strict;
} blz_video_limits;

/// What the container says about the video stream (the first "best" one).
typedef struct blz_video_info {
    uint32_t width;
    uint32_t height;
    /// Average frame rate in frames per second, 0 when unknown.
    double frame_rate;
    /// Duration in seconds, negative when unknown.
    double duration;
    /// Number of frames the container declares, negative when unknown.
    int64_t frame_count;
    /// The stream's time base (seconds per tick = num / den).
    int32_t time_base_num;
    int32_t time_base_den;
    /// Nonzero when the stream carries a display matrix; `display_matrix` is then its linear part, in
    /// FFmpeg's convention (a displayed point is (x*m[0] + y*m[2], x*m[1] + y*m[3]) for a stored (x, y)), as
    /// doubles (the 16.16 fixed-point values divided by 65536).
    int32_t has_display_matrix;
    double display_matrix[4];
    char codec_name[32];
    char container_name[64];
} blz_video_info;

/// One decoded frame, before conversion.
typedef struct blz_video_frame {
    uint32_t width;
    uint32_t height;
    /// The frame's presentation time in seconds (best-effort timestamp x time base), when `has_time`.
    double time;
    int32_t has_time;
    /// 0, 1, 2 ... in the order frames are delivered.
    int64_t index;
    /// The frame's YUV matrix as the stream declares it: 709 for BT.709, 601 for anything else (BT.601, unspecified,
    /// and matrices the library does not model, such as BT.2020).
    int32_t color_matrix;
    /// Nonzero when the frame's samples are full range (AVCOL_RANGE_JPEG or a yuvj format).
    int32_t full_range;
} blz_video_frame;

typedef struct blz_video_reader blz_video_reader;

/// A reader with the given limits (copied). Returns NULL only when memory is exhausted.
blz_video_reader *blz_video_reader_create(const blz_video_limits *limits);

/// Opens the file at `path` (a regular file; the open does not block on a FIFO), reads the container's
/// header, finds the video stream and opens its decoder. Call once, first.
blz_video_status blz_video_reader_open_file(blz_video_reader *reader, const char *path);

/// As `blz_video_reader_open_file`, over `size` bytes at `data`, which must stay valid and unchanged until the
/// reader is destroyed.
blz_video_status blz_video_reader_open_memory(blz_video_reader *reader, const uint8_t *data, size_t size);

/// The stream's description; after a successful open.
blz_video_status blz_video_reader_info(const blz_video_reader *reader, blz_video_info *info);

/// Decodes the next frame (kept inside the reader until the next call). BLZ_VIDEO_END after the last one;
/// after any failure, every later call returns the same failure.
blz_video_status blz_video_reader_next(blz_video_reader *reader, blz_video_frame *frame);

/// Converts the frame `blz_video_reader_next` returned into `pixels`: `height` rows `bytes_per_row` apart
/// (at least width x 3 or 4), `capacity` at least bytes_per_row x (height - 1) + width x bytes per pixel; for
/// BLZ_VIDEO_PIXELS_I420 the three planes described there (bytes_per_row at least width). FFmpeg never writes
/// into `pixels`: the reader copies rows into it from the decoded frame or from its own padded buffer.
blz_video_status blz_video_reader_convert(blz_video_reader *reader, blz_video_pixels format, uint8_t *pixels,
                                          size_t bytes_per_row, size_t capacity);

/// A NUL-terminated description of the last failure. Valid until the next call on the reader.
const char *blz_video_reader_message(const blz_video_reader *reader);
/// The system's error number for BLZ_VIDEO_CANNOT_OPEN.
int blz_video_reader_errno(const blz_video_reader *reader);

/// The width and height that gave BLZ_VIDEO_TOO_LARGE.
void blz_video_reader_rejected_size(const blz_video_reader *reader, int *width, int *height);

/// Releases the reader, its file and everything FFmpeg allocated. Accepts NULL.
void blz_video_reader_destroy(blz_video_reader *reader);

/// The encoders a writer can use.
typedef enum BLZV_CLOSED_ENUM blz_video_codec {
    /// H.264 through libx264 when this FFmpeg has it, else MPEG-4 Part 2.
    BLZ_VIDEO_CODEC_AUTOMATIC = 0,
    BLZ_VIDEO_CODEC_H264 = 1,
    BLZ_VIDEO_CODEC_MPEG4 = 2,
} blz_video_codec;

/// How a writer encodes.
typedef struct blz_video_writer_config {
    uint32_t width;
    uint32_t height;
    blz_video_pixels input;
    blz_video_codec codec;
    /// The stream's time base: a timestamp t (in ticks) is t x num / den seconds.
    int32_t time_base_num;
    int32_t time_base_den;
    /// The nominal frame rate (num / den frames per second), written as the stream's rate.
    int32_t frame_rate_num;
    int32_t frame_rate_den;
    /// H.264: the constant rate factor (0 ... 51, lower is better). MPEG-4: the quantizer (1 ... 31).
    int32_t quality;
    /// Distance between key frames, in frames.
    int32_t key_frame_interval;
    uint32_t threads;
    /// Nonzero: write `display_matrix` (linear part, FFmpeg's convention as in `blz_video_info`; entries are
    /// -1, 0 or 1) as the stream's display matrix.
    int32_t has_display_matrix;
    int32_t display_matrix[4];
} blz_video_writer_config;

typedef struct blz_video_writer blz_video_writer;

/// Creates the file at `path` (truncating it) with the container its extension names (.mp4, .mov, .m4v,
/// .mkv, .avi ...) and opens the encoder. On failure returns NULL and fills `status`, and `message` (of
/// `message_capacity` bytes; may be NULL) and `*system_error` (may be NULL) for BLZ_VIDEO_WRITE_FAILED.
blz_video_writer *blz_video_writer_open(const char *path, const blz_video_writer_config *config,
                                        blz_video_status *status, char *message, size_t message_capacity,
                                        int *system_error);

/// The encoder's name ("libx264", "mpeg4").
const char *blz_video_writer_codec_name(const blz_video_writer *writer);

/// Encodes one frame of `config.width` x `config.height` pixels in `config.input`'s layout, rows
/// `bytes_per_row` apart, at `timestamp` ticks of the time base (strictly increasing; the caller checks).
blz_video_status blz_video_writer_write(blz_video_writer *writer, const uint8_t *pixels, size_t bytes_per_row,
                                        size_t capacity, int64_t timestamp);

/// Flushes the encoder, writes the container's trailer and closes the file. Once; later calls return the
/// first call's status.
blz_video_status blz_video_writer_finish(blz_video_writer *writer);

const char *blz_video_writer_message(const blz_video_writer *writer);
int blz_video_writer_errno(const blz_video_writer *writer);

/// Finishes the file if `finish` was not called, then releases everything. Accepts NULL.
void blz_video_writer_destroy(blz_video_writer *writer);

#ifdef __cplusplus
}
#endif

#endif // BLAZE_VIDEO_CODECS_H
