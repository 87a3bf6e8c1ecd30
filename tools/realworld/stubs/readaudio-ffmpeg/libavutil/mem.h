/* Self-written forwarder (see readaudio_ffmpeg_decls.h). */
#include "libavutil/readaudio_ffmpeg_decls.h"
