// FFmpeg's libraries (Debian: libavformat-dev libavcodec-dev libswscale-dev libavutil-dev; Homebrew: ffmpeg).
// Only CBlazeVideoCodecs includes them; this module exists so that SwiftPM finds their include and library
// paths through pkg-config (libavformat.pc, libavcodec.pc, libswscale.pc, libavutil.pc).
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswscale/swscale.h>
#include <libavutil/avutil.h>
