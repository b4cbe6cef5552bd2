// Every (Y, Cb, Cr) triple through the HEVC plugin's conversion (blz_ycbcr_to_rgb, heif_ycbcr.c) against a
// transcription of libheif 1.15's per-pixel loop (heif_colorconversion.cc, Op_YCbCr_to_RGB; nclx.cc), for each
// matrix code it handles and both ranges; then random 4:2:0 and 4:2:2 pictures of odd sizes. Exits 1 on any
// difference. Built and run by check.sh.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "heif_plugins.h"

#pragma STDC FP_CONTRACT OFF

typedef struct { float r_cr, g_cb, g_cr, b_cb; } coefficients;

// libheif 1.15: Kr and Kb per matrix (0 and 0 for codes it has none for), then its defaults when both are 0.
static coefficients libheif_coefficients(int matrix) {
    float kr = 0, kb = 0;
    switch (matrix) {
    case 1: kr = 0.2126f; kb = 0.0722f; break;
    case 4: kr = 0.30f; kb = 0.11f; break;
    case 5: case 6: kr = 0.299f; kb = 0.114f; break;
    case 7: kr = 0.212f; kb = 0.087f; break;
    case 9: case 10: kr = 0.2627f; kb = 0.0593f; break;
    default: break;
    }
    if (kb == 0 && kr == 0) return (coefficients){1.402f, -0.344136f, -0.714136f, 1.772f};
    return (coefficients){2 * (-kr + 1), 2 * kb * (-kb + 1) / (kb + kr - 1), 2 * kr * (-kr + 1) / (kb + kr - 1),
                          2 * (-kb + 1)};
}

static uint8_t libheif_clip(float value) {
    const long x = (long)(value + 0.5f);
    return (uint8_t)(x < 0 ? 0 : x > 255 ? 255 : x);
}

static void libheif_pixel(int matrix, int full_range, int luma, int blue, int red, uint8_t out[3]) {
    const coefficients k = libheif_coefficients(matrix);
    float y = (float)luma, cb = (float)(blue - 128), cr = (float)(red - 128);
    if (!full_range) {
        y = (y - 16.0f) * 1.1689f;
        cb = cb * 1.1429f;
        cr = cr * 1.1429f;
    }
    out[0] = libheif_clip(y + k.r_cr * cr);
    out[1] = libheif_clip(y + k.g_cb * cb + k.g_cr * cr);
    out[2] = libheif_clip(y + k.b_cb * cb);
}

static long compare(int matrix, int full_range, int width, int height, int shift_x, int shift_y,
                    const uint8_t *const planes[3], const int strides[3], uint8_t *const rgb[3]) {
    const int rgb_strides[3] = {width, width, width};
    if (!blz_ycbcr_to_rgb((uint16_t)matrix, full_range, width, height, shift_x, shift_y, planes, strides, rgb,
                          rgb_strides)) {
        printf("matrix %d refused\n", matrix);
        return 1;
    }
    long differing = 0;
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
            uint8_t expected[3];
            const size_t chroma = (size_t)(y >> shift_y) * (size_t)strides[1] + (size_t)(x >> shift_x);
            libheif_pixel(matrix, full_range, planes[0][(size_t)y * (size_t)strides[0] + (size_t)x],
                          planes[1][chroma], planes[2][chroma], expected);
            for (int c = 0; c < 3; c++) differing += expected[c] != rgb[c][(size_t)y * (size_t)width + (size_t)x];
        }
    }
    return differing;
}

int main(void) {
    // 4096 x 4096 samples at 4:4:4 hold every triple once.
    const int side = 4096;
    const size_t count = (size_t)side * side;
    uint8_t *in[3], *out[3];
    for (int c = 0; c < 3; c++) {
        in[c] = malloc(count);
        out[c] = malloc(count);
        if (!in[c] || !out[c]) return 2;
    }
    for (size_t i = 0; i < count; i++) {
        in[0][i] = (uint8_t)i;
        in[1][i] = (uint8_t)(i >> 8);
        in[2][i] = (uint8_t)(i >> 16);
    }
    const int matrices[] = {1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 14};
    long total = 0;
    for (size_t m = 0; m < sizeof matrices / sizeof matrices[0]; m++) {
        for (int full = 0; full < 2; full++) {
            const uint8_t *planes[3] = {in[0], in[1], in[2]};
            const int strides[3] = {side, side, side};
            const long differing = compare(matrices[m], full, side, side, 0, 0, planes, strides, out);
            printf("matrix %2d, %s range, every triple: %ld of %zu samples differ\n", matrices[m],
                   full ? "full   " : "limited", differing, 3 * count);
            total += differing;
        }
    }
    srand(7);
    const int sizes[][2] = {{4163, 2881}, {1, 1}, {3, 5}};
    for (int s = 0; s < 3; s++) {
        for (int shift_y = 0; shift_y < 2; shift_y++) {
            const int width = sizes[s][0], height = sizes[s][1], chroma_width = (width + 1) / 2;
            const int chroma_height = shift_y ? (height + 1) / 2 : height;
            for (size_t i = 0; i < (size_t)width * height; i++) in[0][i] = (uint8_t)rand();
            for (size_t i = 0; i < (size_t)chroma_width * chroma_height; i++) {
                in[1][i] = (uint8_t)rand();
                in[2][i] = (uint8_t)rand();
            }
            const uint8_t *planes[3] = {in[0], in[1], in[2]};
            const int strides[3] = {width, chroma_width, chroma_width};
            for (int full = 0; full < 2; full++) {
                const long differing = compare(6, full, width, height, 1, shift_y, planes, strides, out);
                printf("%d x %d, 4:2:%d, %s range, random: %ld differ\n", width, height, shift_y ? 0 : 2,
                       full ? "full" : "limited", differing);
                total += differing;
            }
        }
    }
    printf("%s: %ld differing samples in all\n", total ? "FAIL" : "ok", total);
    return total != 0;
}
