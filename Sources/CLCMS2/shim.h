// LittleCMS 2's API (Debian: liblcms2-dev; Homebrew: little-cms2): ICC colour profiles. Only CBlazeImageCodecs
// includes it; this module exists so that SwiftPM finds its include and library paths through pkg-config (lcms2.pc).
#include <lcms2.h>
