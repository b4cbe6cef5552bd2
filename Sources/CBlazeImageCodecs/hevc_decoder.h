// Private to CBlazeImageCodecs: the bounded HEVC decoder plugin for libheif before 1.19 (see hevc_decoder.c).
#ifndef BLAZE_HEVC_DECODER_H
#define BLAZE_HEVC_DECODER_H

#include <stdint.h>

#include <libheif/heif.h>

#if LIBHEIF_NUMERIC_VERSION < 0x01130000
/// libheif before 1.19 gives libde265 no size limit: heif_decoder.c registers this plugin on its contexts.
#define BLZ_HEVC_PLUGIN 1

/// The most pixels one HEVC picture may have in the decoders this thread creates from now on (0: no limit).
void blz_hevc_set_pixel_limit(uint64_t maximum_pixels);

/// The plugin, for heif_register_decoder.
const struct heif_decoder_plugin *blz_hevc_plugin(void);
#endif

#endif // BLAZE_HEVC_DECODER_H
