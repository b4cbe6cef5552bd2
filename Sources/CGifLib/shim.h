// giflib's decoder (Debian: libgif-dev; Homebrew: giflib). Only CBlazeImageCodecs includes it. giflib installs
// no pkg-config file on Debian, so the headers come from the default include path (/usr/include) and
// CBlazeImageCodecs links `gif` itself (Package.swift); the module map's `link` serves Swift importers only.
#include <gif_lib.h>
