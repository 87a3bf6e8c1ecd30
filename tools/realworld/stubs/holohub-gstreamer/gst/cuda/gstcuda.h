/* Minimal self-written stand-in for GStreamer's CUDA library headers: the
   names holohub's GStreamer bridge and its gst/ wrappers use. Not
   GStreamer's header. */
#ifndef REALWORLD_STUB_GST_CUDA_H
#define REALWORLD_STUB_GST_CUDA_H
#include <cuda.h>
#include <gst/gst.h>
#include <gst/video/video.h>
#ifdef __cplusplus
extern "C" {
#endif
#define GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY "memory:CUDAMemory"
#define GST_MAP_CUDA ((GstMapFlags)(GST_MAP_FLAG_LAST << 1))
typedef struct _GstCudaContext { GstObject object; } GstCudaContext;
typedef struct _GstCudaStream GstCudaStream;
typedef struct _GstCudaAllocator { GstAllocator parent; } GstCudaAllocator;
typedef struct _GstCudaPoolAllocator { GstCudaAllocator parent; } GstCudaPoolAllocator;
typedef struct _GstCudaMemory { GstMemory mem; GstCudaContext *context; } GstCudaMemory;
GType gst_cuda_context_get_type(void);
GType gst_cuda_allocator_get_type(void);
GType gst_cuda_pool_allocator_get_type(void);
#define GST_TYPE_CUDA_CONTEXT (gst_cuda_context_get_type())
#define GST_TYPE_CUDA_ALLOCATOR (gst_cuda_allocator_get_type())
#define GST_TYPE_CUDA_POOL_ALLOCATOR (gst_cuda_pool_allocator_get_type())
#define GST_CUDA_ALLOCATOR(o) ((GstCudaAllocator *)(o))
GstCudaContext *gst_cuda_context_new(guint device_id);
void gst_cuda_memory_init_once(void);
GstCudaPoolAllocator *gst_cuda_pool_allocator_new(GstCudaContext *context, GstCudaStream *stream, const GstVideoInfo *info);
GstMemory *gst_cuda_allocator_alloc_wrapped(GstCudaAllocator *allocator, GstCudaContext *context, GstCudaStream *stream, const GstVideoInfo *info, CUdeviceptr dev_ptr, gpointer user_data, GDestroyNotify notify);
#ifdef __cplusplus
}
#endif
#endif
