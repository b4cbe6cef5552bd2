// libjpeg-turbo's API (Debian: libjpeg-dev; Homebrew: jpeg-turbo). Only CBlazeImageCodecs includes it; this
// module exists so that SwiftPM finds its include and library paths through pkg-config (libjpeg.pc).
#include <stdio.h> // jpeglib.h needs FILE and size_t first.
#include <jpeglib.h>
