/* Self-written minimal stand-in for FFmpeg's libavutil/frame.h (interop-tidy
 * real-world harness): only the members VideoLoader's DLPack code reads. */
#pragma once
#include <stdint.h>
enum AVPixelFormat { AV_PIX_FMT_NONE = -1, AV_PIX_FMT_RGB24 = 2 };
typedef struct AVFrame {
    uint8_t *data[8];
    int linesize[8];
    int width, height;
    int format;
    int64_t pts;
} AVFrame;
typedef struct AVRational { int num, den; } AVRational;
AVFrame *av_frame_alloc(void);
void av_frame_free(AVFrame **frame);
void av_frame_unref(AVFrame *frame);
