// RUN: %check_interop %s interop-unsupported-dlpack-device %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// The runtime's raw accessor
// interop::dl::device_type_of(device) reads the device type like
// `device.device_type` does, also in a function that never names the field
// (the field model then keeps the type on the DLDevice record itself).

#include "interop/dl.h"
#include <string.h>

void copy_checked(const DLTensor &t, void *dst, size_t bytes) {
  if (interop::dl::device_type_of(t.device) != interop::dl::kCPU)
    return;
  memcpy(dst, t.data, bytes);
}

void copy_checked_through_variable(const DLTensor &t, void *dst,
                                   size_t bytes) {
  const int32_t type = interop::dl::device_type_of(t.device);
  if (type != interop::dl::kCPU && type != interop::dl::kCUDAHost &&
      type != interop::dl::kTPUHost)
    return;
  memcpy(dst, t.data, bytes);
}

// --- Findings --------------------------------------------------------------

void copy_after_excluding_cuda(const DLTensor &t, void *dst, size_t bytes) {
  if (interop::dl::device_type_of(t.device) == interop::dl::kCUDA)
    return;
  memcpy(dst, t.data, bytes);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: data of an imported DLTensor accessed from the host on a path where its device type may not be host memory [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:15: note: check that device_type is host-accessible
}

void copy_on_cuda(const DLTensor &t, void *dst, size_t bytes) {
  if (interop::dl::device_type_of(t.device) != interop::dl::kCUDA)
    return;
  memcpy(dst, t.data, bytes);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: data of an imported DLTensor accessed from the host on a path where its device type may not be host memory
}
