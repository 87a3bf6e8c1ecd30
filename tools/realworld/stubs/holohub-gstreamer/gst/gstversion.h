/* Self-written stand-in (see gst.h in this directory). */
#include <gst/gst.h>
