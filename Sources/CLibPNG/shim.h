// libpng's API (Debian: libpng-dev; Homebrew: libpng). Only CBlazeImageCodecs includes it; this module exists
// so that SwiftPM finds its include and library paths through pkg-config (libpng.pc: -I.../libpng16 -lpng16).
#include <png.h>
