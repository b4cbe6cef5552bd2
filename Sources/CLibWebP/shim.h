// libwebp's decoder and demuxer (Debian: libwebp-dev; Homebrew: webp). Only CBlazeImageCodecs includes them;
// this module exists so that SwiftPM finds their include and library paths through pkg-config (libwebp.pc,
// libwebpdemux.pc).
#include <webp/decode.h>
#include <webp/demux.h>
