/* Minimal self-written stand-in for <gst/app/gstappsrc.h>: the appsrc names
   holohub's GStreamer bridge uses. Not GStreamer's header. */
#ifndef REALWORLD_STUB_GST_APPSRC_H
#define REALWORLD_STUB_GST_APPSRC_H
#include <gst/gst.h>
#ifdef __cplusplus
extern "C" {
#endif
typedef struct _GstAppSrc { GstElement element; } GstAppSrc;
typedef enum { GST_APP_STREAM_TYPE_STREAM = 0, GST_APP_STREAM_TYPE_SEEKABLE = 1, GST_APP_STREAM_TYPE_RANDOM_ACCESS = 2 } GstAppStreamType;
GType gst_app_src_get_type(void);
#define GST_TYPE_APP_SRC (gst_app_src_get_type())
#define GST_APP_SRC(o) ((GstAppSrc *)(o))
GstFlowReturn gst_app_src_push_buffer(GstAppSrc *appsrc, GstBuffer *buffer);
GstFlowReturn gst_app_src_end_of_stream(GstAppSrc *appsrc);
void gst_app_src_set_caps(GstAppSrc *appsrc, const GstCaps *caps);
#ifdef __cplusplus
}
#endif
#endif
