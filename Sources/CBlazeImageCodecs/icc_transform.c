// Colour profiles to sRGB with LittleCMS (lcms2), for every codec (see icc_transform.h).
//
// Policy:
// - The intent is perceptual, ICC's default for pictures. The profiles of photographs (sRGB, Display P3, Adobe RGB,
//   ProPhoto: matrix-shaper profiles) carry no perceptual tables, and for them LittleCMS computes the same
//   colorimetric conversion under either intent (colours outside sRGB are clipped); profiles with lookup tables
//   (some cameras and scanners) get the gamut mapping their makers designed for that intent. No black-point
//   compensation. Pillow's ImageCms and LittleCMS's transicc default to the same.
// - A profile that describes sRGB (its colorants and tone curves match sRGB's within half a level) leaves the
//   pixels untouched: cameras embed sRGB profiles, and converting through them would only cost time and move
//   values by a level.
// - A profile LittleCMS cannot read, of another colour model than the pixels (CMYK for a CMYK JPEG, which is
//   made RGB without a profile; gray on RGB), or whose transform cannot be built, is ignored: the pixels stay as
//   decoded, as in browsers, which show such pictures as if untagged. A broken profile never costs a picture.
// - LittleCMS runs in a context of its own per conversion: its allocations draw on a budget (BLZ_ICC_MEMORY_BUDGET,
//   far above what a real profile needs), its error messages are kept, not printed, and nothing global changes.
#include "icc_transform.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lcms2.h>
#include <lcms2_plugin.h>

/// The most a conversion may allocate inside LittleCMS: the profile's tags, the pipeline and the transform's
/// tables. A Display P3 profile needs a few kilobytes and a large printer profile a few megabytes.
#define BLZ_ICC_MEMORY_BUDGET ((size_t)64 << 20)

/// What one conversion's LittleCMS context carries: its allocation budget and its first error message.
typedef struct icc_session {
    size_t allocated;
    char message[160];
} icc_session;

// MARK: Memory, with a budget

/// Every block carries its size in front, so that free and realloc can give it back to the budget.
typedef union block_header {
    size_t size;
    max_align_t alignment;
} block_header;

static void *budget_malloc(cmsContext context, cmsUInt32Number size) {
    icc_session *session = cmsGetContextUserData(context);
    // The context's own structure is allocated before the context knows its user data: not counted.
    if (session != NULL) {
        if (size > BLZ_ICC_MEMORY_BUDGET - session->allocated) return NULL;
        session->allocated += size;
    }
    block_header *block = malloc(sizeof(block_header) + size);
    if (block == NULL) {
        if (session != NULL) session->allocated -= size;
        return NULL;
    }
    block->size = size;
    return block + 1;
}

static void budget_free(cmsContext context, void *pointer) {
    if (pointer == NULL) return;
    block_header *block = (block_header *)pointer - 1;
    icc_session *session = cmsGetContextUserData(context);
    if (session != NULL && session->allocated >= block->size) session->allocated -= block->size;
    free(block);
}

static void *budget_realloc(cmsContext context, void *pointer, cmsUInt32Number size) {
    void *fresh = budget_malloc(context, size);
    if (fresh == NULL || pointer == NULL) return fresh;
    const size_t old_size = ((block_header *)pointer - 1)->size;
    memcpy(fresh, pointer, old_size < size ? old_size : size);
    budget_free(context, pointer);
    return fresh;
}

static cmsPluginMemHandler memory_plugin = {
    {cmsPluginMagicNumber, 2060, cmsPluginMemHandlerSig, NULL},
    budget_malloc, budget_free, budget_realloc, NULL, NULL, NULL,
};

static void on_lcms_error(cmsContext context, cmsUInt32Number code, const char *text) {
    (void)code;
    icc_session *session = cmsGetContextUserData(context);
    if (session != NULL && session->message[0] == '\0') snprintf(session->message, sizeof session->message, "%s", text);
}

