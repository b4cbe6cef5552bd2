// blz_video_reader_convert: a decoded frame into the caller's pixels, through libswscale or as copied planes.
#include "video_reader_internal.h"

#include <libavutil/pixdesc.h>
#include <string.h>

/// libswscale's coefficients for the frame's matrix (its default, BT.601, for the rest).
static int colorspace_of(const AVFrame *frame) {
    switch (frame->colorspace) {
    case AVCOL_SPC_BT709: return SWS_CS_ITU709;
    case AVCOL_SPC_FCC: return SWS_CS_FCC;
    case AVCOL_SPC_SMPTE240M: return SWS_CS_SMPTE240M;
    case AVCOL_SPC_BT2020_NCL: case AVCOL_SPC_BT2020_CL: return SWS_CS_BT2020;
    default: return SWS_CS_DEFAULT;
    }
}

/// `reader->converted` of at least `needed` bytes (kept from frame to frame).
static blz_video_status reserve_converted(blz_video_reader *reader, size_t needed) {
    if (needed <= reader->converted_size) return BLZ_VIDEO_OK;
    av_freep(&reader->converted);
    reader->converted_size = 0;
    reader->converted = av_malloc(needed);
    if (reader->converted == NULL) return blzv_fail(reader, BLZ_VIDEO_OUT_OF_MEMORY, 0, "cannot allocate the frame");
    reader->converted_size = needed;
    return BLZ_VIDEO_OK;
}

/// A scaler from the frame's format to `target` at the same size, with the frame's matrix and range on both
/// sides when `target` is YUV (`keep_yuv`), else to full-range RGB.
static blz_video_status prepare_scaler(blz_video_reader *reader, enum AVPixelFormat target, int keep_yuv) {
    const AVFrame *frame = reader->frame;
    reader->scaler = sws_getCachedContext(reader->scaler, frame->width, frame->height, frame->format,
                                          frame->width, frame->height, target, SWS_BILINEAR, NULL, NULL, NULL);
    if (reader->scaler == NULL) {
        const char *name = av_get_pix_fmt_name(frame->format);
        snprintf(reader->message, sizeof reader->message, "no conversion from the pixel format %s",
                 name != NULL ? name : "?");
        return BLZ_VIDEO_UNSUPPORTED_CODEC;
    }
    int full_range = blzv_is_full_range(frame);
    const int *coefficients = sws_getCoefficients(colorspace_of(frame));
    sws_setColorspaceDetails(reader->scaler, coefficients, full_range,
                             keep_yuv ? coefficients : sws_getCoefficients(SWS_CS_DEFAULT), keep_yuv ? full_range : 1,
                             0, 1 << 16, 1 << 16);
    return BLZ_VIDEO_OK;
}

/// Copies `rows` rows of `length` bytes from `source` (rows `source_stride` apart; FFmpeg's strides may be
/// negative) to `target` (rows `target_stride` apart).
static void copy_rows(uint8_t *target, size_t target_stride, const uint8_t *source, ptrdiff_t source_stride,
                      size_t rows, size_t length) {
    for (size_t y = 0; y < rows; y++) memcpy(target + y * target_stride, source + (ptrdiff_t)y * source_stride, length);
}

