// RUN: %check_interop %s interop-unsupported-dlpack-device %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// JAX's TypeError "Array passed to from_dlpack is on unsupported device
// type".
// A consumer must map each DLDeviceType it supports and fail on the rest;
// touching the data from the host is only right for host-accessible types.

#include <Python.h>
#include <dlpack/dlpack.h>
#include <string.h>

extern "C" PyObject *PyArray_SimpleNewFromData(int nd, const Py_ssize_t *dims,
                                               int typenum, void *data);
typedef int cudaError_t;
enum cudaMemcpyKind { cudaMemcpyDeviceToHost = 2 };
extern "C" cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
                                  cudaMemcpyKind kind);

namespace std {
template <class K, class V> struct map {
  struct iterator {
    V &second();
    bool operator==(const iterator &other) const;
    bool operator!=(const iterator &other) const;
  };
  V &operator[](const K &key);
  iterator find(const K &key);
  iterator end();
  size_t count(const K &key) const;
};
} // namespace std

// --- Host access with no device-type check ---

// A NumPy-style importer wrapping the data as a host array.
PyObject *to_numpy(DLManagedTensor *mt, const Py_ssize_t *dims) {
  DLTensor &t = mt->dl_tensor;
  void *data = static_cast<char *>(t.data) + t.byte_offset;
  return PyArray_SimpleNewFromData(t.ndim, dims, 11, data);
  // CHECK-MESSAGES: :[[@LINE-1]]:54: warning: data of an imported DLTensor accessed from the host without checking its device type [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:36: note: 'data' read here
  // CHECK-MESSAGES: :[[@LINE-3]]:54: note: check that device_type is host-accessible (kDLCPU, kDLCUDAHost, kDLROCMHost, kDLCUDAManaged or kDLTPUHost) before touching the data from the host
}

float first(const DLTensor *t) {
  return *reinterpret_cast<const float *>(static_cast<const char *>(t->data) +
                                          t->byte_offset);
  // CHECK-MESSAGES: :[[@LINE-2]]:10: warning: data of an imported DLTensor accessed from the host without checking its device type [interop-unsupported-dlpack-device]
}

// Everything that is not CUDA is treated as host memory: a Vulkan, Metal or
// ROCm tensor is memcpy'd from a device address.
void copy_to_host(const DLTensor *t, void *dst, size_t bytes) {
  const char *src = static_cast<const char *>(t->data) + t->byte_offset;
  if (t->device.device_type == kDLCUDA) {
    cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost);
    return;
  }
  memcpy(dst, src, bytes);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: data of an imported DLTensor accessed from the host on a path where its device type may not be host memory [interop-unsupported-dlpack-device]
}

// --- Device-type maps that never fail ---

