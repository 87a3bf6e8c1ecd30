// The checks match DLPack by name, so they work with every dlpack.h
// generation: 0.x (DLContext `ctx`, kDLGPU), 0.6 (DLDevice) and 1.x.
//
// RUN: %check_interop %s interop-dlpack-byte-offset,interop-dlpack-strides,interop-unsupported-dlpack-device %t -- -- -std=c++17 -DLEGACY -I%S/Inputs/dlpack/legacy
// RUN: %check_interop %s interop-dlpack-byte-offset,interop-dlpack-strides,interop-unsupported-dlpack-device %t -- -- -std=c++17 -I%S/Inputs/dlpack/v06
// RUN: %check_interop %s interop-dlpack-byte-offset,interop-dlpack-strides,interop-unsupported-dlpack-device %t -- -- -std=c++17 -I%S/Inputs/dlpack/v1

#include <dlpack/dlpack.h>
#include <string.h>

#ifdef LEGACY
#define DEVICE ctx
#define GPU kDLGPU
#else
#define DEVICE device
#define GPU kDLCUDA
#endif

void copy_out(const DLTensor *t, void *dst, size_t bytes) {
  memcpy(dst, t->data, bytes);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  // CHECK-MESSAGES: :[[@LINE-2]]:15: warning: data of an imported DLTensor accessed from the host without checking its device type [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:15: warning: tensor data copied as one compact block, but its 'strides' are never checked [interop-dlpack-strides]
}

void copy_out_gpu_else_host(const DLTensor *t, void *dst, size_t bytes) {
  if (t->DEVICE.device_type == GPU || t->byte_offset != 0 || t->strides)
    return;
  memcpy(dst, t->data, bytes);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: data of an imported DLTensor accessed from the host on a path where its device type may not be host memory [interop-unsupported-dlpack-device]
}

void copy_out_fixed(const DLTensor *t, void *dst, size_t bytes) {
  if (t->DEVICE.device_type != kDLCPU || t->strides != NULL)
    return;
  memcpy(dst, static_cast<const char *>(t->data) + t->byte_offset, bytes);
}

int64_t stride0(const DLManagedTensor *mt) {
  return mt->dl_tensor.strides ? mt->dl_tensor.strides[0] : 1;
}
