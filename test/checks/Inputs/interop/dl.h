// The interop::dl part of the runtime's interop/dlpack.h
// (constants and the raw device-type accessors, with the runtime's bodies),
// over the DLPack mock headers (Inputs/dlpack/v1 or v06).
#ifndef INTEROP_MOCK_DL_H
#define INTEROP_MOCK_DL_H

#include <dlpack/dlpack.h>

namespace interop {
namespace dl {
inline constexpr int32_t kCPU = 1;
inline constexpr int32_t kCUDA = 2;
inline constexpr int32_t kCUDAHost = 3;
inline constexpr int32_t kVulkan = 7;
inline constexpr int32_t kROCM = 10;
inline constexpr int32_t kROCMHost = 11;
inline constexpr int32_t kCUDAManaged = 13;
inline constexpr int32_t kTPUHost = 20;

inline int32_t device_type_of(const DLDevice &device) noexcept {
  int32_t raw;
  __builtin_memcpy(&raw, &device.device_type, sizeof(raw));
  return raw;
}

inline void set_device_type(DLDevice &device, int32_t raw) noexcept {
  __builtin_memcpy(&device.device_type, &raw, sizeof(raw));
}
} // namespace dl
} // namespace interop

#endif
