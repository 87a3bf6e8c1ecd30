/* Minimal self-written stand-in for <gst/gst.h> (GStreamer is not installed
   here): declarations of the names holohub's GStreamer bridge and its gst/
   C++ wrappers use, so that their functions parse. Not GStreamer's header. */
#ifndef REALWORLD_STUB_GST_H
#define REALWORLD_STUB_GST_H
#include <glib.h>
#ifdef __cplusplus
extern "C" {
#endif
typedef guint64 GstClockTime;
#define GST_SECOND ((GstClockTime)1000000000)
#define GST_CLOCK_TIME_NONE ((GstClockTime)-1)
/* Declares GStreamer 1.24 (holohub builds its CUDA-memory bridge from 1.24). */
#define GST_CHECK_VERSION(major, minor, micro) ((major) < 1 || ((major) == 1 && (minor) <= 24))
typedef struct _GstMiniObject { GType type; gint refcount; gint lockstate; guint flags; } GstMiniObject;
typedef struct _GstObject { GObject object; gchar *name; } GstObject;
typedef struct _GstAllocator GstAllocator;
typedef struct _GstMemory { GstMiniObject mini_object; GstAllocator *allocator; struct _GstMemory *parent; gsize maxsize; gsize align; gsize offset; gsize size; } GstMemory;
struct _GstAllocator { GstObject object; const gchar *mem_type; };
typedef struct _GstBuffer { GstMiniObject mini_object; gpointer pool; GstClockTime pts; GstClockTime dts; GstClockTime duration; guint64 offset; guint64 offset_end; } GstBuffer;
typedef struct _GstCaps { GstMiniObject mini_object; } GstCaps;
typedef struct _GstStructure GstStructure;
typedef struct _GstCapsFeatures GstCapsFeatures;
typedef struct _GstElement { GstObject object; } GstElement;
typedef struct _GstPad { GstObject object; } GstPad;
typedef struct _GstBus { GstObject object; } GstBus;
typedef enum { GST_MESSAGE_UNKNOWN = 0, GST_MESSAGE_EOS = 1, GST_MESSAGE_ERROR = 2, GST_MESSAGE_WARNING = 4, GST_MESSAGE_INFO = 8, GST_MESSAGE_STATE_CHANGED = 64, GST_MESSAGE_ANY = -1 } GstMessageType;
typedef struct _GstMessage { GstMiniObject mini_object; GstMessageType type; guint64 timestamp; GstObject *src; } GstMessage;
typedef enum { GST_MEMORY_FLAG_READONLY = 2, GST_MEMORY_FLAG_NO_SHARE = 16 } GstMemoryFlags;
typedef enum { GST_BUFFER_FLAG_LIVE = 16 } GstBufferFlags;
typedef enum { GST_MAP_READ = 1, GST_MAP_WRITE = 2, GST_MAP_FLAG_LAST = 65536 } GstMapFlags;
typedef struct _GstMapInfo { GstMemory *memory; GstMapFlags flags; unsigned char *data; gsize size; gsize maxsize; } GstMapInfo;
typedef enum { GST_FLOW_OK = 0, GST_FLOW_NOT_LINKED = -1, GST_FLOW_FLUSHING = -2, GST_FLOW_EOS = -3, GST_FLOW_ERROR = -5 } GstFlowReturn;
typedef enum { GST_STATE_VOID_PENDING = 0, GST_STATE_NULL = 1, GST_STATE_READY = 2, GST_STATE_PAUSED = 3, GST_STATE_PLAYING = 4 } GstState;
typedef enum { GST_STATE_CHANGE_FAILURE = 0, GST_STATE_CHANGE_SUCCESS = 1, GST_STATE_CHANGE_ASYNC = 2, GST_STATE_CHANGE_NO_PREROLL = 3 } GstStateChangeReturn;
typedef enum { GST_FORMAT_UNDEFINED = 0, GST_FORMAT_DEFAULT = 1, GST_FORMAT_BYTES = 2, GST_FORMAT_TIME = 3 } GstFormat;
GType gst_allocator_get_type(void);
GType gst_element_get_type(void);
GType gst_pad_get_type(void);
GType gst_object_get_type(void);
GType gst_bus_get_type(void);
#define GST_TYPE_BUS (gst_bus_get_type())
GstMessage *gst_message_ref(GstMessage *msg);
void gst_message_unref(GstMessage *msg);
GstMessage *gst_bus_timed_pop_filtered(GstBus *bus, GstClockTime timeout, GstMessageType types);
void gst_message_parse_error(GstMessage *message, GError **gerror, gchar **debug);
void gst_message_parse_state_changed(GstMessage *message, GstState *oldstate, GstState *newstate, GstState *pending);
#define GST_MESSAGE_TYPE(m) (((GstMessage *)(m))->type)
#define GST_MESSAGE_SRC(m) (((GstMessage *)(m))->src)
#define GST_TYPE_ALLOCATOR (gst_allocator_get_type())
#define GST_TYPE_ELEMENT (gst_element_get_type())
#define GST_TYPE_PAD (gst_pad_get_type())
#define GST_ELEMENT(o) ((GstElement *)(o))
#define GST_PAD(o) ((GstPad *)(o))
#define GST_OBJECT(o) ((GstObject *)(o))
#define GST_VALUE_HOLDS_FRACTION(v) (((const GValue *)(v))->g_type != 0)
gboolean gst_is_initialized(void);
void gst_init(int *argc, char **argv[]);
gpointer gst_object_ref(gpointer object);
void gst_object_unref(gpointer object);
gpointer gst_object_ref_sink(gpointer object);
GstMemory *gst_memory_ref(GstMemory *memory);
void gst_memory_unref(GstMemory *memory);
GstMemory *gst_memory_new_wrapped(GstMemoryFlags flags, gpointer data, gsize maxsize, gsize offset, gsize size, gpointer user_data, GDestroyNotify notify);
gboolean gst_memory_map(GstMemory *mem, GstMapInfo *info, GstMapFlags flags);
void gst_memory_unmap(GstMemory *mem, GstMapInfo *info);
GstBuffer *gst_buffer_new(void);
GstBuffer *gst_buffer_ref(GstBuffer *buf);
void gst_buffer_unref(GstBuffer *buf);
void gst_buffer_append_memory(GstBuffer *buffer, GstMemory *mem);
guint gst_buffer_n_memory(GstBuffer *buffer);
GstMemory *gst_buffer_peek_memory(GstBuffer *buffer, guint idx);
GstMemory *gst_buffer_get_memory(GstBuffer *buffer, guint idx);
gsize gst_buffer_get_size(GstBuffer *buffer);
GstCaps *gst_caps_ref(GstCaps *caps);
void gst_caps_unref(GstCaps *caps);
GstCaps *gst_caps_new_empty(void);
GstCaps *gst_caps_from_string(const gchar *string);
gchar *gst_caps_to_string(const GstCaps *caps);
gboolean gst_caps_is_empty(const GstCaps *caps);
guint gst_caps_get_size(const GstCaps *caps);
GstStructure *gst_caps_get_structure(const GstCaps *caps, guint index);
GstCapsFeatures *gst_caps_get_features(const GstCaps *caps, guint index);
gboolean gst_caps_features_contains(const GstCapsFeatures *features, const gchar *feature);
const gchar *gst_structure_get_name(const GstStructure *structure);
const GValue *gst_structure_get_value(const GstStructure *structure, const gchar *fieldname);
gboolean gst_structure_get_int(const GstStructure *structure, const gchar *fieldname, gint *value);
const gchar *gst_structure_get_string(const GstStructure *structure, const gchar *fieldname);
gboolean gst_structure_get_fraction(const GstStructure *structure, const gchar *fieldname, gint *num, gint *den);
gint gst_value_get_fraction_numerator(const GValue *value);
gint gst_value_get_fraction_denominator(const GValue *value);
guint64 gst_util_uint64_scale(guint64 val, guint64 num, guint64 denom);
const gchar *gst_flow_get_name(GstFlowReturn ret);
GstElement *gst_element_factory_make(const gchar *factoryname, const gchar *name);
gboolean gst_element_link(GstElement *src, GstElement *dest);
gboolean gst_element_link_many(GstElement *element_1, GstElement *element_2, ...);
GstPad *gst_element_get_static_pad(GstElement *element, const gchar *name);
GstBus *gst_element_get_bus(GstElement *element);
GstStateChangeReturn gst_element_set_state(GstElement *element, GstState state);
GstStateChangeReturn gst_element_get_state(GstElement *element, GstState *state, GstState *pending, GstClockTime timeout);
gchar *gst_object_get_name(GstObject *object);
#define gst_element_get_name(elem) gst_object_get_name(GST_OBJECT(elem))
GstCaps *gst_pad_get_current_caps(GstPad *pad);
gboolean gst_bin_add(GstElement *bin, GstElement *element);
gboolean gst_bin_add_many(GstElement *bin, GstElement *element_1, ...);
GstElement *gst_pipeline_new(const gchar *name);
#ifdef __cplusplus
}
#endif
#endif
