// What a full-resolution decode of one region costs beside the 1/2 decode, against the full decode, with
// libjpeg-turbo (the measurement behind "landmarks and analyze decode in full" in Documentation/Imaging.md).
// Per file, best of 5 runs of each, CPU time; the region is a square of SIDE pixels, centred, or starting a tenth
// of the way down with TOP=1. Build and run:
//
//   cc -O2 -o .build/region_decode Tests/ShrinkOnLoad/region_decode.c -ljpeg
//   .build/region_decode 800 library/jpeg/*.jpg          # the library scan's folder (Benchmarks/make_library.py)
//   TOP=1 .build/region_decode 800 library/jpeg/*.jpg
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <jpeglib.h>

static double cpu_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static unsigned char *pixels;
static size_t capacity;

/// Starts `info` on the JPEG in `data` and reads its header.
static void begin(struct jpeg_decompress_struct *info, struct jpeg_error_mgr *errors, const unsigned char *data,
                  size_t size) {
    info->err = jpeg_std_error(errors);
    jpeg_create_decompress(info);
    jpeg_mem_src(info, data, size);
    jpeg_read_header(info, TRUE);
}

/// Decodes at 1/`denominator`; with `height` > 0 only the rows `top` ..< `top + height` and (about) the columns
/// `left` ..< `left + width`, at full resolution, stopping after the region.
static void decode(const unsigned char *data, size_t size, int denominator, int left, int top, int width,
                   int height) {
    struct jpeg_decompress_struct info;
    struct jpeg_error_mgr errors;
    begin(&info, &errors, data, size);
    info.scale_num = 1;
    info.scale_denom = denominator;
    info.out_color_space = JCS_RGB;
    jpeg_start_decompress(&info);
    JDIMENSION x = 0, columns = info.output_width;
    if (height > 0) {
        x = left;
        columns = width;
        jpeg_crop_scanline(&info, &x, &columns); // widened to whole blocks
        jpeg_skip_scanlines(&info, top);
    }
    const size_t row = (size_t)columns * 3;
    if (row * info.output_height > capacity) {
        capacity = row * info.output_height;
        pixels = realloc(pixels, capacity);
    }
    const JDIMENSION last = height > 0 ? (JDIMENSION)(top + height) : info.output_height;
    while (info.output_scanline < last) {
        JSAMPROW target = pixels + row * info.output_scanline;
        jpeg_read_scanlines(&info, &target, 1);
    }
    if (height > 0) jpeg_abort_decompress(&info); else jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s SIDE FILE.jpg...\n", argv[0]);
        return 2;
    }
    const int side = atoi(argv[1]);
    double full = 0, half = 0, region = 0;
    for (int i = 2; i < argc; i++) {
        FILE *file = fopen(argv[i], "rb");
        if (file == NULL) return 2;
        fseek(file, 0, SEEK_END);
        const size_t size = (size_t)ftell(file);
        fseek(file, 0, SEEK_SET);
        unsigned char *data = malloc(size);
        if (data == NULL || fread(data, 1, size, file) != size) return 2;
        fclose(file);
        struct jpeg_decompress_struct info;
        struct jpeg_error_mgr errors;
        begin(&info, &errors, data, size);
        const int width = (int)info.image_width, height = (int)info.image_height;
        jpeg_destroy_decompress(&info);
        const int top = getenv("TOP") ? height / 10 : (height - side) / 2;
        double best_full = 1e9, best_half = 1e9, best_region = 1e9;
        for (int run = 0; run < 5; run++) {
            const double t0 = cpu_ms();
            decode(data, size, 1, 0, 0, 0, 0);
            const double t1 = cpu_ms();
            decode(data, size, 2, 0, 0, 0, 0);
            const double t2 = cpu_ms();
            decode(data, size, 1, (width - side) / 2, top, side, side);
            const double t3 = cpu_ms();
            if (t1 - t0 < best_full) best_full = t1 - t0;
            if (t2 - t1 < best_half) best_half = t2 - t1;
            if (t3 - t2 < best_region) best_region = t3 - t2;
        }
        full += best_full;
        half += best_half;
        region += best_region;
        free(data);
    }
    const int count = argc - 2;
    printf("%d files, a %d-pixel region %s: full %.1f ms; 1/2 %.1f ms + region %.1f ms = %.1f ms (%.0f %% of full)\n",
           count, side, getenv("TOP") ? "from a tenth down" : "centred", full / count, half / count, region / count,
           (half + region) / count, 100 * (half + region) / full);
    return 0;
}
