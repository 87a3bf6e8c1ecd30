// RUN: %check_interop %s interop-unsupported-dlpack-device %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// DLPack helpers of the same translation unit
// are read from their bodies, never from their names. A bool helper of one
// DLDevice or tensor is a host guard when one of its results is returned
// only for host-accessible device types; a helper returning the tensor's
// data pointer makes what it returns the tensor's data. A helper whose body
// is read is judged by its body only: HostDeviceGuards (names) is for guards
// whose bodies are elsewhere.

#include "interop/dl.h"
#include <string.h>

namespace {

// A switch whose host arms return true, the rest false.
bool zero_copy_readable(const DLDevice &device) {
  switch (interop::dl::device_type_of(device)) {
  case interop::dl::kCPU:
  case interop::dl::kCUDAHost:
  case interop::dl::kCUDAManaged:
    return true;
  default:
    return false;
  }
}

// Comparisons through a local, on the tensor's device.
bool readable_tensor(const DLTensor *t) {
  const int32_t type = t->device.device_type;
  return type == kDLCPU || type == kDLCUDAHost;
}

// Compared on a variable that changes: proves nothing.
bool changing_local(const DLDevice &device) {
  int32_t type = device.device_type;
  type = kDLCPU;
  return type == kDLCPU;
}

// The other polarity: false only on host memory.
bool needs_device_copy(DLDevice device) {
  if (device.device_type == kDLCPU)
    return false;
  return true;
}

// True for every type but CUDA: Vulkan, Metal or ROCm memory passes it,
// whatever its name says.
bool on_host(const DLDevice &device) { return device.device_type != kDLCUDA; }

// Depends on something else than the device: proves nothing.
bool host_if_cpu(const DLDevice &device) {
  if (device.device_type == kDLCPU)
    return true;
  return device.device_id == 0;
}

// The first element: data plus byte_offset.
const char *first_element(const DLTensor &t) {
  return static_cast<const char *>(t.data) + t.byte_offset;
}

} // namespace

// A guard whose body is in another translation unit: its name counts
// (HostDeviceGuards).
bool IsHostDevice(const DLDevice &device);

void copy_readable(const DLTensor &t, void *dst, size_t bytes) {
  if (!zero_copy_readable(t.device))
    return;
  memcpy(dst, static_cast<const char *>(t.data) + t.byte_offset, bytes);
}

void copy_readable_tensor(const DLTensor *t, void *dst, size_t bytes) {
  if (t->device.device_id < 0 || !readable_tensor(t))
    return;
  memcpy(dst, static_cast<const char *>(t->data) + t->byte_offset, bytes);
}

void copy_unless_device_copy(const DLTensor &t, void *dst, size_t bytes) {
  if (needs_device_copy(t.device))
    return;
  memcpy(dst, static_cast<const char *>(t.data) + t.byte_offset, bytes);
}

void copy_named_guard(const DLTensor &t, void *dst, size_t bytes) {
  if (!IsHostDevice(t.device))
    return;
  memcpy(dst, static_cast<const char *>(t.data) + t.byte_offset, bytes);
}

float first_readable(const DLTensor &t) {
  if (!zero_copy_readable(t.device))
    return 0;
  return *reinterpret_cast<const float *>(first_element(t));
}

// Guards given the whole tensor, in functions that never name its `device`:
// what they prove holds of that tensor's device.
namespace {
bool tensor_on_cpu(const DLTensor *t) {
  return t->device.device_type == kDLCPU;
}
bool tensor_not_cuda(const DLTensor &t) {
  return t.device.device_type != kDLCUDA;
}
} // namespace
bool IsHostTensor(const DLTensor &t);

void copy_tensor_guarded(const DLTensor *t, void *dst, size_t bytes) {
  if (!tensor_on_cpu(t))
    return;
  memcpy(dst, static_cast<const char *>(t->data) + t->byte_offset, bytes);
}

void copy_tensor_named_guard(const DLTensor &t, void *dst, size_t bytes) {
  if (!IsHostTensor(t))
    return;
  memcpy(dst, static_cast<const char *>(t.data) + t.byte_offset, bytes);
}

