// libde265's API (Debian: libde265-dev, which libheif-dev brings; Homebrew: libde265, which libheif depends on):
// the HEVC decoder behind libheif. Only CBlazeImageCodecs includes it, for its bounded HEVC plugin of libheif
// (hevc_decoder.c); this module exists so that SwiftPM finds its include and library paths through pkg-config.
#include <libde265/de265.h>
