/* Self-written stand-in (see gstcuda.h in this directory). */
#include <gst/cuda/gstcuda.h>
