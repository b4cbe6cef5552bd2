// libheif's API (Debian: libheif-dev; Homebrew: libheif): HEIF/HEIC and AVIF. Only CBlazeImageCodecs includes it;
// this module exists so that SwiftPM finds its include and library paths through pkg-config (libheif.pc).
#include <libheif/heif.h>
