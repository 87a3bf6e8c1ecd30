// Names of DLPack device types, shared by error messages and the checks' docs.
#include "interop/dlpack.h"

namespace interop {
namespace dl {

const char *device_type_name(int32_t device_type) noexcept {
  switch (device_type) {
  case kCPU:
    return "kDLCPU";
  case kCUDA:
    return "kDLCUDA";
  case kCUDAHost:
    return "kDLCUDAHost";
  case kOpenCL:
    return "kDLOpenCL";
  case kVulkan:
    return "kDLVulkan";
  case kMetal:
    return "kDLMetal";
  case kVPI:
    return "kDLVPI";
  case kROCM:
    return "kDLROCM";
  case kROCMHost:
    return "kDLROCMHost";
  case kExtDev:
    return "kDLExtDev";
  case kCUDAManaged:
    return "kDLCUDAManaged";
  case kOneAPI:
    return "kDLOneAPI";
  case kWebGPU:
    return "kDLWebGPU";
  case kHexagon:
    return "kDLHexagon";
  case kMAIA:
    return "kDLMAIA";
  case kTrn:
    return "kDLTrn";
  case kTPU:
    return "kDLTPU";
  case kTPUHost:
    return "kDLTPUHost";
  case kAscend:
    return "kDLAscend";
  default:
    return nullptr;
  }
}

} // namespace dl
} // namespace interop
