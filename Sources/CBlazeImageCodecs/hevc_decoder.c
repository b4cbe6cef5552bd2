// A libheif decoder plugin for HEVC over libde265 that allocates no picture beyond the caller's pixel limit.
//
// Why: libheif before 1.19 hands the coded stream to libde265 without a limit, and libde265 (1.0.x) allocates the
// picture its sequence parameter set declares, up to 65,535 x 65,535, whatever the HEIF's `ispe` says. A 15 KB
// file with an ispe of 64x64 and an SPS of 8192x8192 made libheif 1.15 allocate 400 MB; a crafted SPS can ask for
// gigabytes. libheif 1.19 and later pass their security limits to the codecs themselves, and this plugin is not
// used with them (BLZ_HEIF_PLUGINS).
//
// How: libde265 exposes neither its parsed sequence parameter set nor, when SAO is on (as x265 and Apple encode),
// the allocation of the picture it decodes into. So the plugin reads the picture size from each SPS NAL unit as it
// passes (the few fields before pic_width_in_luma_samples, H.265 7.3.2.2) and refuses one over the limit before
// libde265 sees it; the output pictures it may allocate itself (de265_set_image_allocation_functions) are checked
// again. Otherwise it does what libheif 1.15's own libde265 plugin does: NAL units with 4-byte lengths in, the
// planes and the bitstream's colour description (VUI) out as a heif_image.
//
// The limit is the calling thread's (blz_heif_plugins_set_pixel_limit): heif_decoder.c sets it around heif_decode_image and
// has libheif decode grid tiles on that thread (heif_context_set_max_decoding_threads 0).
#include "heif_plugins.h"

#ifdef BLZ_HEIF_PLUGINS

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libde265/de265.h>
#include <libheif/heif_plugin.h>

static _Thread_local uint64_t thread_pixel_limit;

void blz_heif_plugins_set_pixel_limit(uint64_t maximum_pixels) {
    thread_pixel_limit = maximum_pixels;
}

uint64_t blz_heif_plugins_pixel_limit(void) {
    return thread_pixel_limit;
}

static _Thread_local char thread_message[BLZ_HEIF_PLUGIN_MESSAGE_CAPACITY];

char *blz_heif_plugins_message(void) {
    return thread_message;
}

typedef struct hevc_decoder {
    de265_decoder_context *context;
    /// The most pixels one picture may have (0: no limit), taken from the thread when the decoder was made.
    uint64_t pixel_limit;
    /// The size of a picture refused for the limit, for the message (0 x 0 when none was).
    int refused_width, refused_height;
} hevc_decoder;

static const char *plugin_name(void) {
    return "swift-blazeface HEVC decoder (libde265, bounded pictures)";
}

static pthread_once_t de265_once = PTHREAD_ONCE_INIT;
static void initialize_de265(void) {
    (void)de265_init();  // reference-counted; never undone, as other users of libde265 may share it
}

static void init_plugin(void) {
    pthread_once(&de265_once, initialize_de265);
}

static void deinit_plugin(void) {}

/// libheif 1.15's own libde265 plugin has priority 100: this one is chosen for the contexts it is registered on.
static int does_support_format(enum heif_compression_format format) {
    return format == heif_compression_HEVC ? 200 : 0;
}

static int get_buffer(de265_decoder_context *context, struct de265_image_spec *spec, struct de265_image *image,
                      void *userdata) {
    hevc_decoder *decoder = userdata;
    const uint64_t pixels = (uint64_t)(spec->width > 0 ? spec->width : 0) * (uint64_t)(spec->height > 0 ? spec->height : 0);
    if (decoder->pixel_limit > 0 && pixels > decoder->pixel_limit) {
        decoder->refused_width = spec->width;
        decoder->refused_height = spec->height;
        return 0;  // libde265: DE265_ERROR_OUT_OF_MEMORY, before its metadata arrays
    }
    return de265_get_default_image_allocation_functions()->get_buffer(context, spec, image, NULL);
}

static void release_buffer(de265_decoder_context *context, struct de265_image *image, void *userdata) {
    (void)userdata;
    de265_get_default_image_allocation_functions()->release_buffer(context, image, NULL);
}

static struct de265_image_allocation bounded_allocation = {get_buffer, release_buffer};

