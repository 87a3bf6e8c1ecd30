/* Self-written minimal stand-in for FFmpeg's libavformat/avformat.h (interop-tidy
 * real-world harness). */
#pragma once
#include <libavcodec/avcodec.h>
#include <libavformat/avio.h>
typedef struct AVStream AVStream;
typedef struct AVFormatContext AVFormatContext;
void avformat_close_input(AVFormatContext **s);