/// BLZ_VIDEO_PIXELS_I420: the decoder's planes when the frame is yuv420p or yuvj420p, else libswscale's
/// conversion into the reader's padded buffer; then copied into `pixels`.
static blz_video_status convert_i420(blz_video_reader *reader, uint8_t *pixels, size_t bytes_per_row,
                                     size_t capacity) {
    const AVFrame *frame = reader->frame;
    size_t width = (size_t)frame->width, height = (size_t)frame->height;
    size_t chroma_width = (width + 1) / 2, chroma_height = (height + 1) / 2, chroma_stride = (bytes_per_row + 1) / 2;
    if (bytes_per_row < width || bytes_per_row > INT32_MAX
        || capacity < bytes_per_row * height + chroma_stride * chroma_height + chroma_stride * (chroma_height - 1)
                      + chroma_width) {
        return blzv_fail(reader, BLZ_VIDEO_INVALID_ARGUMENT, 0, "the pixel buffer is too small for the frame");
    }
    const uint8_t *planes[3] = {frame->data[0], frame->data[1], frame->data[2]};
    ptrdiff_t strides[3] = {frame->linesize[0], frame->linesize[1], frame->linesize[2]};
    if (frame->format != AV_PIX_FMT_YUV420P && frame->format != AV_PIX_FMT_YUVJ420P) {
        blz_video_status status = prepare_scaler(reader, AV_PIX_FMT_YUV420P, 1);
        if (status != BLZ_VIDEO_OK) return status;
        // Each plane 64-byte aligned, with a spare row and padding: libswscale's SIMD may write past a row.
        size_t luma = (width + 63) & ~(size_t)63, chroma = (chroma_width + 63) & ~(size_t)63;
        size_t luma_bytes = luma * (height + 1) + 64, chroma_bytes = chroma * (chroma_height + 1) + 64;
        status = reserve_converted(reader, luma_bytes + 2 * chroma_bytes);
        if (status != BLZ_VIDEO_OK) return status;
        uint8_t *out[4] = {reader->converted, reader->converted + luma_bytes, reader->converted + luma_bytes + chroma_bytes,
                           NULL};
        int out_strides[4] = {(int)luma, (int)chroma, (int)chroma, 0};
        int rows = sws_scale(reader->scaler, (const uint8_t *const *)frame->data, frame->linesize, 0, frame->height,
                             out, out_strides);
        if (rows != frame->height) return blzv_fail(reader, BLZ_VIDEO_CORRUPT, rows < 0 ? rows : 0, "cannot convert the frame");
        for (int i = 0; i < 3; i++) { planes[i] = out[i]; strides[i] = out_strides[i]; }
    }
    uint8_t *cb = pixels + bytes_per_row * height, *cr = cb + chroma_stride * chroma_height;
    copy_rows(pixels, bytes_per_row, planes[0], strides[0], height, width);
    copy_rows(cb, chroma_stride, planes[1], strides[1], chroma_height, chroma_width);
    copy_rows(cr, chroma_stride, planes[2], strides[2], chroma_height, chroma_width);
    return BLZ_VIDEO_OK;
}

blz_video_status blz_video_reader_convert(blz_video_reader *reader, blz_video_pixels format, uint8_t *pixels,
                                          size_t bytes_per_row, size_t capacity) {
    if (reader == NULL || pixels == NULL || !reader->has_frame) return BLZ_VIDEO_INVALID_ARGUMENT;
    if (format == BLZ_VIDEO_PIXELS_I420) return convert_i420(reader, pixels, bytes_per_row, capacity);
    enum AVPixelFormat target;
    size_t bytes_per_pixel = 4;
    switch (format) {
    case BLZ_VIDEO_PIXELS_RGB24: target = AV_PIX_FMT_RGB24; bytes_per_pixel = 3; break;
    case BLZ_VIDEO_PIXELS_RGBA: target = AV_PIX_FMT_RGBA; break;
    case BLZ_VIDEO_PIXELS_BGRA: target = AV_PIX_FMT_BGRA; break;
    default: return BLZ_VIDEO_INVALID_ARGUMENT;
    }
    const AVFrame *frame = reader->frame;
    size_t width = (size_t)frame->width, height = (size_t)frame->height;
    if (bytes_per_row < width * bytes_per_pixel || bytes_per_row > INT32_MAX
        || capacity < bytes_per_row * (height - 1) + width * bytes_per_pixel) {
        return blzv_fail(reader, BLZ_VIDEO_INVALID_ARGUMENT, 0, "the pixel buffer is too small for the frame");
    }
    blz_video_status status = prepare_scaler(reader, target, 0);
    if (status != BLZ_VIDEO_OK) return status;
    size_t row = width * bytes_per_pixel, stride = (row + 63) & ~(size_t)63;
    status = reserve_converted(reader, stride * (height + 1) + 64);
    if (status != BLZ_VIDEO_OK) return status;
    uint8_t *planes[4] = {reader->converted, NULL, NULL, NULL};
    int strides[4] = {(int)stride, 0, 0, 0};
    int rows = sws_scale(reader->scaler, (const uint8_t *const *)frame->data, frame->linesize, 0, frame->height,
                         planes, strides);
    if (rows != frame->height) return blzv_fail(reader, BLZ_VIDEO_CORRUPT, rows < 0 ? rows : 0, "cannot convert the frame");
    copy_rows(pixels, bytes_per_row, reader->converted, (ptrdiff_t)stride, height, row);
    return BLZ_VIDEO_OK;
}
