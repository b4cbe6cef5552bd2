// Decodes HEIF files with CBlazeImageCodecs (with libheif before 1.19: the HEVC plugin and its conversion) and with
// libheif alone (its own codecs and conversion, in a context without the plugin), both to 8-bit RGB without colour
// management, and counts the samples that differ. Exits 1 on any difference. Built and run by check.sh.
#include <libheif/heif.h>
#include <stdio.h>
#include <stdlib.h>

#include "BlazeImageCodecs.h"

static uint8_t *read_file(const char *path, size_t *size) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    fseek(file, 0, SEEK_END);
    *size = (size_t)ftell(file);
    fseek(file, 0, SEEK_SET);
    uint8_t *data = malloc(*size);
    if (data && fread(data, 1, *size, file) != *size) {
        free(data);
        data = NULL;
    }
    fclose(file);
    return data;
}

int main(int argc, char **argv) {
    long total = 0;
    for (int i = 1; i < argc; i++) {
        size_t size = 0;
        uint8_t *data = read_file(argv[i], &size);
        if (!data) return 2;
        blz_decoder *decoder = blz_decoder_create(BLZ_CODEC_HEIF, data, size);
        blz_decoder_set_color_conversion(decoder, 0);
        blz_header header;
        if (blz_decoder_read_header(decoder, &header) != BLZ_STATUS_OK || header.channels != 3) {
            printf("%s: skipped (%s)\n", argv[i], header.channels == 4 ? "alpha" : blz_decoder_message(decoder));
            blz_decoder_destroy(decoder);
            free(data);
            continue;
        }
        const size_t row = (size_t)header.width * 3;
        uint8_t *ours = malloc(row * header.height);
        if (blz_decoder_read_pixels(decoder, ours, row * header.height) != BLZ_STATUS_OK) {
            printf("%s: %s\n", argv[i], blz_decoder_message(decoder));
            return 2;
        }
        blz_decoder_destroy(decoder);

        struct heif_context *context = heif_context_alloc();
        struct heif_image_handle *handle = NULL;
        struct heif_image *image = NULL;
        if (heif_context_read_from_memory_without_copy(context, data, size, NULL).code
            || heif_context_get_primary_image_handle(context, &handle).code
            || heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, NULL).code) {
            printf("%s: libheif cannot decode it\n", argv[i]);
            return 2;
        }
        int stride = 0;
        const uint8_t *plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride);
        long differing = 0;
        for (uint32_t y = 0; y < header.height; y++) {
            for (size_t x = 0; x < row; x++) differing += ours[y * row + x] != plane[(size_t)y * (size_t)stride + x];
        }
        printf("%s: %u x %u, %ld of %zu samples differ\n", argv[i], header.width, header.height, differing,
               row * header.height);
        total += differing;
        heif_image_release(image);
        heif_image_handle_release(handle);
        heif_context_free(context);
        free(ours);
        free(data);
    }
    printf("%s: %ld differing samples in all\n", total ? "FAIL" : "ok", total);
    return total != 0;
}
