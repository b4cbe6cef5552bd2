// 8-bit YCbCr to RGB planes for the HEVC plugin (heif_plugins.h), with libheif 1.15's arithmetic.
//
// Why here: libheif 1.15 converts a decoded picture's YCbCr planes to RGB planes with a scalar floating-point loop,
// then to the interleaved layout asked for; on a 12 MP HEIC that is about a fifth of the decode. Handed RGB planes
// by the plugin, it converts nothing (its decode_image_planar keeps an RGB 4:4:4 picture as it is), and
// heif_decoder.c interleaves them while copying them out.
//
// The rule is libheif 1.15's (nclx.cc, heif_colorconversion.cc: Op_YCbCr_to_RGB), the same operations on the same
// single-precision values in the same order, so the output is libheif's to the bit:
// - Kr and Kb from the matrix coefficients (H.273: 1 BT.709; 4 FCC; 5 and 6 BT.601; 7 SMPTE 240M; 9 and 10 BT.2020);
//   for any other code libheif's default coefficients (1.402, -0.344136, -0.714136, 1.772), except 0, 8, 12 and 13,
//   which it converts by other rules and this file leaves to it;
// - limited range: luma (Y - 16) x 1.1689 and chroma x 1.1429 (libheif's constants, not 255/219 and 255/224);
// - the chroma sample at (x >> shift, y >> shift), not interpolated;
// - R = Y' + r_cr Cr', G = (Y' + g_cb Cb') + g_cr Cr', B = Y' + b_cb Cb', each + 0.5 truncated and clamped to 0-255.
// Products are never fused into multiply-adds (libheif's x86-64 build has no FMA), so the result does not depend on
// the instruction set. The chroma terms are computed once per chroma row; the per-pixel loop is left to the
// compiler to vectorize (SSE2, and AVX2 where the CPU has it).
#include "heif_plugins.h"

#ifdef BLZ_HEIF_PLUGINS

#include <stdlib.h>

#pragma STDC FP_CONTRACT OFF
#ifdef __clang__
#pragma clang fp contract(off)
#endif

// An AVX2 copy of the two loops beside the baseline one, chosen at load time (ifunc) where the CPU has AVX2: 8 pixels
// per instruction instead of 4, the same operations, so the same result.
#if defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define BLZ_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define BLZ_VECTOR_CLONES
#endif

typedef struct ycbcr_coefficients {
    float r_cr, g_cb, g_cr, b_cb;
} ycbcr_coefficients;

/// libheif's coefficients for the matrix, or 0 for those it converts by other rules.
static int coefficients(uint16_t matrix, ycbcr_coefficients *out) {
    float kr, kb;
    switch (matrix) {
    case 0:   // identity (GBR)
    case 8:   // YCgCo
    case 12:  // chromaticity-derived, from the primaries
    case 13: return 0;
    case 1: kr = 0.2126f; kb = 0.0722f; break;
    case 4: kr = 0.30f; kb = 0.11f; break;
    case 5:
    case 6: kr = 0.299f; kb = 0.114f; break;
    case 7: kr = 0.212f; kb = 0.087f; break;
    case 9:
    case 10: kr = 0.2627f; kb = 0.0593f; break;
    default:
        *out = (ycbcr_coefficients){1.402f, -0.344136f, -0.714136f, 1.772f};
        return 1;
    }
    out->r_cr = 2 * (-kr + 1);
    out->g_cb = 2 * kb * (-kb + 1) / (kb + kr - 1);
    out->g_cr = 2 * kr * (-kr + 1) / (kb + kr - 1);
    out->b_cb = 2 * (-kb + 1);
    return 1;
}

static inline uint8_t clip(float value) {
    const int32_t x = (int32_t)(value + 0.5f); // |value| < 1,000: no overflow
    return (uint8_t)(x < 0 ? 0 : x > 255 ? 255 : x);
}

/// One chroma row's terms, expanded to one entry per luma column.
typedef struct chroma_terms {
    float *red, *green_cb, *green_cr, *blue;
} chroma_terms;

BLZ_VECTOR_CLONES
static void expand_chroma(const ycbcr_coefficients *k, float chroma_scale, int width, int shift_x,
                          const uint8_t *cb_row, const uint8_t *cr_row, const chroma_terms *terms) {
    for (int x = 0; x < width; x++) {
        const int c = x >> shift_x;
        float cb = (float)(cb_row[c] - 128), cr = (float)(cr_row[c] - 128);
        if (chroma_scale != 1.0f) {
            cb = cb * chroma_scale;
            cr = cr * chroma_scale;
        }
        terms->red[x] = k->r_cr * cr;
        terms->green_cb[x] = k->g_cb * cb;
        terms->green_cr[x] = k->g_cr * cr;
        terms->blue[x] = k->b_cb * cb;
    }
}

BLZ_VECTOR_CLONES
static void convert_row(int width, int full_range, const uint8_t *restrict luma, const chroma_terms *terms,
                        uint8_t *restrict red, uint8_t *restrict green, uint8_t *restrict blue) {
    const float *restrict r_term = terms->red, *restrict g_cb = terms->green_cb, *restrict g_cr = terms->green_cr;
    const float *restrict b_term = terms->blue;
    if (full_range) {
        for (int x = 0; x < width; x++) {
            const float y = (float)luma[x];
            red[x] = clip(y + r_term[x]);
            green[x] = clip(y + g_cb[x] + g_cr[x]);
            blue[x] = clip(y + b_term[x]);
        }
    } else {
        for (int x = 0; x < width; x++) {
            const float y = ((float)luma[x] - 16.0f) * 1.1689f;
            red[x] = clip(y + r_term[x]);
            green[x] = clip(y + g_cb[x] + g_cr[x]);
            blue[x] = clip(y + b_term[x]);
        }
    }
}

int blz_ycbcr_to_rgb(uint16_t matrix_coefficients, int full_range, int width, int height, int chroma_shift_x,
                     int chroma_shift_y, const uint8_t *const planes[3], const int strides[3], uint8_t *const rgb[3],
                     const int rgb_strides[3]) {
    ycbcr_coefficients k;
    if (!coefficients(matrix_coefficients, &k) || width <= 0 || height <= 0) return 0;
    float *buffer = malloc(sizeof(float) * 4 * (size_t)width);
    if (buffer == NULL) return 0;
    const chroma_terms terms = {buffer, buffer + width, buffer + 2 * (size_t)width, buffer + 3 * (size_t)width};
    const float chroma_scale = full_range ? 1.0f : 1.1429f;
    int expanded_row = -1;
    for (int y = 0; y < height; y++) {
        const int cy = y >> chroma_shift_y;
        if (cy != expanded_row) {
            expand_chroma(&k, chroma_scale, width, chroma_shift_x, planes[1] + (size_t)cy * (size_t)strides[1],
                          planes[2] + (size_t)cy * (size_t)strides[2], &terms);
            expanded_row = cy;
        }
        convert_row(width, full_range, planes[0] + (size_t)y * (size_t)strides[0], &terms,
                    rgb[0] + (size_t)y * (size_t)rgb_strides[0], rgb[1] + (size_t)y * (size_t)rgb_strides[1],
                    rgb[2] + (size_t)y * (size_t)rgb_strides[2]);
    }
    free(buffer);
    return 1;
}

#endif // BLZ_HEIF_PLUGINS
