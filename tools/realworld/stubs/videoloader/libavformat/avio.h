/* Self-written minimal stand-in for FFmpeg's libavformat/avio.h (interop-tidy
 * real-world harness). */
#pragma once
typedef struct AVIOContext AVIOContext;
void avio_context_free(AVIOContext **s);