static struct heif_error plugin_error(enum heif_error_code code, enum heif_suberror_code subcode, const char *text) {
    struct heif_error error = {code, subcode, text};
    return error;
}

static struct heif_error new_decoder(void **result) {
    hevc_decoder *decoder = calloc(1, sizeof(hevc_decoder));
    if (decoder == NULL) return plugin_error(heif_error_Memory_allocation_error, heif_suberror_Unspecified, "");
    decoder->context = de265_new_decoder();
    if (decoder->context == NULL) {
        free(decoder);
        return plugin_error(heif_error_Memory_allocation_error, heif_suberror_Unspecified, "");
    }
    decoder->pixel_limit = thread_pixel_limit;
    de265_set_image_allocation_functions(decoder->context, &bounded_allocation, decoder);
    *result = decoder;
    return plugin_error(heif_error_Ok, heif_suberror_Unspecified, "");
}

static void free_decoder(void *raw) {
    hevc_decoder *decoder = raw;
    if (decoder == NULL) return;
    (void)de265_free_decoder(decoder->context);
    free(decoder);
}

static void set_strict_decoding(void *raw, int flag) {
    (void)raw;
    (void)flag;  // the colour description's code points are taken as given, as libheif's plugin does
}

// MARK: The picture size of a sequence parameter set

/// Bits of a NAL unit's payload, with the emulation-prevention bytes (00 00 03) taken out.
typedef struct bit_reader {
    const uint8_t *data;
    size_t size, byte;
    int bit;       // next bit of data[byte], 7 (most significant) to 0
    int zeros;     // zero bytes just read, for emulation prevention
    int overrun;
} bit_reader;

static unsigned read_bit(bit_reader *reader) {
    if (reader->bit == 7 && reader->byte < reader->size && reader->zeros >= 2 && reader->data[reader->byte] == 3) {
        reader->byte++;  // an emulation-prevention byte
        reader->zeros = 0;
    }
    if (reader->byte >= reader->size) {
        reader->overrun = 1;
        return 0;
    }
    const uint8_t byte = reader->data[reader->byte];
    const unsigned value = (byte >> reader->bit) & 1;
    if (--reader->bit < 0) {
        reader->bit = 7;
        reader->zeros = byte == 0 ? reader->zeros + 1 : 0;
        reader->byte++;
    }
    return value;
}

static uint32_t read_bits(bit_reader *reader, int count) {
    uint32_t value = 0;
    for (int i = 0; i < count; i++) value = value << 1 | read_bit(reader);
    return value;
}

/// ue(v): Exp-Golomb; an overlong code is an overrun.
static uint32_t read_ue(bit_reader *reader) {
    int zeros = 0;
    while (read_bit(reader) == 0) {
        if (++zeros > 31 || reader->overrun) {
            reader->overrun = 1;
            return 0;
        }
    }
    return (uint32_t)((1ull << zeros) - 1 + read_bits(reader, zeros));
}

/// The luma size a sequence parameter set NAL unit (type 33) declares (H.265 7.3.2.2: the fields before
/// pic_width_in_luma_samples), so that it is checked before libde265 allocates it. Returns 0 when the unit ends
/// first. libde265 exposes no parsed SPS, and it allocates the decoding picture with its default allocator
/// whenever SAO is on, out of reach of de265_set_image_allocation_functions: this reading is the only guard.
static int sps_picture_size(const uint8_t *nal, size_t size, uint32_t *width, uint32_t *height) {
    bit_reader reader = {nal, size, 2, 7, 0, 0};  // after the 2-byte NAL unit header
    (void)read_bits(&reader, 4);                   // sps_video_parameter_set_id
    const int sub_layers = (int)read_bits(&reader, 3);  // sps_max_sub_layers_minus1
    (void)read_bits(&reader, 1);                   // sps_temporal_id_nesting_flag
    (void)read_bits(&reader, 32);                  // profile_tier_level: general profile space ... flags
    (void)read_bits(&reader, 32);
    (void)read_bits(&reader, 24);
    (void)read_bits(&reader, 8);                   // general_level_idc
    int profile_present[8] = {0}, level_present[8] = {0};
    for (int i = 0; i < sub_layers; i++) {
        profile_present[i] = (int)read_bits(&reader, 1);
        level_present[i] = (int)read_bits(&reader, 1);
    }
    if (sub_layers > 0) {
        for (int i = sub_layers; i < 8; i++) (void)read_bits(&reader, 2);  // reserved_zero_2bits
    }
    for (int i = 0; i < sub_layers; i++) {
        if (profile_present[i]) {
            (void)read_bits(&reader, 32);
            (void)read_bits(&reader, 32);
            (void)read_bits(&reader, 24);
        }
        if (level_present[i]) (void)read_bits(&reader, 8);
    }
    (void)read_ue(&reader);                        // sps_seq_parameter_set_id
    if (read_ue(&reader) == 3) (void)read_bits(&reader, 1);  // chroma_format_idc, separate_colour_plane_flag
    *width = read_ue(&reader);
    *height = read_ue(&reader);
    return !reader.overrun;
}

