#!/bin/sh
# Makes the YUV fixtures of YUVReadingTests with the ffmpeg command-line tool (lossless FFV1 in Matroska, a few KB):
#   odd-bt709-tv.mkv   33x21 yuv420p, 3 frames, tagged BT.709 limited range (the reader copies its planes);
#   yuv444-bt601-pc.mkv 32x24 yuv444p, 3 frames, tagged BT.601 full range (the reader converts it to yuv420p).
#   odd-bt709-tv.frame0.yuv  the first frame of odd-bt709-tv.mkv as decoded (the planes the reader must copy).
set -eu
cd "$(dirname "$0")"
ffmpeg -hide_banner -loglevel error -y -f lavfi -i testsrc2=size=64x48:rate=10 -vf scale=33:21 -frames:v 3 -pix_fmt yuv420p \
    -colorspace bt709 -color_primaries bt709 -color_trc bt709 -color_range tv -c:v ffv1 -bitexact odd-bt709-tv.mkv
ffmpeg -hide_banner -loglevel error -y -f lavfi -i testsrc2=size=32x24:rate=10 -frames:v 3 -pix_fmt yuv444p \
    -colorspace smpte170m -color_range pc -c:v ffv1 -bitexact yuv444-bt601-pc.mkv
# The first frame of odd-bt709-tv.mkv as FFmpeg decodes it: its yuv420p planes, tightly packed.
ffmpeg -hide_banner -loglevel error -y -i odd-bt709-tv.mkv -frames:v 1 -f rawvideo -pix_fmt yuv420p odd-bt709-tv.frame0.yuv
