#!/usr/bin/env bash
# Checks the HEVC plugin's YCbCr-to-RGB conversion (Sources/CBlazeImageCodecs/heif_ycbcr.c) against libheif 1.15's
# arithmetic: every (Y, Cb, Cr) triple for each matrix code and range (exhaustive.c), then whole files decoded by
# the library's C codecs and by libheif alone (files.c; the HEIC fixtures, and any files given).
#
#   Tests/HEIFConversion/check.sh                      # exhaustive + the HEIC fixtures
#   Tests/HEIFConversion/check.sh library/heic/*.heic  # and these files
#
# Needs the README's packages and a C compiler (the Swift toolchain's clang by default, as SwiftPM uses). Only
# meaningful with libheif before 1.19, where the plugin is built. Not part of `swift test` (the fixtures' check
# is: HEIFPluginExactnessTests).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
here="$root/Tests/HEIFConversion"
cc="${CC:-/opt/swift/usr/bin/clang}"
[ -x "$cc" ] || cc=cc
codecs="$root/Sources/CBlazeImageCodecs"
work="$root/.build/heif-conversion"
mkdir -p "$work"
flags=(-O2 -w -I"$codecs" -I"$codecs/include" $(pkg-config --cflags libheif))
libs=($(pkg-config --libs libheif libjpeg libpng libwebp libwebpdemux libtiff-4 lcms2 libavcodec libavutil dav1d) -lgif -lm)
"$cc" "${flags[@]}" -o "$work/exhaustive" "$here/exhaustive.c" "$codecs/heif_ycbcr.c" -lm
"$cc" "${flags[@]}" -o "$work/files" "$here/files.c" "$codecs"/*.c "${libs[@]}"
"$work/exhaustive"
"$work/files" "$root"/Tests/BlazeImageIOTests/Fixtures/heif_{rgb,limited_range,grid,irot90,irot270_exif6,imir,10bit,display_p3,nclx_p3}.heic "$@"