// MARK: Data in

/// NAL units, each after a 4-byte big-endian length (libheif writes the hvcC's parameter sets the same way).
static struct heif_error push_data(void *raw, const void *data, size_t size) {
    hevc_decoder *decoder = raw;
    const uint8_t *bytes = data;
    size_t offset = 0;
    while (offset < size) {
        if (size - offset < 4) return plugin_error(heif_error_Decoder_plugin_error, heif_suberror_End_of_data, "");
        const uint32_t length = (uint32_t)bytes[offset] << 24 | (uint32_t)bytes[offset + 1] << 16
            | (uint32_t)bytes[offset + 2] << 8 | bytes[offset + 3];
        offset += 4;
        if (length > size - offset) {
            return plugin_error(heif_error_Decoder_plugin_error, heif_suberror_End_of_data, "");
        }
        if (length >= 2 && ((bytes[offset] >> 1) & 0x3F) == 33) {  // a sequence parameter set
            uint32_t width = 0, height = 0;
            if (!sps_picture_size(bytes + offset, length, &width, &height)) {
                return plugin_error(heif_error_Decoder_plugin_error, heif_suberror_End_of_data,
                                    "the HEVC sequence parameter set ends early");
            }
            if (decoder->pixel_limit > 0 && (uint64_t)width * height > decoder->pixel_limit) {
                // The declared size passed the caller's limit; a coded picture beyond it contradicts the file.
                snprintf(blz_heif_plugins_message(), BLZ_HEIF_PLUGIN_MESSAGE_CAPACITY,
                         "the HEVC stream's picture is %ux%u, more than the %llu pixels the image's size allows",
                         width, height, (unsigned long long)decoder->pixel_limit);
                return plugin_error(heif_error_Decoder_plugin_error, heif_suberror_Invalid_image_size,
                                    blz_heif_plugins_message());
            }
        }
        const de265_error error = de265_push_NAL(decoder->context, bytes + offset, (int)length, 0, NULL);
        if (error != DE265_OK) {
            return plugin_error(heif_error_Decoder_plugin_error, heif_suberror_Unspecified, de265_get_error_text(error));
        }
        offset += length;
    }
    return plugin_error(heif_error_Ok, heif_suberror_Unspecified, "");
}

