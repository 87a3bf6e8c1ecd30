// RUN: %check_interop %s interop-unsupported-dlpack-device %t -- \
// RUN:   -config="{CheckOptions: { \
// RUN:     interop-unsupported-dlpack-device.PlatformEnums: '::interop::Platform$;::mylib::Backend$'}}" \
// RUN:   -- -std=c++17 -I%S/Inputs/dlpack/v1

// PlatformEnums: the enumerations every enumerator
// of which is a real platform (default '::interop::Platform$'). A `default:`
// that maps an unknown device type onto one of them never fails, whether or
// not a case maps to the same platform. (The default alone is exercised by
// the realistic corpus, test/realistic/dlpack_consumer.cpp platform_for.)

#include <dlpack/dlpack.h>

namespace interop {
enum class Platform { kCpu, kCuda, kTpu };
struct Status {
  Status(int code, const char *message);
};
template <class T> struct Result {
  Result(T value);
  Result(Status error);
};
} // namespace interop

namespace mylib {
enum class Backend { kHost, kCuda };
enum class Lane { kFast, kSlow, kNone };
} // namespace mylib

using interop::Platform;

// --- Silent ----------------------------------------------------------------

interop::Result<Platform> platform_or_error(const DLDevice &device) {
  switch (device.device_type) {
  case kDLCPU:
    return Platform::kCpu;
  case kDLCUDA:
    return Platform::kCuda;
  default:
    return interop::Status(3, "unsupported device type");
  }
}

bool is_gpu(const DLDevice &device) {
  switch (device.device_type) {
  case kDLCUDA:
  case kDLCUDAManaged:
    return true;
  default:
    return false;
  }
}

// Not a platform enumeration: kNone can be the "no such lane" answer.
mylib::Lane lane_for(const DLDevice &device) {
  switch (device.device_type) {
  case kDLCUDA:
    return mylib::Lane::kFast;
  case kDLCPU:
    return mylib::Lane::kSlow;
  default:
    return mylib::Lane::kNone;
  }
}

// --- Findings --------------------------------------------------------------

Platform platform_for(const DLDevice &device) {
  switch (device.device_type) {
  case kDLCUDA:
  case kDLCUDAManaged:
    return Platform::kCuda;
  default:
    return Platform::kCpu;
  }
  // CHECK-MESSAGES: :[[@LINE-3]]:3: warning: 'default' maps unknown device types to a supported platform instead of failing [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: unknown types become this platform (its enumeration is listed in PlatformEnums)
}

interop::Result<Platform> wrapped_platform_for(const DLDevice &device) {
  switch (device.device_type) {
  case kDLCUDA:
    return Platform::kCuda;
  default:
    return Platform::kTpu;
  }
  // CHECK-MESSAGES: :[[@LINE-3]]:3: warning: 'default' maps unknown device types to a supported platform instead of failing [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: unknown types become this platform
}

void assign_backend(const DLDevice &device, mylib::Backend &out) {
  switch (device.device_type) {
  case kDLCUDA:
    out = mylib::Backend::kCuda;
    break;
  default:
    out = mylib::Backend::kHost;
    break;
  }
  // CHECK-MESSAGES: :[[@LINE-4]]:3: warning: 'default' maps unknown device types to a supported platform instead of failing [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES: :[[@LINE-4]]:11: note: unknown types become this platform
}
