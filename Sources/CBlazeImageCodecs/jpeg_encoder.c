// JPEG encoding with libjpeg(-turbo) into memory, behind a longjmp error manager. Used to write test pictures
// (the shrink-on-load measurements encode upscaled samples at a chosen quality); nothing reads user data here.
#include "BlazeImageCodecs.h"

#include <setjmp.h>
#include <stdint.h>
#include <stdio.h> // jpeglib.h needs FILE and size_t first.
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h> // After jpeglib.h: its message list depends on jconfig.h.

typedef struct blz_jpeg_writer {
    struct jpeg_error_mgr error;
    jmp_buf jump;
    blz_status failure;
    char message[JMSG_LENGTH_MAX];
    /// jpeg_mem_dest's buffer (malloc'ed by libjpeg) and size; in the writer, not in locals of the setjmp frame.
    unsigned char *buffer;
    unsigned long size;
} blz_jpeg_writer;

static void on_write_error_exit(j_common_ptr cinfo) {
    blz_jpeg_writer *writer = (blz_jpeg_writer *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, writer->message);
    writer->failure = cinfo->err->msg_code == JERR_OUT_OF_MEMORY ? BLZ_STATUS_OUT_OF_MEMORY
                                                                  : BLZ_STATUS_INVALID_ARGUMENT;
    longjmp(writer->jump, 1);
}

static void on_write_output_message(j_common_ptr cinfo) {
    (void)cinfo; // A library does not print.
}

/// The libjpeg part, separate so that the setjmp frame holds no locals that change after it.
static void encode(struct jpeg_compress_struct *cinfo, const uint8_t *pixels, uint32_t width, uint32_t height,
                   uint32_t channels, size_t bytes_per_row, int quality, const uint8_t *exif, size_t exif_size,
                   unsigned char **output, unsigned long *output_size) {
    jpeg_mem_dest(cinfo, output, output_size);
    cinfo->image_width = width;
    cinfo->image_height = height;
    cinfo->input_components = (int)channels;
    cinfo->in_color_space = channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(cinfo); // YCbCr 4:2:0 for RGB, Huffman tables optimized off, baseline.
    jpeg_set_quality(cinfo, quality, TRUE);
    jpeg_start_compress(cinfo, TRUE);
    if (exif != NULL && exif_size > 0) {
        // APP1: "Exif\0\0" then the TIFF-structured payload, at most 65533 bytes in all.
        static const JOCTET prefix[6] = {'E', 'x', 'i', 'f', 0, 0};
        jpeg_write_m_header(cinfo, JPEG_APP0 + 1, (unsigned)(sizeof prefix + exif_size));
        for (size_t i = 0; i < sizeof prefix; i++) jpeg_write_m_byte(cinfo, prefix[i]);
        for (size_t i = 0; i < exif_size; i++) jpeg_write_m_byte(cinfo, exif[i]);
    }
    while (cinfo->next_scanline < cinfo->image_height) {
        JSAMPROW row = (JSAMPROW)(uintptr_t)(pixels + (size_t)cinfo->next_scanline * bytes_per_row);
        jpeg_write_scanlines(cinfo, &row, 1);
    }
    jpeg_finish_compress(cinfo);
}

blz_status blz_jpeg_encode(const uint8_t *pixels, uint32_t width, uint32_t height, uint32_t channels,
                           size_t bytes_per_row, int quality, const uint8_t *exif, size_t exif_size,
                           uint8_t **output, size_t *output_size, char *message, size_t message_capacity) {
    if (message != NULL && message_capacity > 0) message[0] = 0;
    if (output == NULL || output_size == NULL) return BLZ_STATUS_INVALID_ARGUMENT;
    *output = NULL;
    *output_size = 0;
    const char *problem = NULL;
    if (pixels == NULL || width == 0 || height == 0) problem = "an empty image";
    else if (channels != 1 && channels != 3) problem = "JPEG writing takes 1 (gray) or 3 (RGB) channels";
    else if (width > JPEG_MAX_DIMENSION || height > JPEG_MAX_DIMENSION) problem = "a side exceeds JPEG's 65500 pixels";
    else if (bytes_per_row < (size_t)width * channels) problem = "bytes_per_row is less than width * channels";
    else if (quality < 1 || quality > 100) problem = "the quality is not in 1...100";
    else if (exif_size > 65533 - 6) problem = "the EXIF payload exceeds one APP1 segment";
    if (problem != NULL) {
        if (message != NULL && message_capacity > 0) snprintf(message, message_capacity, "%s", problem);
        return BLZ_STATUS_INVALID_ARGUMENT;
    }

    struct jpeg_compress_struct cinfo;
    blz_jpeg_writer writer;
    memset(&writer, 0, sizeof writer);
    cinfo.err = jpeg_std_error(&writer.error);
    writer.error.error_exit = on_write_error_exit;
    writer.error.output_message = on_write_output_message;
    if (setjmp(writer.jump)) {
        jpeg_destroy_compress(&cinfo);
        free(writer.buffer);
        if (message != NULL && message_capacity > 0) snprintf(message, message_capacity, "%s", writer.message);
        return writer.failure;
    }
    jpeg_create_compress(&cinfo);
    encode(&cinfo, pixels, width, height, channels, bytes_per_row, quality, exif, exif_size, &writer.buffer, &writer.size);
    jpeg_destroy_compress(&cinfo);
    *output = writer.buffer;
    *output_size = (size_t)writer.size;
    return BLZ_STATUS_OK;
}
