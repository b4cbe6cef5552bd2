// A libheif decoder plugin for AV1 over dav1d whose frames may not exceed the caller's pixel limit.
//
// Why: libheif 1.15's dav1d plugin sets dav1d's frame_size_limit to 32,768 x 32,768 whatever the AVIF's ispe says:
// a 1 KB AVIF with an ispe of 64x64 and an 8192x8192 frame made it allocate 465 MB, and the frame header can claim
// a gigapixel. dav1d checks its frame_size_limit from the sequence and frame headers, before it allocates the frame:
// this plugin sets it from the calling thread's limit (heif_plugins.h). Otherwise it does what libheif 1.15's dav1d
// plugin does: the item's OBUs in, the planes and the sequence header's colour description out as a heif_image.
// Only with libheif before 1.19, whose own plugin is given the limit later on (BLZ_HEIF_PLUGINS).
#include "heif_plugins.h"

#ifdef BLZ_HEIF_PLUGINS

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dav1d/dav1d.h>
#include <libheif/heif_plugin.h>

typedef struct av1_decoder {
    Dav1dContext *context;
    Dav1dData data;
    uint64_t pixel_limit;
} av1_decoder;

static struct heif_error new_decoder(void **result) {
    av1_decoder *decoder = calloc(1, sizeof(av1_decoder));
    if (decoder == NULL) return blz_heif_plugin_out_of_memory();
    decoder->pixel_limit = blz_heif_plugins_pixel_limit();
    Dav1dSettings settings;
    dav1d_default_settings(&settings);
    // dav1d refuses a larger frame from its headers; its limit is 32 bits (0: none), ours is at most that.
    settings.frame_size_limit = decoder->pixel_limit == 0 ? 32768u * 32768u
        : decoder->pixel_limit > UINT32_MAX                ? UINT32_MAX
                                                           : (unsigned)decoder->pixel_limit;
    settings.all_layers = 0;
    settings.n_threads = 1;  // the calling thread's work; a scan runs pictures in parallel instead
    settings.max_frame_delay = 1;
    // dav1d's default logger prints every parsing error to stderr ("Error parsing OBU data", "Frame size ...
    // exceeds limit"; fuzz-image printed thousands); a library must not print, and the error reaches the caller
    // as a status anyway. No callback: dav1d logs nothing.
    settings.logger.callback = NULL;
    settings.logger.cookie = NULL;
    if (dav1d_open(&decoder->context, &settings) != 0) {
        free(decoder);
        return blz_heif_plugin_error(heif_error_Decoder_plugin_error, heif_suberror_Unspecified, "dav1d_open failed");
    }
    *result = decoder;
    return blz_heif_plugin_ok();
}

static void free_decoder(void *raw) {
    av1_decoder *decoder = raw;
    if (decoder == NULL) return;
    dav1d_data_unref(&decoder->data);  // what dav1d has not taken (nothing when it took all)
    if (decoder->context != NULL) dav1d_close(&decoder->context);
    free(decoder);
}

static struct heif_error push_data(void *raw, const void *data, size_t size) {
    av1_decoder *decoder = raw;
    if (decoder->data.data != NULL) {
        return blz_heif_plugin_error(heif_error_Decoder_plugin_error, heif_suberror_Unspecified, "data pushed twice");
    }
    if (size == 0) {  // dav1d would refuse empty data, printing to stderr (fuzz-image; it also leaked its buffer)
        return blz_heif_plugin_error(heif_error_Decoder_plugin_error, heif_suberror_No_item_data,
                                     "the AV1 item is empty");
    }
    uint8_t *copy = dav1d_data_create(&decoder->data, size);
    if (copy == NULL) return blz_heif_plugin_out_of_memory();
    memcpy(copy, data, size);
    return blz_heif_plugin_ok();
}

