// RUN: %check_interop %s interop-unsupported-dlpack-device %t -- \
// RUN:   -config="{CheckOptions: { \
// RUN:     interop-unsupported-dlpack-device.HostMemoryFunctions: '::mylib::host_view$', \
// RUN:     interop-unsupported-dlpack-device.DeviceMemoryFunctions: '::mylib::device_view$', \
// RUN:     interop-unsupported-dlpack-device.HostDeviceGuards: 'OnCpu', \
// RUN:     interop-unsupported-dlpack-device.ImportFunctions: '::mylib::import_tensor$', \
// RUN:     interop-unsupported-dlpack-device.SupportedDeviceTypes: 'kDLCPU;kDLCUDA;7'}}" \
// RUN:   -- -std=c++17 -I%S/Inputs/dlpack/v1

// HostMemoryFunctions: calls that view memory from the host.
// DeviceMemoryFunctions: calls that take a pointer as device memory.
// HostDeviceGuards: bool functions of a device whose true result means host.
// ImportFunctions and SupportedDeviceTypes: the importer and what it maps
// (names or numbers; 7 is kDLVulkan).

#include <dlpack/dlpack.h>
#include <stddef.h>

namespace mylib {
struct View {};
View host_view(const void *data, size_t bytes);
View device_view(const void *data, size_t bytes);
int import_tensor(DLManagedTensor *tensor);
} // namespace mylib
bool OnCpu(const DLDevice &device);
bool IsHost(const DLDevice &device);

mylib::View view(const DLTensor *t, size_t bytes) {
  return mylib::host_view(t->data, bytes);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: data of an imported DLTensor accessed from the host without checking its device type [interop-unsupported-dlpack-device]
}

mylib::View not_host(DLManagedTensor *mt, size_t bytes) {
  return mylib::device_view(mt->dl_tensor.data, bytes);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: data of an imported DLTensor used as device memory without checking its device type [interop-unsupported-dlpack-device]
}

mylib::View guarded(const DLTensor *t, size_t bytes) {
  if (!OnCpu(t->device))
    return {};
  return mylib::host_view(t->data, bytes);
}

// IsHost no longer counts as a guard.
mylib::View unlisted_guard(const DLTensor *t, size_t bytes) {
  if (!IsHost(t->device))
    return {};
  return mylib::host_view(t->data, bytes);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: data of an imported DLTensor accessed from the host without checking its device type [interop-unsupported-dlpack-device]
}

int import_metal(DLManagedTensor *mt) {
  if (mt->dl_tensor.device.device_type != kDLMetal)
    return -1;
  return mylib::import_tensor(mt);
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: import of a tensor whose device type is kDLMetal, which 'import_tensor' does not support; this call always fails [interop-unsupported-dlpack-device]
}

int import_vulkan(DLManagedTensor *mt) {
  if (mt->dl_tensor.device.device_type != kDLVulkan)
    return -1;
  return mylib::import_tensor(mt);
}