void copy_tensor_not_cuda(const DLTensor &t, void *dst, size_t bytes) {
  if (!tensor_not_cuda(t))
    return;
  memcpy(dst, static_cast<const char *>(t.data) + t.byte_offset, bytes);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: data of an imported DLTensor accessed from the host without checking its device type [interop-unsupported-dlpack-device]
}

void copy_other_tensor(const DLTensor &a, const DLTensor &b, void *dst,
                       size_t bytes) {
  if (!tensor_on_cpu(&a))
    return;
  memcpy(dst, static_cast<const char *>(b.data) + b.byte_offset, bytes);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: data of an imported DLTensor accessed from the host without checking its device type [interop-unsupported-dlpack-device]
}

// --- Findings --------------------------------------------------------------

void copy_on_host(const DLTensor &t, void *dst, size_t bytes) {
  if (!on_host(t.device))
    return;
  memcpy(dst, static_cast<const char *>(t.data) + t.byte_offset, bytes);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: data of an imported DLTensor accessed from the host without checking its device type [interop-unsupported-dlpack-device]
}

void copy_host_if_cpu(const DLTensor &t, void *dst, size_t bytes) {
  if (!host_if_cpu(t.device))
    return;
  memcpy(dst, static_cast<const char *>(t.data) + t.byte_offset, bytes);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: data of an imported DLTensor accessed from the host without checking its device type [interop-unsupported-dlpack-device]
}

void copy_changing_local(const DLTensor &t, void *dst, size_t bytes) {
  if (!changing_local(t.device))
    return;
  memcpy(dst, static_cast<const char *>(t.data) + t.byte_offset, bytes);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: data of an imported DLTensor accessed from the host without checking its device type [interop-unsupported-dlpack-device]
}

void copy_if_device_copy(const DLTensor &t, void *dst, size_t bytes) {
  if (!needs_device_copy(t.device))
    return;
  memcpy(dst, static_cast<const char *>(t.data) + t.byte_offset, bytes);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: data of an imported DLTensor accessed from the host {{.*}} [interop-unsupported-dlpack-device]
}

float first_unchecked(const DLTensor &t) {
  return *reinterpret_cast<const float *>(first_element(t));
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: data of an imported DLTensor accessed from the host without checking its device type [interop-unsupported-dlpack-device]
}

float sum_unchecked(const DLTensor &t, int n) {
  const auto *p = reinterpret_cast<const float *>(first_element(t));
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: data of an imported DLTensor accessed from the host without checking its device type [interop-unsupported-dlpack-device]
  return s;
}

// A void validator is a helper too: one that returns only for host memory
// (it throws or aborts on every other device type) guards what follows its
// call. Its other parameters (a name for the message) are unknown values;
// a local lambda called by name is read the same way.
#include <stdexcept>
struct FatalLog {
  FatalLog();
  [[noreturn]] ~FatalLog() noexcept(false);
  FatalLog &operator<<(const char *);
};
#define REQUIRE(x)                                                             \
  if (!(x))                                                                    \
  FatalLog() << "requirement failed: " #x
namespace {
void require_host(const DLTensor *t, const char *name) {
  if (t->device.device_type != kDLCPU && t->device.device_type != kDLCUDAHost)
    throw std::invalid_argument(name);
}
void reject_cuda(const DLTensor *t, const char *name) {
  if (t->device.device_type == kDLCUDA)
    throw std::invalid_argument(name);
}
} // namespace

char first_byte_validated(const DLTensor *t) {
  require_host(t, "t");
  return *(static_cast<const char *>(t->data) + t->byte_offset);
}

char first_byte_lambda(const DLTensor *t) {
  auto check_cpu = [](const DLTensor *x, const char *name) {
    REQUIRE(x->device.device_type == kDLCPU ||
            x->device.device_type == kDLCUDAHost)
        << name;
  };
  check_cpu(t, "t");
  return *(static_cast<const char *>(t->data) + t->byte_offset);
}

// Vulkan or ROCm memory passes this one.
char first_byte_not_cuda(const DLTensor *t) {
  reject_cuda(t, "t");
  return *(static_cast<const char *>(t->data) + t->byte_offset);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: data of an imported DLTensor accessed from the host without checking its device type [interop-unsupported-dlpack-device]
}
