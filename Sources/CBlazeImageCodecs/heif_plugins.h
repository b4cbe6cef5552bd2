// Private to CBlazeImageCodecs: bounded HEVC and AV1 decoder plugins for libheif before 1.19 (hevc_decoder.c,
// av1_decoder.c), which gives its codecs no size limit: libde265 allocates what a stream's SPS declares (up to
// 65,535 x 65,535) and libheif 1.15's dav1d plugin lets dav1d allocate frames of up to 32,768 x 32,768, whatever
// the HEIF's ispe says. heif_decoder.c registers these plugins on its contexts, above libheif's own.
#ifndef BLAZE_HEIF_PLUGINS_H
#define BLAZE_HEIF_PLUGINS_H

#include <stdint.h>

#include <libheif/heif.h>

#if LIBHEIF_NUMERIC_VERSION < 0x01130000
#define BLZ_HEIF_PLUGINS 1

/// The most pixels one coded picture may have in the decoders this thread creates from now on (0: no limit).
void blz_heif_plugins_set_pixel_limit(uint64_t maximum_pixels);
/// The calling thread's limit, read by the plugins when libheif makes a decoder.
uint64_t blz_heif_plugins_pixel_limit(void);

/// Where a plugin writes the message of an error it returns: the calling thread's buffer, not the decoder's, as
/// libheif 1.15 frees the decoder before it copies the message (fuzz-image found that use after free).
#define BLZ_HEIF_PLUGIN_MESSAGE_CAPACITY 192
char *blz_heif_plugins_message(void);

/// The plugins, for heif_register_decoder.
const struct heif_decoder_plugin *blz_hevc_plugin(void);
const struct heif_decoder_plugin *blz_av1_plugin(void);
#endif

#endif // BLAZE_HEIF_PLUGINS_H