// MARK: Profiles

/// sRGB's tone curve, IEC 61966-2-1, as LittleCMS's parametric curve of type 4.
static cmsToneCurve *srgb_curve(cmsContext context) {
    static const cmsFloat64Number parameters[5] = {2.4, 1.0 / 1.055, 0.055 / 1.055, 1.0 / 12.92, 0.04045};
    return cmsBuildParametricToneCurve(context, 4, parameters);
}

/// An RGB profile from primaries and a transfer function (HEIF's nclx colour descriptions).
static cmsHPROFILE profile_from_primaries(cmsContext context, const blz_color_profile *profile) {
    const cmsCIExyY white = {profile->white_x, profile->white_y, 1.0};
    const cmsCIExyYTRIPLE primaries = {
        {profile->red_x, profile->red_y, 1.0}, {profile->green_x, profile->green_y, 1.0},
        {profile->blue_x, profile->blue_y, 1.0}};
    cmsToneCurve *curve = NULL;
    switch (profile->transfer) {
    case BLZ_TRANSFER_SRGB: curve = srgb_curve(context); break;
    case BLZ_TRANSFER_LINEAR: curve = cmsBuildGamma(context, 1.0); break;
    case BLZ_TRANSFER_GAMMA: curve = cmsBuildGamma(context, profile->gamma); break;
    }
    if (curve == NULL) return NULL;
    cmsToneCurve *curves[3] = {curve, curve, curve};
    cmsHPROFILE result = cmsCreateRGBProfileTHR(context, &white, &primaries, curves);
    cmsFreeToneCurve(curve);
    return result;
}

/// Whether an RGB profile describes sRGB: a matrix-shaper whose colorants are LittleCMS's sRGB's within 0.002
/// (XYZ, D50) and whose three tone curves stay within half a level of sRGB's at every 8-bit input.
static int describes_srgb(cmsHPROFILE profile, cmsHPROFILE srgb) {
    if (!cmsIsMatrixShaper(profile)) return 0;
    static const cmsTagSignature colorants[3] = {cmsSigRedColorantTag, cmsSigGreenColorantTag,
                                                  cmsSigBlueColorantTag};
    static const cmsTagSignature curves[3] = {cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag};
    for (int i = 0; i < 3; i++) {
        const cmsCIEXYZ *a = cmsReadTag(profile, colorants[i]), *b = cmsReadTag(srgb, colorants[i]);
        if (a == NULL || b == NULL) return 0;
        if (fabs(a->X - b->X) > 0.002 || fabs(a->Y - b->Y) > 0.002 || fabs(a->Z - b->Z) > 0.002) return 0;
        const cmsToneCurve *curve = cmsReadTag(profile, curves[i]), *reference = cmsReadTag(srgb, curves[i]);
        if (curve == NULL || reference == NULL) return 0;
        for (int level = 0; level < 256; level++) {
            const float x = (float)level / 255.0f;
            if (fabsf(cmsEvalToneCurveFloat(curve, x) - cmsEvalToneCurveFloat(reference, x)) > 0.5f / 255.0f) return 0;
        }
    }
    return 1;
}

// MARK: Conversion

static blz_color_result ignored(char *message, size_t capacity, const icc_session *session, const char *reason) {
    if (message != NULL && capacity > 0) {
        snprintf(message, capacity, "colour profile ignored: %s%s%s", reason, session->message[0] ? ": " : "",
                 session->message);
    }
    return BLZ_COLOR_IGNORED;
}

