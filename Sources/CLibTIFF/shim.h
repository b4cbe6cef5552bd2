// libtiff's API (Debian: libtiff-dev; Homebrew: libtiff). Only CBlazeImageCodecs includes it; this module exists
// so that SwiftPM finds its include and library paths through pkg-config (libtiff-4.pc).
#include <tiffio.h>
