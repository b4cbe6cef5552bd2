// libwebp's decoder and demuxer (Debian: libwebp-dev; Homebrew: webp). Only CBlazeImageCodecs includes them;
// this module exists so that SwiftPM finds their include and library paths through pkg-config (libwebp.pc,
// libwebpdemux.pc). The encoder's header is here for the tests, which write WebP copies of the samples.
#include <webp/decode.h>
#include <webp/demux.h>
#include <webp/encode.h>
