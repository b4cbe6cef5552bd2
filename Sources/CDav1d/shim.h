// dav1d's API (Debian: libdav1d-dev; Homebrew: dav1d, which libheif depends on): the AV1 decoder behind libheif.
// Only CBlazeImageCodecs includes it, for its bounded AV1 plugin of libheif (av1_decoder.c); this module exists
// so that SwiftPM finds its include and library paths through pkg-config (dav1d.pc).
#include <dav1d/dav1d.h>