/// The decoded picture as a heif_image: its planes, and the colour description of its VUI.
static struct heif_error convert(const struct de265_image *picture, struct heif_image **result) {
    const enum de265_chroma chroma = de265_get_chroma_format(picture);
    const int mono = chroma == de265_chroma_mono;
    static const enum heif_chroma chromas[4] = {heif_chroma_monochrome, heif_chroma_420, heif_chroma_422,
                                                heif_chroma_444};
    if ((int)chroma < 0 || (int)chroma > 3) {
        return plugin_error(heif_error_Decoder_plugin_error, heif_suberror_Unspecified, "unknown chroma format");
    }
    struct heif_image *image = NULL;
    struct heif_error error = heif_image_create(de265_get_image_width(picture, 0), de265_get_image_height(picture, 0),
                                                mono ? heif_colorspace_monochrome : heif_colorspace_YCbCr,
                                                chromas[chroma], &image);
    if (error.code != heif_error_Ok) return error;
    static const enum heif_channel channels[3] = {heif_channel_Y, heif_channel_Cb, heif_channel_Cr};
    const int depth = de265_get_bits_per_pixel(picture, 0);
    for (int c = 0; c < (mono ? 1 : 3); c++) {
        const int width = de265_get_image_width(picture, c), height = de265_get_image_height(picture, c);
        int source_stride = 0, target_stride = 0;
        const uint8_t *source = de265_get_image_plane(picture, c, &source_stride);
        if (de265_get_bits_per_pixel(picture, c) != depth || width <= 0 || height <= 0 || source == NULL) {
            heif_image_release(image);
            return plugin_error(heif_error_Decoder_plugin_error, heif_suberror_Unspecified,
                                "planes of different depths or empty planes");
        }
        error = heif_image_add_plane(image, channels[c], width, height, depth);
        uint8_t *target = error.code == heif_error_Ok ? heif_image_get_plane(image, channels[c], &target_stride) : NULL;
        if (target == NULL) {
            heif_image_release(image);
            return error.code != heif_error_Ok ? error
                                               : plugin_error(heif_error_Memory_allocation_error,
                                                              heif_suberror_Unspecified, "");
        }
        const size_t row = (size_t)width * (size_t)((depth + 7) / 8);
        for (int y = 0; y < height; y++) {
            memcpy(target + (size_t)y * (size_t)target_stride, source + (size_t)y * (size_t)source_stride, row);
        }
    }
    struct heif_color_profile_nclx *nclx = heif_nclx_color_profile_alloc();
    if (nclx != NULL) {
        // Unknown code points keep libheif's defaults (its own plugin does the same when not strict).
        (void)heif_nclx_color_profile_set_color_primaries(nclx, (uint16_t)de265_get_image_colour_primaries(picture));
        (void)heif_nclx_color_profile_set_transfer_characteristics(
            nclx, (uint16_t)de265_get_image_transfer_characteristics(picture));
        (void)heif_nclx_color_profile_set_matrix_coefficients(nclx,
                                                               (uint16_t)de265_get_image_matrix_coefficients(picture));
        nclx->full_range_flag = (uint8_t)(de265_get_image_full_range_flag(picture) != 0);
        (void)heif_image_set_nclx_color_profile(image, nclx);
        heif_nclx_color_profile_free(nclx);
    }
    *result = image;
    return plugin_error(heif_error_Ok, heif_suberror_Unspecified, "");
}

static struct heif_error decode_image(void *raw, struct heif_image **result) {
    hevc_decoder *decoder = raw;
    *result = NULL;
    (void)de265_flush_data(decoder->context);
    int more = 0;
    do {
        more = 0;
        const de265_error error = de265_decode(decoder->context, &more);
        if (decoder->refused_width > 0) {
            if (*result != NULL) heif_image_release(*result);
            *result = NULL;
            snprintf(blz_heif_plugins_message(), BLZ_HEIF_PLUGIN_MESSAGE_CAPACITY,
                     "the HEVC stream's picture is %dx%d, more than the %llu pixels the image's size allows",
                     decoder->refused_width, decoder->refused_height, (unsigned long long)decoder->pixel_limit);
            return plugin_error(heif_error_Decoder_plugin_error, heif_suberror_Invalid_image_size,
                                blz_heif_plugins_message());
        }
        if (error != DE265_OK && error != DE265_ERROR_WAITING_FOR_INPUT_DATA) {
            if (*result != NULL) heif_image_release(*result);
            *result = NULL;
            return plugin_error(heif_error_Decoder_plugin_error, heif_suberror_Unspecified, de265_get_error_text(error));
        }
        const struct de265_image *picture = de265_get_next_picture(decoder->context);
        if (picture != NULL) {
            if (*result != NULL) heif_image_release(*result);
            *result = NULL;
            struct heif_error converted = convert(picture, result);
            de265_release_next_picture(decoder->context);
            if (converted.code != heif_error_Ok) return converted;
        }
    } while (more);
    if (*result == NULL) {
        return plugin_error(heif_error_Decoder_plugin_error, heif_suberror_Unspecified, "the HEVC stream has no picture");
    }
    return plugin_error(heif_error_Ok, heif_suberror_Unspecified, "");
}

static const struct heif_decoder_plugin plugin = {
    3, plugin_name, init_plugin, deinit_plugin, does_support_format, new_decoder, free_decoder, push_data, decode_image,
    set_strict_decoding, "blazeface-libde265",
};

const struct heif_decoder_plugin *blz_hevc_plugin(void) {
    pthread_once(&de265_once, initialize_de265);
    return &plugin;
}

#endif // BLZ_HEIF_PLUGINS
