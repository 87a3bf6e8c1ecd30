/* Self-written minimal stand-in for FFmpeg's libavfilter/avfilter.h (interop-tidy
 * real-world harness). */
#pragma once
typedef struct AVFilterGraph AVFilterGraph;
typedef struct AVFilterContext AVFilterContext;
void avfilter_graph_free(AVFilterGraph **graph);
