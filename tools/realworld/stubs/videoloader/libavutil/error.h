/* Self-written minimal stand-in for FFmpeg's libavutil/error.h (interop-tidy
 * real-world harness). */
#pragma once
#include <errno.h>
#define AVERROR(e) (-(e))
#define AVUNERROR(e) (-(e))
#define AVERROR_EOF (-0x20464F45)
#define AV_ERROR_MAX_STRING_SIZE 64
int av_strerror(int errnum, char *errbuf, unsigned long errbuf_size);
