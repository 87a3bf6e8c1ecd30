/* Minimal self-written stand-in for GLib/GObject (not installed here): only
   the names holohub's GStreamer bridge and its gst/ C++ wrappers use, as
   declarations, so that their functions parse. Not GLib's header. */
#ifndef REALWORLD_STUB_GLIB_H
#define REALWORLD_STUB_GLIB_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
typedef char gchar;
typedef int gint;
typedef unsigned int guint;
typedef int gboolean;
typedef int64_t gint64;
typedef uint64_t guint64;
typedef size_t gsize;
typedef double gdouble;
typedef float gfloat;
typedef void *gpointer;
typedef const void *gconstpointer;
typedef size_t GType;
typedef void (*GDestroyNotify)(gpointer data);
typedef struct _GTypeClass { GType g_type; } GTypeClass;
typedef struct _GTypeInstance { GTypeClass *g_class; } GTypeInstance;
typedef struct _GObject { GTypeInstance g_type_instance; guint ref_count; } GObject;
typedef struct _GParamSpec { GTypeInstance g_type_instance; const gchar *name; int flags; GType value_type; GType owner_type; } GParamSpec;
typedef struct _GObjectClass { GTypeClass g_type_class; } GObjectClass;
typedef struct _GValue { GType g_type; union { gint v_int; gint64 v_int64; gdouble v_double; gpointer v_pointer; } data[2]; } GValue;
typedef struct _GError { guint domain; gint code; gchar *message; } GError;
#define TRUE 1
#define FALSE 0
#define G_TYPE_INT ((GType)24)
#define G_TYPE_UINT ((GType)28)
#define G_TYPE_INT64 ((GType)40)
#define G_TYPE_UINT64 ((GType)44)
#define G_TYPE_BOOLEAN ((GType)20)
#define G_TYPE_FLOAT ((GType)56)
#define G_TYPE_DOUBLE ((GType)60)
#define G_TYPE_STRING ((GType)64)
#define G_OBJECT(o) ((GObject *)(o))
#define G_OBJECT_GET_CLASS(o) ((GObjectClass *)(((GTypeInstance *)(o))->g_class))
#define G_PARAM_SPEC_VALUE_TYPE(p) (((GParamSpec *)(p))->value_type)
GTypeInstance *g_type_check_instance_cast(GTypeInstance *instance, GType iface_type);
const gchar *g_type_name(GType type);
void g_object_set(gpointer object, const gchar *first_property_name, ...);
void g_object_get(gpointer object, const gchar *first_property_name, ...);
GParamSpec *g_object_class_find_property(GObjectClass *oclass, const gchar *property_name);
gpointer g_object_ref(gpointer object);
void g_object_unref(gpointer object);
void g_error_free(GError *error);
void g_free(gpointer mem);
gint64 g_get_monotonic_time(void);
#ifdef __cplusplus
}
#endif
#endif
