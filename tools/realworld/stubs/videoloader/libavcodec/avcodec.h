/* Self-written minimal stand-in for FFmpeg's libavcodec/avcodec.h (interop-tidy
 * real-world harness): opaque types and the few declarations VideoLoader's headers name. */
#pragma once
#include <libavutil/error.h>
#include <libavutil/frame.h>
typedef struct AVCodec AVCodec;
typedef struct AVCodecContext AVCodecContext;
typedef struct AVPacket { int64_t pts; int stream_index; int flags; } AVPacket;
void avcodec_free_context(AVCodecContext **avctx);
AVPacket *av_packet_alloc(void);
void av_packet_free(AVPacket **pkt);