/// The decoded frame as a heif_image: its planes, and the colour description of its sequence header.
static struct heif_error convert(const Dav1dPicture *frame, struct heif_image **result) {
    enum heif_chroma chroma;
    switch (frame->p.layout) {
    case DAV1D_PIXEL_LAYOUT_I400: chroma = heif_chroma_monochrome; break;
    case DAV1D_PIXEL_LAYOUT_I420: chroma = heif_chroma_420; break;
    case DAV1D_PIXEL_LAYOUT_I422: chroma = heif_chroma_422; break;
    case DAV1D_PIXEL_LAYOUT_I444: chroma = heif_chroma_444; break;
    default: return blz_heif_plugin_error(heif_error_Decoder_plugin_error, heif_suberror_Unspecified, "unknown layout");
    }
    const int mono = chroma == heif_chroma_monochrome;
    struct heif_image *image = NULL;
    struct heif_error error = heif_image_create(frame->p.w, frame->p.h,
                                                mono ? heif_colorspace_monochrome : heif_colorspace_YCbCr, chroma,
                                                &image);
    if (error.code != heif_error_Ok) return error;
    static const enum heif_channel channels[3] = {heif_channel_Y, heif_channel_Cb, heif_channel_Cr};
    const int depth = frame->p.bpc;
    for (int c = 0; c < (mono ? 1 : 3); c++) {
        int width = frame->p.w, height = frame->p.h;
        if (c > 0 && chroma != heif_chroma_444) {
            width = (width + 1) / 2;
            if (chroma == heif_chroma_420) height = (height + 1) / 2;
        }
        int target_stride = 0;
        error = heif_image_add_plane(image, channels[c], width, height, depth);
        uint8_t *target = error.code == heif_error_Ok ? heif_image_get_plane(image, channels[c], &target_stride) : NULL;
        if (target == NULL || frame->data[c] == NULL) {
            heif_image_release(image);
            return error.code != heif_error_Ok ? error : blz_heif_plugin_out_of_memory();
        }
        const uint8_t *source = frame->data[c];
        const ptrdiff_t source_stride = frame->stride[c > 0 ? 1 : 0];
        const size_t row = (size_t)width * (size_t)((depth + 7) / 8);
        for (int y = 0; y < height; y++) {
            memcpy(target + (size_t)y * (size_t)target_stride, source + (ptrdiff_t)y * source_stride, row);
        }
    }
    struct heif_color_profile_nclx *nclx = heif_nclx_color_profile_alloc();
    if (nclx != NULL && frame->seq_hdr != NULL) {
        (void)heif_nclx_color_profile_set_color_primaries(nclx, (uint16_t)frame->seq_hdr->pri);
        (void)heif_nclx_color_profile_set_transfer_characteristics(nclx, (uint16_t)frame->seq_hdr->trc);
        (void)heif_nclx_color_profile_set_matrix_coefficients(nclx, (uint16_t)frame->seq_hdr->mtrx);
        nclx->full_range_flag = (uint8_t)(frame->seq_hdr->color_range != 0);
        (void)heif_image_set_nclx_color_profile(image, nclx);
    }
    heif_nclx_color_profile_free(nclx);
    *result = image;
    return blz_heif_plugin_ok();
}

static struct heif_error decode_image(void *raw, struct heif_image **result) {
    av1_decoder *decoder = raw;
    *result = NULL;
    Dav1dPicture frame;
    memset(&frame, 0, sizeof frame);
    // libheif 1.15's loop: send the data (EAGAIN: dav1d holds data still), take a picture (EAGAIN: not yet); once
    // the data is all taken, one more EAGAIN means there is no frame. Single-threaded dav1d decodes inside these
    // calls, so each one makes progress; the bound is only a guard.
    int flushed = 0;
    for (long round = 0; round < (1L << 20); round++) {
        int status = dav1d_send_data(decoder->context, &decoder->data);
        if (status < 0 && status != DAV1D_ERR(EAGAIN)) break;
        status = dav1d_get_picture(decoder->context, &frame);
        if (!flushed && status == DAV1D_ERR(EAGAIN)) {
            if (decoder->data.sz == 0) flushed = 1;
            continue;
        }
        if (status < 0) break;
        struct heif_error converted = convert(&frame, result);
        dav1d_picture_unref(&frame);
        return converted;
    }
    // dav1d says no more than "invalid argument" for a frame over frame_size_limit: say which limit was in force.
    snprintf(blz_heif_plugins_message(), BLZ_HEIF_PLUGIN_MESSAGE_CAPACITY,
             "dav1d decoded no frame (damaged data, or a frame of more than the %llu pixels the image's size allows)",
             (unsigned long long)decoder->pixel_limit);
    return blz_heif_plugin_error(heif_error_Decoder_plugin_error, heif_suberror_Unspecified,
                                 blz_heif_plugins_message());
}

// MARK: Registration

// libheif 1.15's dav1d plugin has priority 150 and its aom plugin 100: this one is chosen where it is registered.
BLZ_HEIF_DEFINE_PLUGIN(blz_av1_plugin, heif_compression_AV1, "swift-blazeface AV1 decoder (dav1d, bounded frames)",
                       "blazeface-dav1d")

#endif // BLZ_HEIF_PLUGINS
