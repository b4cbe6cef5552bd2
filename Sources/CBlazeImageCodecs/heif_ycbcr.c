// 8-bit YCbCr to RGB planes for the HEVC plugin (heif_plugins.h), with the rule libheif 1.15 applies to them.
//
// Why here: libheif 1.15 converts a decoded picture's YCbCr planes to RGB planes with a floating-point loop, then
// to the interleaved layout asked for; on a 12 MP HEIC that is about a fifth of the decode. Handed RGB planes by
// the plugin, it converts nothing (its decode_image_planar keeps an RGB 4:4:4 picture as it is), and
// heif_decoder.c interleaves them while copying them out.
//
// The rule, libheif 1.15's (nclx.cc, heif_colorconversion.cc): Kr and Kb from the matrix coefficients (H.273: 1
// BT.709; 4 FCC; 5 and 6 BT.601; 7 SMPTE 240M; 9 and 10 BT.2020; any other code BT.601's defaults, except 0, 8, 12
// and 13, which it treats apart and this file leaves to it); limited range expanded by 255/219 (luma, after 16)
// and 255/224 (chroma); the chroma sample at (x >> shift, y >> shift), not interpolated; rounded to nearest and
// clamped. Here in 16.16 fixed point through 256-entry tables: the results are libheif's to within one level
// where its single-precision sums fall on a rounding boundary.
#include "heif_plugins.h"

#ifdef BLZ_HEIF_PLUGINS

#include <math.h>

/// Kr and Kb for the matrix coefficients, or 0 for those libheif converts by other rules.
static int luma_weights(uint16_t matrix, double *kr, double *kb) {
    switch (matrix) {
    case 0:   // identity (GBR)
    case 8:   // YCgCo
    case 12:  // chromaticity-derived, from the primaries
    case 13: return 0;
    case 1: *kr = 0.2126; *kb = 0.0722; return 1;
    case 4: *kr = 0.30; *kb = 0.11; return 1;
    case 7: *kr = 0.212; *kb = 0.087; return 1;
    case 9:
    case 10: *kr = 0.2627; *kb = 0.0593; return 1;
    default: *kr = 0.299; *kb = 0.114; return 1;  // 5, 6, and libheif's defaults for the rest
    }
}

static inline uint8_t clamp_fixed(int32_t value) {
    value >>= 16;
    return (uint8_t)(value < 0 ? 0 : value > 255 ? 255 : value);
}

int blz_ycbcr_to_rgb(uint16_t matrix_coefficients, int full_range, int width, int height, int chroma_shift_x,
                     int chroma_shift_y, const uint8_t *const planes[3], const int strides[3], uint8_t *const rgb[3],
                     const int rgb_strides[3]) {
    double kr = 0, kb = 0;
    if (!luma_weights(matrix_coefficients, &kr, &kb)) return 0;
    const double r_cr = 2 * (1 - kr), b_cb = 2 * (1 - kb);
    const double g_cb = 2 * kb * (1 - kb) / (kb + kr - 1), g_cr = 2 * kr * (1 - kr) / (kb + kr - 1);
    const double luma_scale = full_range ? 1.0 : 255.0 / 219.0, chroma_scale = full_range ? 1.0 : 255.0 / 224.0;
    const double luma_offset = full_range ? 0.0 : 16.0;
    // Each table holds its term in 16.16; the luma table carries the rounding half.
    int32_t luma[256], red_cr[256], green_cb[256], green_cr[256], blue_cb[256];
    for (int value = 0; value < 256; value++) {
        const double chroma = (value - 128) * chroma_scale;
        luma[value] = (int32_t)lround(((value - luma_offset) * luma_scale + 0.5) * 65536.0);
        red_cr[value] = (int32_t)lround(r_cr * chroma * 65536.0);
        green_cb[value] = (int32_t)lround(g_cb * chroma * 65536.0);
        green_cr[value] = (int32_t)lround(g_cr * chroma * 65536.0);
        blue_cb[value] = (int32_t)lround(b_cb * chroma * 65536.0);
    }
    uint8_t *const red = rgb[0], *const green = rgb[1], *const blue = rgb[2];
    for (int y = 0; y < height; y++) {
        const uint8_t *luma_row = planes[0] + (size_t)y * (size_t)strides[0];
        const uint8_t *cb_row = planes[1] + (size_t)(y >> chroma_shift_y) * (size_t)strides[1];
        const uint8_t *cr_row = planes[2] + (size_t)(y >> chroma_shift_y) * (size_t)strides[2];
        uint8_t *red_row = red + (size_t)y * (size_t)rgb_strides[0];
        uint8_t *green_row = green + (size_t)y * (size_t)rgb_strides[1];
        uint8_t *blue_row = blue + (size_t)y * (size_t)rgb_strides[2];
        for (int x = 0; x < width; x++) {
            const int c = x >> chroma_shift_x;
            const int32_t base = luma[luma_row[x]];
            red_row[x] = clamp_fixed(base + red_cr[cr_row[c]]);
            green_row[x] = clamp_fixed(base + green_cb[cb_row[c]] + green_cr[cr_row[c]]);
            blue_row[x] = clamp_fixed(base + blue_cb[cb_row[c]]);
        }
    }
    return 1;
}

#endif // BLZ_HEIF_PLUGINS
