// RUN: %check_interop %s interop-unsupported-dlpack-device %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1
// RUN: %check_interop -check-suffix=JAX %s interop-unsupported-dlpack-device %t.jax -- \
// RUN:   -config="{CheckOptions: {interop-unsupported-dlpack-device.SupportedDeviceTypes: 'kDLCPU;kDLCUDA;kDLCUDAHost;kDLROCM;kDLROCMHost;kDLOneAPI;kDLTPUHost'}}" \
// RUN:   -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A producer that sets its tensor's device type and
// imports it in the same function makes an import whose outcome is known: a
// type the importer does not accept always fails. The default
// SupportedDeviceTypes is what the default importer (the runtime's
// from_dlpack) accepts: CPU, CUDA, CUDA host, CUDA managed, TPU host. With
// JAX's list (the JAX run) kDLROCM is accepted and kDLCUDAManaged is not.

#include "interop/dl.h"
#include <stdint.h>

namespace interop {
struct Device {};
struct Array {};
template <class T> struct Result {};
Result<Array> from_dlpack(DLManagedTensorVersioned *tensor,
                          const Device &target);
} // namespace interop

DLManagedTensorVersioned *wrap(void *data);

interop::Result<interop::Array> braced_vulkan(void *data, int ordinal,
                                              const interop::Device &cpu) {
  DLManagedTensorVersioned *mt = wrap(data);
  mt->dl_tensor.device = DLDevice{kDLVulkan, ordinal};
  return interop::from_dlpack(mt, cpu);
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: import of a tensor whose device type is kDLVulkan, which 'from_dlpack' does not support; this call always fails [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: device type established here
  // CHECK-MESSAGES-JAX: :[[@LINE-3]]:31: warning: import of a tensor whose device type is kDLVulkan, which 'from_dlpack' does not support; this call always fails [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES-JAX: :[[@LINE-5]]:3: note: device type established here
}

interop::Result<interop::Array> field_metal(void *data,
                                            const interop::Device &cpu) {
  DLManagedTensorVersioned *mt = wrap(data);
  mt->dl_tensor.device.device_type = kDLMetal;
  mt->dl_tensor.device.device_id = 0;
  return interop::from_dlpack(mt, cpu);
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: import of a tensor whose device type is kDLMetal, which 'from_dlpack' does not support; this call always fails [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: device type established here
  // CHECK-MESSAGES-JAX: :[[@LINE-3]]:31: warning: import of a tensor whose device type is kDLMetal
  // CHECK-MESSAGES-JAX: :[[@LINE-6]]:3: note: device type established here
}

// Through the runtime's writer, read from its body.
interop::Result<interop::Array> setter_rocm(void *data,
                                            const interop::Device &gpu) {
  DLManagedTensorVersioned *mt = wrap(data);
  interop::dl::set_device_type(mt->dl_tensor.device, interop::dl::kROCM);
  return interop::from_dlpack(mt, gpu);
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: import of a tensor whose device type is kDLROCM, which 'from_dlpack' does not support; this call always fails [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: device type established here
}

// Accepted by the runtime (not by JAX).
interop::Result<interop::Array> braced_managed(void *data, int ordinal,
                                               const interop::Device &gpu) {
  DLManagedTensorVersioned *mt = wrap(data);
  mt->dl_tensor.device = DLDevice{kDLCUDAManaged, ordinal};
  return interop::from_dlpack(mt, gpu);
  // CHECK-MESSAGES-JAX: :[[@LINE-1]]:31: warning: import of a tensor whose device type is kDLCUDAManaged, which 'from_dlpack' does not support; this call always fails [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES-JAX: :[[@LINE-3]]:3: note: device type established here
}

interop::Result<interop::Array> setter_cpu(void *data,
                                           const interop::Device &cpu) {
  DLManagedTensorVersioned *mt = wrap(data);
  interop::dl::set_device_type(mt->dl_tensor.device, interop::dl::kCPU);
  return interop::from_dlpack(mt, cpu);
}

// --- Not known: no finding --------------------------------------------------

// A type that is not a constant.
interop::Result<interop::Array> runtime_type(void *data, int32_t type,
                                             const interop::Device &cpu) {
  DLManagedTensorVersioned *mt = wrap(data);
  interop::dl::set_device_type(mt->dl_tensor.device, type);
  return interop::from_dlpack(mt, cpu);
}

// Written on one path only.
interop::Result<interop::Array> one_path(void *data, bool vulkan,
                                         const interop::Device &cpu) {
  DLManagedTensorVersioned *mt = wrap(data);
  mt->dl_tensor.device = DLDevice{kDLCPU, 0};
  if (vulkan)
    mt->dl_tensor.device = DLDevice{kDLVulkan, 0};
  return interop::from_dlpack(mt, cpu);
}

// Rewritten to a supported type before the import.
interop::Result<interop::Array> rewritten(void *data,
                                          const interop::Device &cpu) {
  DLManagedTensorVersioned *mt = wrap(data);
  mt->dl_tensor.device = DLDevice{kDLVulkan, 0};
  mt->dl_tensor.device.device_type = kDLCPU;
  return interop::from_dlpack(mt, cpu);
}

// A function whose body does more than copy the type is not a writer.
void relabel(DLDevice &device, int32_t raw) {
  if (raw == 0)
    return;
  __builtin_memcpy(&device.device_type, &raw, sizeof(raw));
}

interop::Result<interop::Array> not_a_plain_writer(void *data,
                                                   const interop::Device &cpu) {
  DLManagedTensorVersioned *mt = wrap(data);
  relabel(mt->dl_tensor.device, kDLVulkan);
  return interop::from_dlpack(mt, cpu);
}
