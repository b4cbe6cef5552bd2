// Private to CBlazeImageCodecs: the colour profile a codec found in a file, and its conversion to sRGB with
// LittleCMS. Every codec reports its profile in `blz_decoder.color` while reading the header;
// blz_decoder_read_pixels (decoder.c) converts the decoded pixels once, after the codec, in one place.
#ifndef BLAZE_ICC_TRANSFORM_H
#define BLAZE_ICC_TRANSFORM_H

#include "BlazeImageCodecs.h"

/// Transfer functions of a colour description given by code points (HEIF's nclx box, ITU-T H.273) rather than
/// by an ICC profile.
typedef enum blz_transfer {
    /// IEC 61966-2-1 (sRGB); also used for BT.709/BT.601/BT.2020 SDR video curves and "unspecified".
    BLZ_TRANSFER_SRGB = 0,
    /// Linear light.
    BLZ_TRANSFER_LINEAR = 1,
    /// A pure power law of exponent `gamma` (H.273's 4 is 2.2, 5 is 2.8).
    BLZ_TRANSFER_GAMMA = 2,
} blz_transfer;

/// The colour space of a file's samples: an embedded ICC profile, or primaries and a transfer function.
typedef struct blz_color_profile {
    /// An embedded ICC profile (owned by the codec's state; valid until the decoder is destroyed), or NULL.
    const uint8_t *icc;
    size_t icc_size;
    /// Set when the colour space is given by primaries instead of a profile (ignored when `icc` is set): CIE
    /// xy chromaticities of red, green, blue and white, and the transfer function.
    int has_primaries;
    double red_x, red_y, green_x, green_y, blue_x, blue_y, white_x, white_y;
    blz_transfer transfer;
    double gamma;
} blz_color_profile;

/// Converts `height` rows of `width` pixels of `channels` bytes (1 gray, 3 RGB, 4 RGBA with straight alpha, rows
/// tightly packed) from `profile` to sRGB, in place, with LittleCMS at the perceptual intent (alpha copied).
/// Returns what happened; `message` (`capacity` bytes) receives why a profile was ignored. Never fails: a
/// profile that LittleCMS cannot read, or that does not describe the pixels' colour model, leaves the pixels as
/// they are (BLZ_COLOR_IGNORED). LittleCMS runs in a context of its own with a memory budget, so a hostile profile
/// allocates little, and its messages are collected rather than printed.
blz_color_result blz_color_convert_to_srgb(const blz_color_profile *profile, uint8_t *pixels, uint32_t width,
                                           uint32_t height, uint32_t channels, char *message, size_t capacity);

#endif // BLAZE_ICC_TRANSFORM_H