// jaxlib maps device types with a switch whose default fails. This variant
// lets an unknown type fall into the CPU arm.
enum class Platform { kCpu, kCuda, kRocm, kUnknown };
Platform platform_for(const DLDevice &device) {
  switch (device.device_type) {
  case kDLCUDA:
    return Platform::kCuda;
  case kDLROCM:
    return Platform::kRocm;
  case kDLCPU:
  default:
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'default' maps unknown device types to a supported platform instead of failing [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the same result as this case
    return Platform::kCpu;
  }
}

const char *platform_name(DLDeviceType type) {
  switch (type) {
  case kDLCPU:
    return "cpu";
  case kDLCUDA:
    return "cuda";
  default:
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'default' maps unknown device types to a supported platform instead of failing [interop-unsupported-dlpack-device]
    return "cpu";
  }
}

// A result named as "unknown", "invalid" or "unsupported", in any case
// (UNKNOWN, kInvalid), is the failure the caller handles, even when a case
// answers it too.
enum class MemoryType { HOST, CUDA, INVALID, UNKNOWN };
MemoryType memory_type_for(const DLDevice &device) {
  switch (device.device_type) {
  case kDLCPU:
    return MemoryType::HOST;
  case kDLCUDA:
    return MemoryType::CUDA;
  case kDLOneAPI:
    return MemoryType::UNKNOWN;
  default:
    return MemoryType::UNKNOWN;
  }
}

// A default arm that logs with the fatal severity fails: the logger aborts
// as it is destroyed (LOG(FATAL) of glog-style logging libraries). A lesser
// severity goes on with the initial value.
enum LogSeverity { kInfo, kFatal };
struct LogStream {
  LogStream &operator<<(const char *);
};
struct Logger {
  Logger(const char *file, int line, int severity);
  ~Logger();
  LogStream &stream();
};
Platform fatal_default(const DLTensor *t) {
  Platform p = Platform::kCpu;
  switch (t->device.device_type) {
  case kDLCPU:
    p = Platform::kCpu;
    break;
  case kDLCUDA:
    p = Platform::kCuda;
    break;
  default:
    Logger(__FILE__, __LINE__, kFatal).stream() << "unsupported device";
  }
  return p;
}

// Unsupported types listed beside the default, all failing together.
Platform listed_with_fatal_default(const DLTensor *t) {
  Platform p = Platform::kCpu;
  switch (t->device.device_type) {
  case kDLCPU:
    p = Platform::kCpu;
    break;
  case kDLCUDA:
    p = Platform::kCuda;
    break;
  case kDLVulkan:
  case kDLMetal:
  default:
    Logger(__FILE__, __LINE__, kFatal).stream() << "unsupported device";
  }
  return p;
}

Platform logged_default(const DLTensor *t) {
  Platform p = Platform::kCpu;
  switch (t->device.device_type) {
  case kDLCPU:
    p = Platform::kCpu;
    break;
  case kDLCUDA:
    p = Platform::kCuda;
    break;
  default:
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'default' maps unknown device types to a supported platform instead of failing [interop-unsupported-dlpack-device]
    Logger(__FILE__, __LINE__, kInfo).stream() << "unsupported device";
  }
  return p;
}

Platform keeps_initial_value(const DLTensor *t) {
  Platform p = Platform::kCpu;
  switch (t->device.device_type) {
  case kDLCPU:
    p = Platform::kCpu;
    break;
  case kDLCUDA:
    p = Platform::kCuda;
    break;
  default:
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'default' maps unknown device types to a supported platform instead of failing [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES: :[[@LINE-10]]:16: note: unknown types keep this initial value
    break;
  }
  return p;
}

std::map<int, const char *> kPlatformByType;
const char *table_subscript(const DLTensor *t) {
  return kPlatformByType[t->device.device_type];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: table lookup maps an unknown device type to a default value instead of failing [interop-unsupported-dlpack-device]
}

std::map<DLDeviceType, Platform> kPlatforms;
Platform table_fallback(const DLDevice &device) {
  auto it = kPlatforms.find(device.device_type);
  return it == kPlatforms.end() ? Platform::kCpu : it.second();
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: device type missing from the table falls back to a platform instead of failing [interop-unsupported-dlpack-device]
}

// --- An import that always fails ---

namespace interop {
struct Device {};
struct Array {};
template <class T> struct Result {};
Result<Array> from_dlpack(DLManagedTensorVersioned *tensor,
                          const Device &target);
} // namespace interop

interop::Result<interop::Array> import_vulkan(DLManagedTensorVersioned *mt,
                                     const interop::Device &device) {
  if (mt->dl_tensor.device.device_type == kDLVulkan)
    return interop::from_dlpack(mt, device);
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: import of a tensor whose device type is kDLVulkan, which 'from_dlpack' does not support; this call always fails [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: device type established here
  return interop::from_dlpack(mt, device);
}

// --- Correct code that must stay silent ---

// jaxlib's DeviceForDLDevice: unknown types are an error.
struct Status {
  static Status InvalidArgument(const char *message);
};
Status device_for(const DLDevice &context, Platform *out) {
  switch (context.device_type) {
  case kDLCPU:
    *out = Platform::kCpu;
    break;
  case kDLCUDA:
    *out = Platform::kCuda;
    break;
  default:
    return Status::InvalidArgument("Unknown/unsupported DLPack device type");
  }
  return Status();
}

// An explicit sentinel is not a platform.
Platform with_sentinel(DLDeviceType type) {
  switch (type) {
  case kDLCPU:
    return Platform::kCpu;
  default:
    return Platform::kUnknown;
  }
}

// A checked table.
const char *table_checked(const DLTensor *t) {
  if (kPlatformByType.count(t->device.device_type) == 0)
    return nullptr;
  return kPlatformByType[t->device.device_type];
}

Platform table_fallback_fails(const DLDevice &device) {
  auto it = kPlatforms.find(device.device_type);
  if (it == kPlatforms.end())
    throw Status::InvalidArgument("unsupported device");
  return it.second();
}

// Host access after the check, in its several spellings.
void copy_checked(const DLTensor *t, void *dst, size_t bytes) {
  if (t->device.device_type != kDLCPU &&
      t->device.device_type != kDLCUDAHost)
    return;
  memcpy(dst, static_cast<const char *>(t->data) + t->byte_offset, bytes);
}

void fail_with_log(const char *);
void copy_by_switch(const DLTensor *t, void *dst, size_t bytes) {
  const char *src = static_cast<const char *>(t->data) + t->byte_offset;
  switch (t->device.device_type) {
  case kDLCPU:
  case kDLCUDAManaged:
    memcpy(dst, src, bytes);
    break;
  case kDLCUDA:
    cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost);
    break;
  default:
    return;
  }
}

void copy_after_switch(const DLTensor *t, void *dst, size_t bytes) {
  switch (t->device.device_type) {
  case kDLCPU:
  case kDLTPUHost:
    break;
  default:
    return;
  }
  memcpy(dst, static_cast<const char *>(t->data) + t->byte_offset, bytes);
}

// Host arms without statements of their own meet after the switch: the
// code there knows one of them was taken.
void copy_after_host_arms(const DLTensor *t, void *dst, size_t bytes) {
  switch (t->device.device_type) {
  case kDLCPU:
    break;
  case kDLCUDAHost:
    break;
  default:
    return;
  }
  memcpy(dst, static_cast<const char *>(t->data) + t->byte_offset, bytes);
}
// A default arm that goes on meets them too.
void copy_after_logged_default(const DLTensor *t, void *dst, size_t bytes) {
  switch (t->device.device_type) {
  case kDLCPU:
    break;
  default:
    fail_with_log("not a host tensor");
    break;
  }
  memcpy(dst, static_cast<const char *>(t->data) + t->byte_offset, bytes);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: data of an imported DLTensor accessed from the host on a path where its device type may not be host memory [interop-unsupported-dlpack-device]
}
// An if on some paths, a switch on others.
void note_pinned();
void copy_if_or_switch(const DLTensor *t, void *dst, size_t bytes, bool fast) {
  if (fast) {
    if (t->device.device_type != kDLCPU)
      return;
  } else {
    switch (t->device.device_type) {
    case kDLCUDAHost:
      note_pinned();
      break;
    default:
      return;
    }
  }
  memcpy(dst, static_cast<const char *>(t->data) + t->byte_offset, bytes);
}
// An empty arm has no statement to carry what it proved past a join with
// other paths: a limitation (see the check's page).
void copy_if_or_empty_arm(const DLTensor *t, void *dst, size_t bytes,
                          bool fast) {
  if (fast) {
    if (t->device.device_type != kDLCPU)
      return;
  } else {
    switch (t->device.device_type) {
    case kDLCUDAHost:
      break;
    default:
      return;
    }
  }
  memcpy(dst, static_cast<const char *>(t->data) + t->byte_offset, bytes);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: data of an imported DLTensor accessed from the host on a path where its device type may not be host memory [interop-unsupported-dlpack-device]
}

// Checked once, kept in a local, relied on later.
float checked_once(const DLTensor *t) {
  const bool on_host = t->device.device_type == kDLCPU;
  if (!on_host)
    return 0;
  return *static_cast<const float *>(t->data);
}

// A host-ness helper named like one (HostDeviceGuards).
bool IsHostDevice(const DLDevice &device);
void copy_guarded(const DLTensor *t, void *dst, size_t bytes) {
  if (!IsHostDevice(t->device))
    return;
  memcpy(dst, static_cast<const char *>(t->data) + t->byte_offset, bytes);
}

// A producer's own host tensor.
void export_host(DLTensor *out, float *buffer, size_t bytes) {
  out->data = buffer;
  out->device = {kDLCPU, 0};
  memcpy(out->data, buffer, bytes);
}

// Importing a supported type is the importer's business.
interop::Result<interop::Array> import_cpu(DLManagedTensorVersioned *mt,
                                  const interop::Device &device) {
  if (mt->dl_tensor.device.device_type != kDLCPU)
    return interop::from_dlpack(mt, device);
  return interop::from_dlpack(mt, device);
}

// A tensor a class builds in its member (it writes the layout) is its own:
// host memory it allocated, not an import.
struct HostBatch {
  DLTensor batch;
  long frame_bytes = 0;
  void describe(long frames, long bytes) {
    batch.shape[0] = frames;
    frame_bytes = bytes;
  }
  void put(const void *frame, int index) {
    memcpy(static_cast<char *>(batch.data) + frame_bytes * index, frame,
           frame_bytes);
  }
};

// The device type mapped onto an enumeration of the code's own, then
// switched on: `case HostKind:` is host memory when every store of that
// constant is reached through a host case of the device switch only.
enum OwnDevice { HostKind, GpuKind };
void fail_with(const char *);
void copy_mapped(void *dst, const DLTensor &t, size_t n) {
  OwnDevice device;
  switch (t.device.device_type) {
  case kDLCPU: device = HostKind; break;
  case kDLCUDA: device = GpuKind; break;
  default: fail_with("unsupported device"); return;
  }
  switch (device) {
  case HostKind:
    memcpy(dst, static_cast<char *>(t.data) + t.byte_offset, n);
    break;
  default:
    fail_with("only host tensors");
  }
}
// Its initial value reaches the switch on a path no host case took.
void copy_mapped_default(void *dst, const DLTensor &t, size_t n) {
  OwnDevice device = HostKind;
  switch (t.device.device_type) {
  case kDLCUDA: device = GpuKind; break;
  default: break;
  }
  switch (device) {
  case HostKind:
    memcpy(dst, static_cast<char *>(t.data) + t.byte_offset, n);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: data of an imported DLTensor accessed from the host on a path where its device type may not be host memory [interop-unsupported-dlpack-device]
    break;
  default:
    fail_with("only host tensors");
  }
}
