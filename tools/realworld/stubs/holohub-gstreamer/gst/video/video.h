/* Minimal self-written stand-in for <gst/video/video.h>: the video-format
   names holohub's GStreamer bridge uses. Not GStreamer's header. */
#ifndef REALWORLD_STUB_GST_VIDEO_H
#define REALWORLD_STUB_GST_VIDEO_H
#include <gst/gst.h>
#ifdef __cplusplus
extern "C" {
#endif
typedef enum { GST_VIDEO_FORMAT_UNKNOWN = 0, GST_VIDEO_FORMAT_RGBA = 11, GST_VIDEO_FORMAT_BGRA = 12, GST_VIDEO_FORMAT_RGB = 15, GST_VIDEO_FORMAT_GRAY8 = 25, GST_VIDEO_FORMAT_NV12 = 23, GST_VIDEO_FORMAT_I420 = 2 } GstVideoFormat;
typedef struct _GstVideoFormatInfo { GstVideoFormat format; const gchar *name; guint n_planes; } GstVideoFormatInfo;
typedef struct _GstVideoInfo { const GstVideoFormatInfo *finfo; gint width; gint height; gsize size; gint fps_n; gint fps_d; gsize offset[4]; gint stride[4]; } GstVideoInfo;
void gst_video_info_init(GstVideoInfo *info);
gboolean gst_video_info_set_format(GstVideoInfo *info, GstVideoFormat format, guint width, guint height);
gboolean gst_video_info_from_caps(GstVideoInfo *info, const GstCaps *caps);
GstVideoFormat gst_video_format_from_string(const gchar *format);
const gchar *gst_video_format_to_string(GstVideoFormat format);
#define GST_VIDEO_INFO_FORMAT(i) ((i)->finfo->format)
#define GST_VIDEO_INFO_WIDTH(i) ((i)->width)
#define GST_VIDEO_INFO_HEIGHT(i) ((i)->height)
#define GST_VIDEO_INFO_SIZE(i) ((i)->size)
#ifdef __cplusplus
}
#endif
#endif