blz_color_result blz_color_convert_to_srgb(const blz_color_profile *profile, uint8_t *pixels, uint32_t width,
                                           uint32_t height, uint32_t channels, char *message, size_t capacity) {
    if (profile == NULL || pixels == NULL || (profile->icc == NULL && !profile->has_primaries)) return BLZ_COLOR_NONE;
    icc_session session = {0, ""};
    if (channels != 1 && channels != 3 && channels != 4) return ignored(message, capacity, &session, "pixel layout");
    cmsContext context = cmsCreateContext(&memory_plugin, &session);
    if (context == NULL) return ignored(message, capacity, &session, "out of memory");
    cmsSetLogErrorHandlerTHR(context, on_lcms_error);

    blz_color_result result = BLZ_COLOR_IGNORED;
    const char *reason = NULL;
    cmsHPROFILE input = NULL, output = NULL;
    cmsHTRANSFORM transform = NULL;
    cmsToneCurve *gray_curve = NULL;
    if (profile->icc != NULL) {
        // LittleCMS reads sizes as 32-bit; a profile that large is not real (libpng caps iCCP at 8 MB).
        input = profile->icc_size <= 0x7FFFFFFF
            ? cmsOpenProfileFromMemTHR(context, profile->icc, (cmsUInt32Number)profile->icc_size) : NULL;
    } else {
        input = profile_from_primaries(context, profile);
    }
    if (input == NULL) {
        reason = "LittleCMS cannot read it";
        goto done;
    }
    const cmsColorSpaceSignature space = cmsGetColorSpace(input);
    cmsUInt32Number format;
    if (channels == 1) {
        if (space != cmsSigGrayData) {
            reason = "not a gray profile, on gray pixels";
            goto done;
        }
        gray_curve = srgb_curve(context);
        output = gray_curve == NULL ? NULL : cmsCreateGrayProfileTHR(context, cmsD50_xyY(), gray_curve);
        format = TYPE_GRAY_8;
    } else {
        if (space != cmsSigRgbData) {
            reason = "not an RGB profile, on RGB pixels";
            goto done;
        }
        output = cmsCreate_sRGBProfileTHR(context);
        if (output != NULL && describes_srgb(input, output)) {
            result = BLZ_COLOR_ALREADY_SRGB;
            goto done;
        }
        format = channels == 3 ? TYPE_RGB_8 : TYPE_RGBA_8;
    }
    if (output == NULL) {
        reason = "out of memory";
        goto done;
    }
    // Gray: the 256 levels through an unoptimized (exact) transform, then a table. LittleCMS's optimized 8-bit
    // gray transform joins the curves coarsely: a linear gray profile gave 6 for level 1, where sRGB's curve says 13.
    const cmsUInt32Number flags = channels == 4 ? cmsFLAGS_COPY_ALPHA : channels == 1 ? cmsFLAGS_NOOPTIMIZE : 0;
    transform = cmsCreateTransformTHR(context, input, format, output, format, INTENT_PERCEPTUAL, flags);
    if (transform == NULL) {
        reason = "LittleCMS cannot build a transform from it";
        goto done;
    }
    if (channels == 1) {
        uint8_t table[256];
        for (int level = 0; level < 256; level++) table[level] = (uint8_t)level;
        cmsDoTransform(transform, table, table, 256);
        const size_t count = (size_t)width * height;
        for (size_t i = 0; i < count; i++) pixels[i] = table[pixels[i]];
    } else {
        // Row by row, in place (LittleCMS reads each pixel before it writes it; input and output formats are equal).
        const size_t stride = (size_t)width * channels;
        for (uint32_t y = 0; y < height; y++) {
            uint8_t *row = pixels + (size_t)y * stride;
            cmsDoTransform(transform, row, row, width);
        }
    }
    result = BLZ_COLOR_CONVERTED;

done:
    if (transform != NULL) cmsDeleteTransform(transform);
    if (gray_curve != NULL) cmsFreeToneCurve(gray_curve);
    if (output != NULL) cmsCloseProfile(output);
    if (input != NULL) cmsCloseProfile(input);
    if (result == BLZ_COLOR_IGNORED) ignored(message, capacity, &session, reason != NULL ? reason : "unknown");
    cmsDeleteContext(context);
    return result;
}
