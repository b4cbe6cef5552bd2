// PNG encoding with libpng into a growing memory buffer, behind a longjmp error handler.
#include "BlazeImageCodecs.h"

#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

typedef struct blz_png_writer {
    jmp_buf jump;
    blz_status failure;
    char message[256];
    uint8_t *buffer;
    size_t size;
    size_t capacity;
} blz_png_writer;

static _Noreturn void writer_fail(blz_png_writer *writer, blz_status status, const char *text) {
    writer->failure = status;
    snprintf(writer->message, sizeof writer->message, "%s", text);
    longjmp(writer->jump, 1);
}

static void on_write_error(png_structp png, png_const_charp text) {
    blz_png_writer *writer = (blz_png_writer *)png_get_error_ptr(png);
    int memory = strcmp(text, "Out of memory") == 0 || strstr(text, "out of memory") != NULL;
    writer_fail(writer, memory ? BLZ_STATUS_OUT_OF_MEMORY : BLZ_STATUS_INVALID_ARGUMENT, text);
}

static void on_write_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void write_data(png_structp png, png_bytep data, size_t length) {
    blz_png_writer *writer = (blz_png_writer *)png_get_io_ptr(png);
    if (length > writer->capacity - writer->size) {
        size_t capacity = writer->capacity < 4096 ? 4096 : writer->capacity;
        while (length > capacity - writer->size) {
            if (capacity > SIZE_MAX / 2) writer_fail(writer, BLZ_STATUS_OUT_OF_MEMORY, "PNG output too large");
            capacity *= 2;
        }
        uint8_t *grown = realloc(writer->buffer, capacity);
        if (grown == NULL) writer_fail(writer, BLZ_STATUS_OUT_OF_MEMORY, "out of memory for the PNG output");
        writer->buffer = grown;
        writer->capacity = capacity;
    }
    memcpy(writer->buffer + writer->size, data, length);
    writer->size += length;
}

static void flush_data(png_structp png) {
    (void)png;
}

/// The libpng part, separate so that the setjmp frame holds no locals that change after it.
static void encode(blz_png_writer *writer, png_structp png, png_infop info, const uint8_t *pixels,
                   uint32_t width, uint32_t height, int color_type, size_t bytes_per_row,
                   const uint8_t *exif, size_t exif_size) {
    png_set_write_fn(png, writer, write_data, flush_data);
    png_set_IHDR(png, info, width, height, 8, color_type, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    if (exif != NULL && exif_size > 0) {
#ifdef PNG_eXIf_SUPPORTED
        // libpng copies the payload; its API takes a non-const pointer.
        png_set_eXIf_1(png, info, (png_uint_32)exif_size, (png_bytep)(uintptr_t)exif);
#else
        writer_fail(writer, BLZ_STATUS_UNSUPPORTED, "this libpng cannot write eXIf chunks");
#endif
    }
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; y++) png_write_row(png, pixels + (size_t)y * bytes_per_row);
    png_write_end(png, info);
}

blz_status blz_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, uint32_t channels,
                          size_t bytes_per_row, const uint8_t *exif, size_t exif_size,
                          uint8_t **output, size_t *output_size, char *message, size_t message_capacity) {
    int color_type;
    switch (channels) {
    case 1: color_type = PNG_COLOR_TYPE_GRAY; break;
    case 3: color_type = PNG_COLOR_TYPE_RGB; break;
    case 4: color_type = PNG_COLOR_TYPE_RGB_ALPHA; break;
    default: color_type = -1;
    }
    const char *invalid = NULL;
    if (pixels == NULL || output == NULL || output_size == NULL) invalid = "NULL argument";
    else if (color_type < 0) invalid = "channels must be 1, 3 or 4";
    else if (width == 0 || height == 0) invalid = "the image is empty";
    else if (width > PNG_UINT_31_MAX || height > PNG_UINT_31_MAX) invalid = "PNG dimensions are at most 2^31 - 1";
    else if (bytes_per_row / channels < width) invalid = "bytes_per_row is less than width * channels";
    else if (exif_size > PNG_UINT_31_MAX) invalid = "the EXIF payload is too large for a PNG chunk";
    if (invalid != NULL) {
        if (message != NULL && message_capacity > 0) snprintf(message, message_capacity, "%s", invalid);
        return BLZ_STATUS_INVALID_ARGUMENT;
    }

    blz_png_writer *writer = calloc(1, sizeof(blz_png_writer));
    if (writer == NULL) {
        if (message != NULL && message_capacity > 0) snprintf(message, message_capacity, "out of memory");
        return BLZ_STATUS_OUT_OF_MEMORY;
    }
    png_structp png = NULL;
    png_infop info = NULL;
    blz_status status = BLZ_STATUS_OK;
    png = png_create_write_struct(PNG_LIBPNG_VER_STRING, writer, on_write_error, on_write_warning);
    if (png != NULL) info = png_create_info_struct(png);
    if (png == NULL || info == NULL) {
        writer->failure = BLZ_STATUS_OUT_OF_MEMORY;
        snprintf(writer->message, sizeof writer->message, "cannot create libpng's write structures");
        status = BLZ_STATUS_OUT_OF_MEMORY;
    } else if (setjmp(writer->jump) == 0) {
        encode(writer, png, info, pixels, width, height, color_type, bytes_per_row, exif, exif_size);
    } else {
        status = writer->failure;
    }
    if (png != NULL) png_destroy_write_struct(&png, info != NULL ? &info : NULL);

    if (status == BLZ_STATUS_OK) {
        *output = writer->buffer;
        *output_size = writer->size;
    } else {
        free(writer->buffer);
        if (message != NULL && message_capacity > 0) snprintf(message, message_capacity, "%s", writer->message);
    }
    free(writer);
    return status;
}
